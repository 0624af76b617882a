/**
 * Time as the services see it: what time it is, and timers that fire on that time (ring timeouts,
 * queue alarms, billing ticks). Tests move it forward instead of waiting.
 */
export interface Clock {
  now(): Date;
  /** Calls `fn` once `ms` have passed on this clock. Returns a function that cancels it. */
  setTimeout(fn: () => void, ms: number): () => void;
}

export const systemClock: Clock = {
  now: () => new Date(),
  setTimeout: (fn, ms) => {
    const timer = setTimeout(fn, ms);
    timer.unref?.();
    return () => clearTimeout(timer);
  },
};

/**
 * Real time plus an offset the test controls. Its timers fire when real time reaches them or
 * when `advance` moves the clock past them, whichever comes first, in due order.
 */
export function offsetClock(): Clock & { advance(ms: number): void } {
  let offset = 0;
  const now = () => Date.now() + offset;
  const timers = new Set<{ due: number; fn: () => void; cancelReal: () => void }>();
  const fire = (t: { due: number; fn: () => void; cancelReal: () => void }) => {
    if (!timers.delete(t)) return;
    t.cancelReal();
    t.fn();
  };
  return {
    now: () => new Date(now()),
    setTimeout: (fn, ms) => {
      const t = { due: now() + ms, fn, cancelReal: () => {} };
      const real = setTimeout(() => fire(t), Math.max(0, ms));
      real.unref?.();
      t.cancelReal = () => clearTimeout(real);
      timers.add(t);
      return () => {
        timers.delete(t);
        t.cancelReal();
      };
    },
    advance: (ms) => {
      offset += ms;
      const due = [...timers].filter((t) => t.due <= now()).sort((a, b) => a.due - b.due);
      for (const t of due) fire(t);
    },
  };
}
