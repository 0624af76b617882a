import { describe, expect, it } from 'vitest';
import {
  buildRule, deleteEffect, eventTitle, expand, isOccurrence, mayEdit, nextOccurrences, wallTime, withStart, zonedInstant,
} from '../../src/shared/domain/recurrence';

const wall = (iso: string) => new Date(`${iso}Z`);
/** The local wall time of an instant in a zone, "YYYY-MM-DD HH:MM". */
const local = (d: Date, tz: string) => wallTime(d, tz).toISOString().slice(0, 16).replace('T', ' ');
const at = (isoWall: string, tz: string) => zonedInstant(wall(isoWall), tz);

function series(startWall: string, tz: string, minutes: number, rule: Parameters<typeof buildRule>[2]) {
  const start = at(startWall, tz);
  const end = new Date(start.getTime() + minutes * 60_000);
  return { start, end, timeZone: tz, rrule: buildRule(start, tz, rule) };
}

describe('calendar recurrence options', () => {
  it('stores an RFC 5545 rule with the zone and expands every option', () => {
    const daily = series('2026-12-01T09:00:00', 'America/Sao_Paulo', 60, { repeat: 'todos' });
    expect(daily.rrule).toBe('DTSTART;TZID=America/Sao_Paulo:20261201T090000\nRRULE:FREQ=DAILY');
    expect(expand(daily, at('2026-12-01T00:00:00', 'UTC'), at('2026-12-04T00:00:00', 'UTC')).map((o) => o.start.toISOString()))
      .toEqual(['2026-12-01T12:00:00.000Z', '2026-12-02T12:00:00.000Z', '2026-12-03T12:00:00.000Z']);

    // 2026-12-04 is a Friday: weekdays skip the weekend.
    const weekdays = series('2026-12-04T09:00:00', 'America/Sao_Paulo', 30, { repeat: 'segsex' });
    expect(expand(weekdays, at('2026-12-04T00:00:00', 'UTC'), at('2026-12-09T00:00:00', 'UTC')).map((o) => local(o.start, 'America/Sao_Paulo')))
      .toEqual(['2026-12-04 09:00', '2026-12-07 09:00', '2026-12-08 09:00']);

    const chosen = series('2026-12-01T10:00:00', 'Europe/Berlin', 30, { repeat: 'personalizarsemana', weekdays: ['ter', 'qui'] });
    expect(chosen.rrule).toContain('RRULE:FREQ=WEEKLY;BYDAY=TU,TH');
    expect(expand(chosen, at('2026-12-01T00:00:00', 'UTC'), at('2026-12-11T00:00:00', 'UTC')).map((o) => local(o.start, 'Europe/Berlin')))
      .toEqual(['2026-12-01 10:00', '2026-12-03 10:00', '2026-12-08 10:00', '2026-12-10 10:00']);
    expect(() => buildRule(new Date(), 'UTC', { repeat: 'personalizarsemana', weekdays: [] })).toThrow();

    const monthly = series('2026-01-31T08:00:00', 'Europe/Berlin', 60, { repeat: 'mensal' });
    // RFC 5545: months without a 31st are skipped, never moved.
    expect(expand(monthly, at('2026-01-01T00:00:00', 'UTC'), at('2026-06-01T00:00:00', 'UTC')).map((o) => local(o.start, 'Europe/Berlin')))
      .toEqual(['2026-01-31 08:00', '2026-03-31 08:00', '2026-05-31 08:00']);

    const yearly = series('2026-07-15T14:00:00', 'America/New_York', 60, { repeat: 'anual' });
    expect(nextOccurrences(yearly, at('2026-07-16T00:00:00', 'UTC'), 2).map((o) => local(o.start, 'America/New_York')))
      .toEqual(['2027-07-15 14:00', '2028-07-15 14:00']);
  });

  it('ends a series on its last day', () => {
    const s = series('2026-12-01T09:00:00', 'UTC', 60, { repeat: 'todos', until: wall('2026-12-03T23:59:59') });
    expect(expand(s, wall('2026-11-01T00:00:00'), wall('2027-01-01T00:00:00'))).toHaveLength(3);
  });

  it('applies exceptions: a cancelled occurrence disappears, a moved one shows at its new time, even from outside the range', () => {
    const s = series('2026-12-01T09:00:00', 'UTC', 60, { repeat: 'todos' });
    const second = wall('2026-12-02T09:00:00');
    const third = wall('2026-12-03T09:00:00');
    const exceptions = [
      { occurrenceStart: second, cancelled: true },
      { occurrenceStart: third, cancelled: false, start: wall('2026-12-05T15:00:00'), end: wall('2026-12-05T16:00:00'), title: 'Moved' },
    ];
    const all = expand(s, wall('2026-12-01T00:00:00'), wall('2026-12-06T00:00:00'), exceptions);
    expect(all.map((o) => [o.start.toISOString().slice(0, 16), o.exception, o.title ?? null])).toEqual([
      ['2026-12-01T09:00', false, null],
      ['2026-12-04T09:00', false, null],
      ['2026-12-05T09:00', false, null],
      ['2026-12-05T15:00', true, 'Moved'],
    ]);
    const only5th = expand(s, wall('2026-12-05T12:00:00'), wall('2026-12-06T00:00:00'), exceptions);
    expect(only5th.map((o) => o.occurrenceStart.toISOString())).toEqual(['2026-12-03T09:00:00.000Z']);
    expect(isOccurrence(s, second)).toBe(true);
    expect(isOccurrence(s, wall('2026-12-02T09:30:00'))).toBe(false);
  });

  it('moves the series start without touching the rule', () => {
    const s = series('2026-12-01T09:00:00', 'Europe/Berlin', 60, { repeat: 'todos' });
    expect(withStart(s.rrule, at('2026-12-02T11:30:00', 'Europe/Berlin'))).toBe('DTSTART;TZID=Europe/Berlin:20261202T113000\nRRULE:FREQ=DAILY');
  });
});

describe('recurrence across daylight-saving changes', () => {
  it('a weekly 09:00 São Paulo meeting stays at 09:00 there while Berlin sees it move, across the 2026 and 2027 changes', () => {
    // 2026-12-01 is a Tuesday; Berlin leaves summer time on 2026-10-25 and enters it on 2027-03-28.
    const s = series('2026-10-13T09:00:00', 'America/Sao_Paulo', 60, { repeat: 'personalizarsemana', weekdays: ['ter'] });
    const range = (a: string, b: string) => expand(s, wall(a), wall(b));
    const autumn = range('2026-10-12T00:00:00', '2026-11-04T00:00:00');
    expect(autumn.map((o) => local(o.start, 'America/Sao_Paulo'))).toEqual(['2026-10-13 09:00', '2026-10-20 09:00', '2026-10-27 09:00', '2026-11-03 09:00']);
    expect(autumn.map((o) => local(o.start, 'Europe/Berlin'))).toEqual(['2026-10-13 14:00', '2026-10-20 14:00', '2026-10-27 13:00', '2026-11-03 13:00']);
    const spring = range('2027-03-15T00:00:00', '2027-04-07T00:00:00');
    expect(spring.map((o) => local(o.start, 'America/Sao_Paulo'))).toEqual(['2027-03-16 09:00', '2027-03-23 09:00', '2027-03-30 09:00', '2027-04-06 09:00']);
    expect(spring.map((o) => local(o.start, 'Europe/Berlin'))).toEqual(['2027-03-16 13:00', '2027-03-23 13:00', '2027-03-30 14:00', '2027-04-06 14:00']);
    expect(spring.every((o) => o.end.getTime() - o.start.getTime() === 3_600_000)).toBe(true);
  });

  it('keeps local time in New York (November 2026, March 2027) and in Sydney (October 2026, April 2027)', () => {
    const ny = series('2026-10-26T09:00:00', 'America/New_York', 60, { repeat: 'segsex' });
    const nyTimes = expand(ny, wall('2026-10-30T00:00:00'), wall('2026-11-03T00:00:00')).map((o) => [local(o.start, 'America/New_York'), o.start.toISOString().slice(11, 16)]);
    expect(nyTimes).toEqual([['2026-10-30 09:00', '13:00'], ['2026-11-02 09:00', '14:00']]);
    const nySpring = expand(ny, wall('2027-03-12T00:00:00'), wall('2027-03-16T00:00:00')).map((o) => o.start.toISOString().slice(11, 16));
    expect(nySpring).toEqual(['14:00', '13:00']);

    const syd = series('2026-09-28T18:00:00', 'Australia/Sydney', 45, { repeat: 'todos' });
    const sydAround = expand(syd, wall('2026-10-02T00:00:00'), wall('2026-10-05T12:00:00')).map((o) => local(o.start, 'Australia/Sydney'));
    expect(sydAround).toEqual(['2026-10-02 18:00', '2026-10-03 18:00', '2026-10-04 18:00', '2026-10-05 18:00']);
    const sydApril = expand(syd, wall('2027-04-02T12:00:00'), wall('2027-04-05T00:00:00'));
    expect(sydApril.map((o) => local(o.start, 'Australia/Sydney'))).toEqual(['2027-04-03 18:00', '2027-04-04 18:00']);
    expect(sydApril.map((o) => o.start.toISOString().slice(11, 16))).toEqual(['07:00', '08:00']);
  });

  it('moves a time skipped by spring-forward to after the gap, and keeps a daily 02:30 series going', () => {
    expect(at('2027-03-14T02:30:00', 'America/New_York').toISOString()).toBe('2027-03-14T07:30:00.000Z');
    expect(local(at('2027-03-14T02:30:00', 'America/New_York'), 'America/New_York')).toBe('2027-03-14 03:30');
    // Ambiguous 01:30 on 2026-11-01 takes the first (daylight) reading.
    expect(at('2026-11-01T01:30:00', 'America/New_York').toISOString()).toBe('2026-11-01T05:30:00.000Z');
    const s = series('2027-03-12T02:30:00', 'America/New_York', 30, { repeat: 'todos' });
    expect(expand(s, wall('2027-03-12T00:00:00'), wall('2027-03-16T12:00:00')).map((o) => local(o.start, 'America/New_York')))
      .toEqual(['2027-03-12 02:30', '2027-03-13 02:30', '2027-03-14 03:30', '2027-03-15 02:30', '2027-03-16 02:30']);
  });
});

describe('calendar rules', () => {
  it("stores an empty title as '( Sem Título )'", () => {
    expect(eventTitle('')).toBe('( Sem Título )');
    expect(eventTitle('   ')).toBe('( Sem Título )');
    expect(eventTitle(undefined)).toBe('( Sem Título )');
    expect(eventTitle(' Daily ')).toBe('Daily');
  });

  it('lets only the creator change or delete a whole series; anybody else only removes himself', () => {
    expect(deleteEffect(true, true, 'series')).toBe('deleteEvent');
    expect(deleteEffect(true, true, 'occurrence')).toBe('cancelOccurrence');
    expect(deleteEffect(true, false, 'occurrence')).toBe('deleteEvent');
    expect(deleteEffect(false, true, 'series')).toBe('removeSelf');
    expect(deleteEffect(false, true, 'occurrence')).toBe('removeSelf');
    expect(mayEdit(true, true, 'series')).toBe(true);
    expect(mayEdit(false, true, 'series')).toBe(false);
    expect(mayEdit(false, true, 'occurrence')).toBe(true);
    expect(mayEdit(false, false, 'occurrence')).toBe(false);
  });
});
