/**
 * The rooms this process hosts, one per call. Creation is serialized per call, so two people
 * joining at the same moment share one router instead of making two; workers are picked
 * round-robin; when a worker dies, the calls whose origin routers it carried are handed to
 * `onLost` (a room that only had receivers there goes on without them).
 *
 * Placement: a room's receiving transports stay on its origin worker while that worker carries
 * fewer than `spreadAfter` consumers; past that (and always for a live room) each new receiver
 * goes to the least-loaded worker, its producers piped there (room.ts). Load is counted in
 * receiving transports plus consumers per worker, over every room of this process.
 */
import type { types } from 'mediasoup';
import type { Logger } from 'pino';
import { listenInfos } from './codecs';
import { MEDIA_CODECS } from './codecs';
import { Room, type RouterPlacement, type RoomNetwork } from './room';
import type { MediaWorkers } from './workers';

export type WorkerPool = Pick<MediaWorkers, 'nextWorker' | 'onWorkerDied' | 'status'> & Partial<Pick<MediaWorkers, 'liveWorkers'>>;

/** Consumers on a room's origin worker before its new receivers go elsewhere (MEDIA_SPREAD_AFTER). */
export const DEFAULT_SPREAD_AFTER = 200;

export class RoomRegistry {
  private readonly rooms = new Map<string, Room>();
  private readonly creating = new Map<string, Promise<Room>>();
  /** Each worker's WebRtcServer, made with its first room; a replaced worker gets its own. */
  private readonly servers = new WeakMap<types.Worker, Promise<types.WebRtcServer | undefined>>();
  private readonly unsubscribe: () => void;
  /** Receiving transports plus consumers per worker index, over every room. */
  private readonly load = new Map<number, number>();
  private readonly placement: RouterPlacement;
  /** Each room's routers on workers other than its origin, while being made and after. */
  private readonly routersMade = new WeakMap<Room, Map<number, Promise<{ router: types.Router; webRtcServer: types.WebRtcServer | undefined }>>>();

  constructor(
    private readonly workers: WorkerPool,
    private readonly network: RoomNetwork,
    private readonly logger: Logger,
    /** The calls whose media died with a worker: end them and tell their participants. */
    onLost: (callIds: string[]) => void,
    private readonly spreadAfter = DEFAULT_SPREAD_AFTER,
  ) {
    this.unsubscribe = workers.onWorkerDied(({ index }) => {
      const lost = [...this.rooms.values()].filter((r) => r.workerIndex === index).map((r) => r.callId);
      for (const callId of lost) this.rooms.delete(callId);
      for (const room of this.rooms.values()) {
        room.forgetWorker(index);
        this.routersMade.get(room)?.delete(index);
      }
      this.load.delete(index);
      if (lost.length) onLost(lost);
    });
    this.placement = {
      pick: (room) => this.pick(room),
      routerOn: (room, index) => this.routerOn(room, index),
      count: (index, delta) => this.load.set(index, Math.max(0, (this.load.get(index) ?? 0) + delta)),
    };
  }

  /** Load per worker index (receiving transports plus consumers), for the benchmark and tests. */
  loadByWorker(): Map<number, number> {
    return new Map(this.load);
  }

  private pick(room: Room): number {
    const live = this.workers.liveWorkers?.() ?? [];
    const origin = room.workerIndex;
    const loadOf = (i: number) => this.load.get(i) ?? 0;
    if (live.length < 2 || (!room.spread && loadOf(origin) < this.spreadAfter)) return origin;
    // Least loaded; the origin wins ties (no pipe needed there).
    let best = origin;
    for (const { index } of live) if (loadOf(index) < loadOf(best)) best = index;
    return best;
  }

  private routerOn(room: Room, index: number) {
    let made = this.routersMade.get(room);
    if (!made) this.routersMade.set(room, (made = new Map()));
    let pending = made.get(index);
    if (!pending) {
      const worker = this.workers.liveWorkers?.().find((w) => w.index === index)?.worker;
      if (!worker) return Promise.reject(new Error(`mediasoup worker ${index} is not running`));
      pending = (async () => {
        const webRtcServer = await this.webRtcServerOf(worker, index);
        const router = await worker.createRouter({ mediaCodecs: MEDIA_CODECS, appData: { callId: room.callId } });
        if (room.isClosed) {
          router.close();
          throw new Error('This call has ended');
        }
        room.addRouter(index, router, webRtcServer);
        return { router, webRtcServer };
      })();
      made.set(index, pending);
      pending.catch(() => made.delete(index));
    }
    return pending;
  }

  get(callId: string): Room | undefined {
    const room = this.rooms.get(callId);
    if (room?.isClosed) {
      this.rooms.delete(callId);
      return undefined;
    }
    return room;
  }

  async getOrCreate(callId: string): Promise<Room> {
    const existing = this.get(callId);
    if (existing) return existing;
    const pending = this.creating.get(callId);
    if (pending) return pending;
    const creation = (async () => {
      const { worker, index } = this.workers.nextWorker();
      const webRtcServer = await this.webRtcServerOf(worker, index);
      const room = await Room.create({ callId, worker, workerIndex: index, network: this.network, webRtcServer, logger: this.logger });
      room.placement = this.placement;
      this.rooms.set(callId, room);
      return room;
    })();
    this.creating.set(callId, creation);
    try {
      return await creation;
    } finally {
      this.creating.delete(callId);
    }
  }

  /**
   * The worker's one listening port for UDP and TCP (RTC_PORT + worker index). When that port is
   * taken, calls still work on a port pair per transport (RTC_MIN_PORT..RTC_MAX_PORT), and the log
   * says why a one-port firewall rule would not be enough.
   */
  private webRtcServerOf(worker: types.Worker, index: number): Promise<types.WebRtcServer | undefined> {
    if (!this.network.webRtcPort) return Promise.resolve(undefined);
    let server = this.servers.get(worker);
    if (!server) {
      const port = this.network.webRtcPort + index;
      server = worker.createWebRtcServer({ listenInfos: listenInfos({ ...this.network, port }) }).then(
        (created) => {
          this.logger.info({ port, worker: index }, 'calls: media on one port (UDP and TCP)');
          return created;
        },
        (err: unknown) => {
          this.logger.warn({ err, port, worker: index }, `calls: RTC_PORT ${port} could not be opened; each call uses ports from RTC_MIN_PORT..RTC_MAX_PORT instead`);
          return undefined;
        },
      );
      this.servers.set(worker, server);
    }
    return server;
  }

  close(callId: string): void {
    const room = this.rooms.get(callId);
    this.rooms.delete(callId);
    room?.close();
  }

  get size(): number {
    return this.rooms.size;
  }

  closeAll(): void {
    this.unsubscribe();
    for (const room of this.rooms.values()) room.close();
    this.rooms.clear();
  }
}
