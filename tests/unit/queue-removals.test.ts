/**
 * queue:removed coalesced per audience (src/server/modules/service/queue-removals.ts): the first
 * removal goes out at once, those of the next QUEUE_REMOVED_WINDOW_MS together at its end, only
 * to the same people, and a company's pending removals go out before its next queue:added. The
 * timing is the subject here, so the clock is vitest's; the pushes are what Realtime.toUsers was
 * asked (the real sockets' side is in tests/realtime/service*.test.ts).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Realtime } from '../../src/server/realtime';
import { flushQueueRemovals, pushQueueRemovals, QUEUE_REMOVED_WINDOW_MS } from '../../src/server/modules/service/queue-removals';

type Pushed = { users: string[]; payload: { domain: string; conversationIds: string[] } };

function recorder() {
  const pushed: Pushed[] = [];
  const realtime = {
    toUsers: (users: Iterable<string>, event: string, payload: Pushed['payload']) => {
      expect(event).toBe('queue:removed');
      pushed.push({ users: [...users], payload });
    },
  } as unknown as Realtime;
  return { realtime, pushed };
}

describe('queue:removed, coalesced', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('tells the first removal at once and the rest of a burst together when the window ends', () => {
    const { realtime, pushed } = recorder();
    pushQueueRemovals(realtime, 'acme', ['u2', 'u1'], ['r1']);
    expect(pushed).toEqual([{ users: ['u1', 'u2'], payload: { domain: 'acme', conversationIds: ['r1'] } }]);

    pushQueueRemovals(realtime, 'acme', ['u1', 'u2'], ['r2']);
    vi.advanceTimersByTime(QUEUE_REMOVED_WINDOW_MS / 2);
    pushQueueRemovals(realtime, 'acme', ['u2', 'u1', 'u1'], ['r3']);
    expect(pushed).toHaveLength(1);
    vi.advanceTimersByTime(QUEUE_REMOVED_WINDOW_MS / 2);
    expect(pushed).toHaveLength(2);
    expect(pushed[1]).toEqual({ users: ['u1', 'u2'], payload: { domain: 'acme', conversationIds: ['r2', 'r3'] } });

    // That push opened another window; one with nothing in it closes, and the next removal is told at once.
    pushQueueRemovals(realtime, 'acme', ['u1', 'u2'], ['r4']);
    vi.advanceTimersByTime(QUEUE_REMOVED_WINDOW_MS);
    expect(pushed.map((p) => p.payload.conversationIds)).toEqual([['r1'], ['r2', 'r3'], ['r4']]);
    vi.advanceTimersByTime(QUEUE_REMOVED_WINDOW_MS);
    pushQueueRemovals(realtime, 'acme', ['u1', 'u2'], ['r5']);
    expect(pushed.map((p) => p.payload.conversationIds)).toEqual([['r1'], ['r2', 'r3'], ['r4'], ['r5']]);
  });

  it('merges removals only for the same company and the same people', () => {
    const { realtime, pushed } = recorder();
    pushQueueRemovals(realtime, 'acme', ['u1', 'u2'], ['a1']);
    pushQueueRemovals(realtime, 'acme', ['u1'], ['a2']);
    pushQueueRemovals(realtime, 'other', ['u1', 'u2'], ['o1']);
    // Three audiences: each one's first removal is told at once.
    expect(pushed.map((p) => [p.payload.domain, p.users, p.payload.conversationIds])).toEqual([
      ['acme', ['u1', 'u2'], ['a1']],
      ['acme', ['u1'], ['a2']],
      ['other', ['u1', 'u2'], ['o1']],
    ]);
    pushQueueRemovals(realtime, 'acme', ['u1', 'u2'], ['a3']);
    pushQueueRemovals(realtime, 'other', ['u1', 'u2'], ['o2']);
    vi.advanceTimersByTime(QUEUE_REMOVED_WINDOW_MS);
    expect(pushed.slice(3).map((p) => [p.payload.domain, p.users, p.payload.conversationIds])).toEqual([
      ['acme', ['u1', 'u2'], ['a3']],
      ['other', ['u1', 'u2'], ['o2']],
    ]);
  });

  it("sends a company's pending removals when asked (before a request enters its queue again)", () => {
    const { realtime, pushed } = recorder();
    pushQueueRemovals(realtime, 'acme', ['u1'], ['r1']);
    pushQueueRemovals(realtime, 'acme', ['u1'], ['r2']);
    pushQueueRemovals(realtime, 'other', ['u1'], ['o1']);
    pushQueueRemovals(realtime, 'other', ['u1'], ['o2']);
    flushQueueRemovals(realtime, 'acme');
    expect(pushed.map((p) => p.payload.conversationIds)).toEqual([['r1'], ['o1'], ['r2']]);
    vi.advanceTimersByTime(QUEUE_REMOVED_WINDOW_MS);
    expect(pushed.map((p) => p.payload.conversationIds)).toEqual([['r1'], ['o1'], ['r2'], ['o2']]);
  });

  it('tells nobody about nothing', () => {
    const { realtime, pushed } = recorder();
    pushQueueRemovals(realtime, 'acme', [], ['r1']);
    pushQueueRemovals(realtime, 'acme', ['u1'], []);
    flushQueueRemovals(realtime, 'acme');
    vi.advanceTimersByTime(QUEUE_REMOVED_WINDOW_MS);
    expect(pushed).toEqual([]);
  });
});
