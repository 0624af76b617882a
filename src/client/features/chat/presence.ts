import type { PresenceEvent } from '../../../shared/chat-events';
import type { PresenceStatus } from '../../../shared/domain/presence';
import type { AppSocket } from '../../socket';

/** The most ids one `chat.presence` call takes. */
const BATCH = 500;

/**
 * Presence of the people on screen (spec 4: Disponível, Ocupado, Volto logo, offline). Components
 * say whom they show (`want`); the store asks the server for the ones it does not know, in one
 * batched call, and follows `presence:update` pushes. After a reconnection it asks again, since
 * pushes were missed meanwhile.
 */
export class PresenceStore {
  private statuses = new Map<string, PresenceStatus>();
  private wanted = new Map<string, number>();
  private queue = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private listeners = new Set<() => void>();
  private readonly off: () => void;

  constructor(
    private readonly socket: AppSocket,
    private readonly fetch: (userIds: string[]) => Promise<{ userId: string; status: PresenceStatus }[]>,
  ) {
    const onUpdate = (p: PresenceEvent) => {
      if (this.statuses.get(p.userId) === p.status) return;
      this.statuses.set(p.userId, p.status);
      this.emit();
    };
    const onConnect = () => {
      for (const id of this.wanted.keys()) this.queue.add(id);
      this.schedule();
    };
    socket.on('presence:update', onUpdate);
    socket.on('connect', onConnect);
    this.off = () => {
      socket.off('presence:update', onUpdate);
      socket.off('connect', onConnect);
    };
  }

  stop() {
    this.off();
    if (this.timer) clearTimeout(this.timer);
    this.listeners.clear();
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  get(userId: string): PresenceStatus | null {
    return this.statuses.get(userId) ?? null;
  }

  /** Shows these people: their presence is fetched once and followed; the returned function lets go. */
  want(userIds: string[]): () => void {
    for (const id of userIds) {
      this.wanted.set(id, (this.wanted.get(id) ?? 0) + 1);
      if (!this.statuses.has(id)) this.queue.add(id);
    }
    this.schedule();
    return () => {
      for (const id of userIds) {
        const n = (this.wanted.get(id) ?? 1) - 1;
        if (n <= 0) this.wanted.delete(id);
        else this.wanted.set(id, n);
      }
    };
  }

  private schedule() {
    if (this.timer || this.queue.size === 0) return;
    // One request for everything the screen asked for in the same moment.
    this.timer = setTimeout(() => {
      this.timer = null;
      const ids = [...this.queue];
      this.queue.clear();
      for (let i = 0; i < ids.length; i += BATCH) {
        this.fetch(ids.slice(i, i + BATCH))
          .then((rows) => {
            for (const r of rows) this.statuses.set(r.userId, r.status);
            this.emit();
          })
          .catch(() => {
            // Unknown presence shows no dot; the next reconnection asks again.
          });
      }
    }, 30);
  }

  private emit() {
    for (const l of [...this.listeners]) l();
  }
}
