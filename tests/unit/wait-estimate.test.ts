import { describe, expect, it } from 'vitest';
import { estimateWaitMinutes } from '../../src/shared/domain/wait-estimate';

const min = (m: number) => m * 60_000;

describe('estimated wait', () => {
  it('is unknown with fewer than three recent takes', () => {
    expect(estimateWaitMinutes([])).toBeNull();
    expect(estimateWaitMinutes([min(2), min(4)])).toBeNull();
    expect(estimateWaitMinutes([min(2), Number.NaN, -5])).toBeNull();
  });
  it('is the median in whole minutes, so one forgotten request does not inflate it', () => {
    expect(estimateWaitMinutes([min(2), min(4), min(600)])).toBe(4);
    expect(estimateWaitMinutes([min(2), min(3), min(5), min(900)])).toBe(4);
  });
  it('never says less than a minute', () => {
    expect(estimateWaitMinutes([1_000, 2_000, 5_000])).toBe(1);
  });
});
