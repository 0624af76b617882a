import { describe, expect, it } from 'vitest';
import { offsetClock } from '../../src/server/clock';

describe('offsetClock', () => {
  it('fires the timers it passes, in due order, once, and never a cancelled one', () => {
    const clock = offsetClock();
    const fired: string[] = [];
    clock.setTimeout(() => fired.push('30s'), 30_000);
    clock.setTimeout(() => fired.push('4s'), 4_000);
    const cancel = clock.setTimeout(() => fired.push('cancelled'), 10_000);
    cancel();
    clock.advance(5_000);
    expect(fired).toEqual(['4s']);
    clock.advance(60_000);
    clock.advance(60_000);
    expect(fired).toEqual(['4s', '30s']);
  });

  it('fires on real time too', async () => {
    const clock = offsetClock();
    const fired = await new Promise<boolean>((resolve) => clock.setTimeout(() => resolve(true), 20));
    expect(fired).toBe(true);
  });
});
