/**
 * The rooms this process hosts, one per call. Creation is serialized per call, so two people
 * joining at the same moment share one router instead of making two; workers are picked
 * round-robin; when a worker dies, the calls whose routers it carried are handed to `onLost`.
 */
import type { types } from 'mediasoup';
import type { Logger } from 'pino';
import { listenInfos } from './codecs';
import { Room, type RoomNetwork } from './room';
import type { MediaWorkers } from './workers';

export type WorkerPool = Pick<MediaWorkers, 'nextWorker' | 'onWorkerDied' | 'status'>;

export class RoomRegistry {
  private readonly rooms = new Map<string, Room>();
  private readonly creating = new Map<string, Promise<Room>>();
  /** Each worker's WebRtcServer, made with its first room; a replaced worker gets its own. */
  private readonly servers = new WeakMap<types.Worker, Promise<types.WebRtcServer | undefined>>();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly workers: WorkerPool,
    private readonly network: RoomNetwork,
    private readonly logger: Logger,
    /** The calls whose media died with a worker: end them and tell their participants. */
    onLost: (callIds: string[]) => void,
  ) {
    this.unsubscribe = workers.onWorkerDied(({ index }) => {
      const lost = [...this.rooms.values()].filter((r) => r.workerIndex === index).map((r) => r.callId);
      for (const callId of lost) this.rooms.delete(callId);
      if (lost.length) onLost(lost);
    });
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
