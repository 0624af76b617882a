/** Time as the services see it. Tests move it forward instead of waiting (guest expiry, codes). */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that follows real time plus an offset the test controls. */
export function offsetClock(): Clock & { advance(ms: number): void } {
  let offset = 0;
  return { now: () => new Date(Date.now() + offset), advance: (ms) => (offset += ms) };
}
