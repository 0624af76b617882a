import { describe, expect, it } from 'vitest';
import { freeSlots, isFreeSlot, scheduleProblems, type ScheduleLike } from '../../src/shared/domain/appointments';

const sp: ScheduleLike = {
  timeZone: 'America/Sao_Paulo', slotMinutes: 30, bufferMinutes: 0,
  windows: [{ weekday: 1, startMinute: 9 * 60, endMinute: 11 * 60 }], // Mondays 09:00–11:00
};
const iso = (s: { start: Date }[]) => s.map((x) => x.start.toISOString());
const past = new Date('2000-01-01T00:00:00Z');

describe('appointment slots', () => {
  it('cuts a weekly window into slots in the attendant zone', () => {
    const slots = freeSlots(sp, [], new Date('2026-11-30T00:00:00Z'), new Date('2026-12-01T00:00:00Z'), past);
    expect(iso(slots)).toEqual(['2026-11-30T12:00:00.000Z', '2026-11-30T12:30:00.000Z', '2026-11-30T13:00:00.000Z', '2026-11-30T13:30:00.000Z']);
    expect(slots[0]!.end.toISOString()).toBe('2026-11-30T12:30:00.000Z');
  });

  it('keeps the buffer after each slot and around booked ones', () => {
    const s = { ...sp, bufferMinutes: 15 };
    const from = new Date('2026-11-30T00:00:00Z'), to = new Date('2026-12-01T00:00:00Z');
    expect(iso(freeSlots(s, [], from, to, past))).toEqual(['2026-11-30T12:00:00.000Z', '2026-11-30T12:45:00.000Z', '2026-11-30T13:30:00.000Z']);
    const booked = [{ start: new Date('2026-11-30T12:00:00Z'), end: new Date('2026-11-30T12:30:00Z') }];
    expect(iso(freeSlots(s, booked, from, to, past))).toEqual(['2026-11-30T12:45:00.000Z', '2026-11-30T13:30:00.000Z']);
    expect(iso(freeSlots(sp, booked, from, to, past))).toEqual(['2026-11-30T12:30:00.000Z', '2026-11-30T13:00:00.000Z', '2026-11-30T13:30:00.000Z']);
  });

  it('drops slots that already started', () => {
    const slots = freeSlots(sp, [], new Date('2026-11-30T00:00:00Z'), new Date('2026-12-01T00:00:00Z'), new Date('2026-11-30T12:40:00Z'));
    expect(iso(slots)).toEqual(['2026-11-30T13:00:00.000Z', '2026-11-30T13:30:00.000Z']);
  });

  it('keeps 09:00 local across a DST change', () => {
    const ny: ScheduleLike = { timeZone: 'America/New_York', slotMinutes: 60, bufferMinutes: 0, windows: [{ weekday: 1, startMinute: 540, endMinute: 600 }] };
    const slots = freeSlots(ny, [], new Date('2026-10-26T00:00:00Z'), new Date('2026-11-10T00:00:00Z'), past);
    // EDT (UTC-4) before 1 Nov 2026, EST (UTC-5) after.
    expect(iso(slots)).toEqual(['2026-10-26T13:00:00.000Z', '2026-11-02T14:00:00.000Z', '2026-11-09T14:00:00.000Z']);
  });

  it('skips a slot inside a spring-forward gap', () => {
    const ny: ScheduleLike = { timeZone: 'America/New_York', slotMinutes: 30, bufferMinutes: 0, windows: [{ weekday: 0, startMinute: 120, endMinute: 210 }] };
    // 8 Mar 2026: 02:00–03:00 does not exist.
    const slots = freeSlots(ny, [], new Date('2026-03-08T00:00:00Z'), new Date('2026-03-09T00:00:00Z'), past);
    expect(iso(slots)).toEqual(['2026-03-08T07:00:00.000Z']); // 03:00 EDT
  });

  it('checks a requested start and validates schedules', () => {
    expect(isFreeSlot(sp, [], new Date('2026-11-30T12:30:00Z'), past)?.end.toISOString()).toBe('2026-11-30T13:00:00.000Z');
    expect(isFreeSlot(sp, [], new Date('2026-11-30T12:10:00Z'), past)).toBeNull();
    expect(scheduleProblems(sp)).toEqual([]);
    expect(scheduleProblems({ ...sp, slotMinutes: 0 })).toEqual(['slotMinutes']);
    expect(scheduleProblems({ ...sp, windows: [{ weekday: 1, startMinute: 60, endMinute: 120 }, { weekday: 1, startMinute: 90, endMinute: 150 }] })).toEqual(['overlap']);
    expect(scheduleProblems({ ...sp, windows: [{ weekday: 7, startMinute: 60, endMinute: 120 }] })).toEqual(['window']);
  });
});
