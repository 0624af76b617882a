/** The plan-switch proration rule (src/shared/domain/plan-proration.ts), in whole days and cents. */
import { describe, expect, it } from 'vitest';
import { addMonthsUtc, monthlyPeriod, prorateSwitch } from '../../src/shared/domain/plan-proration';

const at = (iso: string) => new Date(iso);
const base = { oldPaid: true, exempt: false };

describe('monthly periods', () => {
  it('run month to month from the day first paid, clamped to short months', () => {
    expect(addMonthsUtc(at('2026-01-31T10:00:00Z'), 1)).toEqual(at('2026-02-28T10:00:00Z'));
    expect(addMonthsUtc(at('2028-01-31T10:00:00Z'), 1)).toEqual(at('2028-02-29T10:00:00Z'));
    expect(addMonthsUtc(at('2026-11-15T00:00:00Z'), 2)).toEqual(at('2027-01-15T00:00:00Z'));
    expect(monthlyPeriod(at('2026-01-10T12:00:00Z'), at('2026-03-10T11:59:59Z'))).toEqual({ start: at('2026-02-10T12:00:00Z'), end: at('2026-03-10T12:00:00Z') });
    expect(monthlyPeriod(at('2026-01-10T12:00:00Z'), at('2026-03-10T12:00:00Z'))).toEqual({ start: at('2026-03-10T12:00:00Z'), end: at('2026-04-10T12:00:00Z') });
    // Anchored on the 31st: February's period ends on the 28th, March's on the 31st again.
    expect(monthlyPeriod(at('2026-01-31T00:00:00Z'), at('2026-03-01T00:00:00Z'))).toEqual({ start: at('2026-02-28T00:00:00Z'), end: at('2026-03-31T00:00:00Z') });
  });
});

describe('proration on a plan switch', () => {
  // Basic 49.90 paid on 1 April (a 30-day period).
  const basic = { ...base, oldMonthlyPrice: '49.90', oldActiveSince: at('2026-04-01T09:00:00Z') };

  it('an upgrade mid-period gives back the unused days of the old plan, to the cent', () => {
    // 10 whole days used, 20 unused: 49.90 x 20/30 = 33.2666... -> 33.27.
    const p = prorateSwitch({ ...basic, switchedAt: at('2026-04-11T15:00:00Z') });
    expect(p).toMatchObject({ credit: '33.2700', daysInPeriod: 30, daysUsed: 10 });
  });

  it('a downgrade gives back the same unused part: the price of the new plan does not enter', () => {
    // Pro 149.99 paid on 1 May (31 days), down to Basic on the 21st: 20 days used, 11 unused.
    const p = prorateSwitch({ ...base, oldMonthlyPrice: '149.99', oldActiveSince: at('2026-05-01T00:00:00Z'), switchedAt: at('2026-05-21T08:00:00Z') });
    // 149.99 x 11/31 = 53.2222... -> 53.22.
    expect(p).toMatchObject({ credit: '53.2200', daysInPeriod: 31, daysUsed: 20 });
  });

  it('on the day the period started, the whole old price comes back', () => {
    expect(prorateSwitch({ ...basic, switchedAt: at('2026-04-01T23:00:00Z') }).credit).toBe('49.9000');
    // A later period of the same plan (its third month) counts from that period's start.
    expect(prorateSwitch({ ...basic, switchedAt: at('2026-06-01T10:00:00Z') })).toMatchObject({ credit: '49.9000', period: { start: at('2026-06-01T09:00:00Z') } });
  });

  it('on the last day of the period, one day comes back', () => {
    // 29 days used of 30: 49.90 / 30 = 1.6633... -> 1.66.
    expect(prorateSwitch({ ...basic, switchedAt: at('2026-05-01T08:59:59Z') })).toMatchObject({ credit: '1.6600', daysUsed: 29 });
  });

  it('rounds half up once, at the cent', () => {
    // A 30-day period, 15 days unused: 0.15 x 15/30 = 0.075 -> 0.08.
    expect(prorateSwitch({ ...base, oldMonthlyPrice: '0.15', oldActiveSince: at('2026-04-01T00:00:00Z'), switchedAt: at('2026-04-16T00:00:00Z') }).credit).toBe('0.0800');
  });

  it('an exempt company (isentarCobranca) is never charged and gets nothing back', () => {
    const p = prorateSwitch({ ...basic, exempt: true, switchedAt: at('2026-04-11T15:00:00Z') });
    expect(p.credit).toBe('0.0000');
    expect(prorateSwitch({ ...basic, exempt: true, oldMonthlyPrice: '1000000', switchedAt: at('2026-04-01T10:00:00Z') }).credit).toBe('0.0000');
  });

  it('an old plan not paid for its period (past due) or free gives nothing back', () => {
    expect(prorateSwitch({ ...basic, oldPaid: false, switchedAt: at('2026-04-11T15:00:00Z') }).credit).toBe('0.0000');
    expect(prorateSwitch({ ...basic, oldMonthlyPrice: '0', switchedAt: at('2026-04-11T15:00:00Z') }).credit).toBe('0.0000');
  });
});
