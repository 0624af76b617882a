/**
 * What one process holds for the calls it hosts: the media rooms, the timers that run on the
 * injected Clock (ring timeouts, billing ticks, time limits), the recordings in progress and the
 * call sockets. Everything else about a call is in PostgreSQL (see service.ts).
 */
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { Logger } from '../../logger';
import { announcedAddress } from '../../media/announce';
import { RoomRegistry, type WorkerPool } from '../../media/rooms';
import type { Recorder } from '../../media/recorder';
import type { Realtime } from '../../realtime';
import type { ObjectStore } from '../../storage';
import { createTranslator, type Translator } from '../../translation';
import { Cascade } from './cascade';

export interface CallSocketHandle {
  id: string;
  userId: string;
  disconnect(): void;
}

export class CallsHub {
  /** Null when calls are unavailable on this process (no worker binary, MEDIASOUP_NUM_WORKERS=0). */
  readonly rooms: RoomRegistry | null;
  readonly recorders = new Map<string, Recorder>();
  /** The call sockets on this process, by socket id: kicking someone closes theirs. */
  readonly sockets = new Map<string, CallSocketHandle>();
  /** Translates subtitles (TRANSLATOR_URL), or "none". */
  readonly translator: Translator;
  private readonly timers = new Map<string, () => void>();
  private realtimeRef: Realtime | undefined;
  /** Live rooms across instances (cascade.ts); null without calls on this process. */
  cascade: Cascade | null = null;
  private lostListener: ((callIds: string[]) => void) | undefined;
  private closed = false;

  constructor(
    readonly deps: { db: Db; logger: Logger; clock: Clock; storage: ObjectStore; config: Config; media: WorkerPool },
  ) {
    this.translator = createTranslator(deps.config.translator, deps.logger);
    const available = deps.media.status().available;
    const { listenIp, announcedIp } = deps.config.media;
    const announced = announcedAddress({ listenIp, announcedIp, publicUrl: deps.config.publicUrl });
    if (available && announced.why !== 'configured' && announced.ip) {
      deps.logger.info({ announcedIp: announced.ip, why: announced.why }, 'calls: announcing this address to browsers (set RTC_ANNOUNCED_IP to choose)');
    }
    this.rooms = available
      ? new RoomRegistry(
          deps.media,
          { listenIp, announcedIp: announced.ip, webRtcPort: deps.config.media.webRtcPort },
          deps.logger,
          (ids) => this.lostListener?.(ids),
          deps.config.media.spreadAfter,
        )
      : null;
  }

  /** The realtime layer is created with the HTTP server, after the hub: it is attached then. */
  attach(realtime: Realtime): void {
    this.realtimeRef = realtime;
    if (this.rooms) {
      const { listenIp, pipeIp } = this.deps.config.media;
      this.cascade = new Cascade(this.rooms, realtime, { instanceId: this.instanceId, listenIp, pipeIp }, this.deps.logger);
    }
  }

  get realtime(): Realtime {
    if (!this.realtimeRef) throw new Error('CallsHub used before attach(realtime)');
    return this.realtimeRef;
  }

  get instanceId(): string {
    return this.deps.config.calls.instanceId;
  }

  /** Calls whose worker died: the service ends them (set once, by the service layer). */
  onMediaLost(listener: (callIds: string[]) => void): void {
    this.lostListener = listener;
  }

  /** Runs `fn` once `ms` have passed on the clock; a timer with the same key is replaced. */
  setTimer(key: string, ms: number, fn: () => Promise<void> | void): void {
    if (this.closed) return;
    this.clearTimer(key);
    const cancel = this.deps.clock.setTimeout(() => {
      this.timers.delete(key);
      Promise.resolve()
        .then(fn)
        .catch((err) => this.deps.logger.error({ err, timer: key }, 'call timer failed'));
    }, ms);
    this.timers.set(key, cancel);
  }

  clearTimer(key: string): void {
    this.timers.get(key)?.();
    this.timers.delete(key);
  }

  hasTimer(key: string): boolean {
    return this.timers.has(key);
  }

  clearTimersOf(callId: string): void {
    for (const key of [...this.timers.keys()]) if (key.includes(callId)) this.clearTimer(key);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Stops timers, abandons recordings in progress and closes the rooms (the process is stopping). */
  async close(): Promise<void> {
    this.closed = true;
    for (const cancel of this.timers.values()) cancel();
    this.timers.clear();
    await Promise.all([...this.recorders.values()].map((r) => r.abort().catch(() => {})));
    this.recorders.clear();
    this.rooms?.closeAll();
  }
}

export const timerKeys = {
  ring: (callId: string, participantId: string) => `ring:${callId}:${participantId}`,
  billing: (callId: string, participantId: string) => `billing:${callId}:${participantId}`,
  recordingBilling: (callId: string) => `recbilling:${callId}`,
  timeLimit: (callId: string) => `limit:${callId}`,
};
