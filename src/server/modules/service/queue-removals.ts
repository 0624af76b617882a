/**
 * `queue:removed`, coalesced per audience. Every desk of a company hears every request leave the
 * queue and refetches its queue when it does, so one push per take cost a busy company one frame
 * and one refetch per desk per take (100 attendants racing: 100 frames a take, most of the
 * server's and the desks' work in bench/queue-take). Now the first removal goes out at once and
 * those that follow within QUEUE_REMOVED_WINDOW_MS go out together at the window's end: a desk
 * hears at most one `queue:removed` per window, listing every request that left.
 *
 * An audience is a company's domain with the exact set of users told (the members the take read):
 * removals are only merged for the same people, so nobody learns of a request they would not have
 * been told about. A request that enters the queue again (`queue:added`) must not overtake its
 * own removal: pushQueueAdded flushes the company's pending removals first (flushQueueRemovals).
 */
import type { Realtime } from '../../realtime';

/** Long enough to merge a burst of takes, short enough that nobody sees a taken request linger. */
export const QUEUE_REMOVED_WINDOW_MS = 100;

interface Audience {
  domain: string;
  users: string[];
  /** Removed since the last push, in the order they left. */
  pending: string[];
  /** The window after a push (set by tell): its end pushes what gathered (and opens another) or forgets the audience. */
  timer?: ReturnType<typeof setTimeout>;
}

/** The open windows of one Realtime (one app instance), by domain and audience. */
class QueueRemovals {
  private readonly open = new Map<string, Audience>();

  constructor(private readonly realtime: Realtime) {}

  push(domain: string, users: Iterable<string>, conversationIds: string[]) {
    const people = [...new Set(users)].sort();
    if (people.length === 0 || conversationIds.length === 0) return;
    const key = `${domain}\n${people.join(',')}`;
    const audience = this.open.get(key);
    if (audience) audience.pending.push(...conversationIds);
    else this.tell(key, { domain, users: people, pending: conversationIds });
  }

  /** Pushes every pending removal of `domain` now (before that company's queue:added). */
  flush(domain: string) {
    for (const [key, audience] of this.open) {
      if (audience.domain !== domain) continue;
      clearTimeout(audience.timer);
      this.endWindow(key, audience);
    }
  }

  private tell(key: string, audience: Audience) {
    this.realtime.toUsers(audience.users, 'queue:removed', { domain: audience.domain, conversationIds: audience.pending });
    audience.pending = [];
    audience.timer = setTimeout(() => this.endWindow(key, audience), QUEUE_REMOVED_WINDOW_MS);
    // An open window must not keep a stopping process alive: its sockets are closing anyway.
    audience.timer.unref?.();
    this.open.set(key, audience);
  }

  private endWindow(key: string, audience: Audience) {
    if (audience.pending.length > 0) this.tell(key, audience);
    else this.open.delete(key);
  }
}

const removalsOf = new WeakMap<Realtime, QueueRemovals>();

function removals(realtime: Realtime) {
  let r = removalsOf.get(realtime);
  if (!r) removalsOf.set(realtime, (r = new QueueRemovals(realtime)));
  return r;
}

/** Tells `users` that these requests of `domain` left the queue: at once, or with the others of this window. */
export function pushQueueRemovals(realtime: Realtime, domain: string, users: Iterable<string>, conversationIds: string[]) {
  removals(realtime).push(domain, users, conversationIds);
}

/** What is pending for `domain` goes out now: a request entering the queue again must not overtake its removal. */
export function flushQueueRemovals(realtime: Realtime, domain: string) {
  removalsOf.get(realtime)?.flush(domain);
}
