/**
 * Calendar: events and weekly series expanded on read, one occurrence vs the whole series
 * ('Esta Ocorrência' / 'Toda a Série'), a participant who deletes only leaves, the plan flag, and
 * tenancy (another company's event does not exist). Reminders: tests/api/calendar-reminders.test.ts.
 */
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { record, serviceCompany, until, type ClientSocket } from '../helpers/service';

let server: TestServer;
const sockets: ClientSocket[] = [];
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await server?.close();
});

const company = (plan?: Record<string, number>) => serviceCompany(server, sockets, { plan });
const iso = (d: unknown) => new Date(d as string).toISOString();
// Tuesdays 09:00–10:00 in São Paulo (12:00Z), from 2026-12-01.
const weekly = (domain: string, extra: Record<string, unknown> = {}) => ({
  domain, title: 'Weekly', start: '2026-12-01T12:00:00.000Z', end: '2026-12-01T13:00:00.000Z', timeZone: 'America/Sao_Paulo',
  isMeeting: true, repeat: 'personalizarsemana', weekdays: ['ter'], ...extra,
});
const december = (domain: string) => ({ domain, from: '2026-11-30T00:00:00.000Z', to: '2026-12-28T00:00:00.000Z' });

describe('events and series', () => {
  it("stores an empty title as '( Sem Título )', expands a weekly series and shows it to participants", async () => {
    const c = await company();
    const ana = await c.attendant('Ana');
    const changes = record(await ana.open(), 'calendar:changed');
    const { id } = await c.admin.call('calendar.create', weekly(c.domain, { title: '  ', participantIds: [ana.userId] }));
    await until(() => changes.some((e) => e.eventId === id));
    const list = await ana.call('calendar.list', december(c.domain), 'query');
    expect(list.map((o: { start: string }) => iso(o.start))).toEqual(['2026-12-01T12:00:00.000Z', '2026-12-08T12:00:00.000Z', '2026-12-15T12:00:00.000Z', '2026-12-22T12:00:00.000Z']);
    expect(list[0]).toMatchObject({ eventId: id, title: '( Sem Título )', recurring: true, mine: false, isMeeting: true, participants: [{ userId: ana.userId, name: 'Ana' }] });
    const event = await c.admin.call('calendar.get', { domain: c.domain, eventId: id }, 'query');
    expect(event).toMatchObject({ repeat: 'personalizarsemana', weekdays: ['ter'], rrule: 'DTSTART;TZID=America/Sao_Paulo:20261201T090000\nRRULE:FREQ=WEEKLY;BYDAY=TU', mine: true });
    const notes = await server.db.notification.findMany({ where: { userId: ana.userId, type: 'calendarInvite' } });
    expect(notes).toHaveLength(1);
  });

  it("changes one occurrence ('Esta Ocorrência') or the whole series ('Toda a Série'), cancels one, deletes all", async () => {
    const c = await company();
    const { id } = await c.admin.call('calendar.create', weekly(c.domain));
    const second = '2026-12-08T12:00:00.000Z';
    await c.admin.call('calendar.update', { domain: c.domain, eventId: id, scope: 'occurrence', occurrenceStart: second, title: 'Moved', start: '2026-12-09T15:00:00.000Z', end: '2026-12-09T16:00:00.000Z' });
    let list = await c.admin.call('calendar.list', december(c.domain), 'query');
    expect(list.map((o: { start: string; title: string }) => [iso(o.start), o.title])).toEqual([
      ['2026-12-01T12:00:00.000Z', 'Weekly'], ['2026-12-09T15:00:00.000Z', 'Moved'], ['2026-12-15T12:00:00.000Z', 'Weekly'], ['2026-12-22T12:00:00.000Z', 'Weekly'],
    ]);
    expect(iso(list[1].occurrenceStart)).toBe(second);
    // An instant the rule never gives is refused.
    expect((await c.admin.attempt('calendar.update', { domain: c.domain, eventId: id, scope: 'occurrence', occurrenceStart: '2026-12-08T12:30:00.000Z', title: 'x' })).error)
      .toMatchObject({ code: 'BAD_REQUEST', message: 'This occurrence does not exist' });

    // Drag the third occurrence an hour later for the whole series: every Tuesday moves, keeps 09→10 São Paulo shape.
    await c.admin.call('calendar.update', { domain: c.domain, eventId: id, scope: 'series', occurrenceStart: '2026-12-15T12:00:00.000Z', start: '2026-12-15T13:00:00.000Z', end: '2026-12-15T14:30:00.000Z', title: 'Weekly (10h)' });
    list = await c.admin.call('calendar.list', december(c.domain), 'query');
    expect(list.map((o: { start: string; end: string; title: string }) => [iso(o.start), iso(o.end), o.title])).toEqual([
      ['2026-12-01T13:00:00.000Z', '2026-12-01T14:30:00.000Z', 'Weekly (10h)'],
      ['2026-12-08T13:00:00.000Z', '2026-12-08T14:30:00.000Z', 'Weekly (10h)'],
      ['2026-12-15T13:00:00.000Z', '2026-12-15T14:30:00.000Z', 'Weekly (10h)'],
      ['2026-12-22T13:00:00.000Z', '2026-12-22T14:30:00.000Z', 'Weekly (10h)'],
    ]);

    expect(await c.admin.call('calendar.remove', { domain: c.domain, eventId: id, scope: 'occurrence', occurrenceStart: '2026-12-08T13:00:00.000Z' })).toEqual({ effect: 'cancelOccurrence' });
    list = await c.admin.call('calendar.list', december(c.domain), 'query');
    expect(list).toHaveLength(3);
    expect(await c.admin.call('calendar.remove', { domain: c.domain, eventId: id, scope: 'series' })).toEqual({ effect: 'deleteEvent' });
    expect(await c.admin.call('calendar.list', december(c.domain), 'query')).toEqual([]);
    expect(await server.db.scheduledTask.count({ where: { eventId: id } })).toBe(0);
  });

  it('lets only the creator change the series; a participant who deletes only removes himself', async () => {
    const c = await company();
    const ana = await c.attendant('Ana');
    const bia = await c.attendant('Bia');
    const { id } = await c.admin.call('calendar.create', weekly(c.domain, { participantIds: [ana.userId, bia.userId] }));
    expect((await ana.attempt('calendar.update', { domain: c.domain, eventId: id, scope: 'series', title: 'Mine now' })).error)
      .toMatchObject({ code: 'FORBIDDEN', message: 'Only the creator can change or delete the whole series' });
    expect(await ana.call('calendar.remove', { domain: c.domain, eventId: id, scope: 'series' })).toEqual({ effect: 'removeSelf' });
    expect(await ana.call('calendar.list', december(c.domain), 'query')).toEqual([]);
    expect((await ana.attempt('calendar.get', { domain: c.domain, eventId: id }, 'query')).error?.code).toBe('NOT_FOUND');
    const forBia = await bia.call('calendar.list', december(c.domain), 'query');
    expect(forBia).toHaveLength(4);
    expect(forBia[0].participants).toEqual([{ userId: bia.userId, name: 'Bia' }]);
    expect(await c.admin.call('calendar.list', december(c.domain), 'query')).toHaveLength(4);
  });

  it('refuses bad input clearly: end before start, no weekday, unknown zone, outsiders as participants', async () => {
    const c = await company();
    const other = await company();
    const bad = async (input: Record<string, unknown>) => (await c.admin.attempt('calendar.create', { ...weekly(c.domain), ...input })).error;
    expect(await bad({ end: '2026-12-01T11:00:00.000Z' })).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('The end must be after the start') });
    expect(await bad({ weekdays: [] })).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('Choose at least one weekday') });
    expect(await bad({ timeZone: 'Mars/Olympus' })).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('Unknown time zone') });
    expect(await bad({ participantIds: [other.admin.userId] })).toMatchObject({ code: 'BAD_REQUEST', message: 'Participants must be active members of this company' });
  });
});

describe('plan and tenancy', () => {
  it('is refused when the plan lacks calendar', async () => {
    const c = await company({ calendar: 0 });
    expect((await c.admin.attempt('calendar.list', december(c.domain), 'query')).error).toMatchObject({
      code: 'FORBIDDEN', message: 'The calendar is not included in your plan. Ask an administrator to enable it.',
    });
  });

  it("never shows or changes another company's event", async () => {
    const c = await company();
    const other = await company();
    const { id } = await c.admin.call('calendar.create', weekly(c.domain));
    expect(await other.admin.call('calendar.list', december(other.domain), 'query')).toEqual([]);
    expect((await other.admin.attempt('calendar.get', { domain: other.domain, eventId: id }, 'query')).error?.code).toBe('NOT_FOUND');
    expect((await other.admin.attempt('calendar.remove', { domain: other.domain, eventId: id, scope: 'series' })).error?.code).toBe('NOT_FOUND');
    expect((await other.admin.attempt('calendar.list', december(c.domain), 'query')).error?.code).toBe('FORBIDDEN');
    expect(await c.admin.call('calendar.list', december(c.domain), 'query')).toHaveLength(4);
  });
});

describe('iCalendar feed', () => {
  it('serves my events as iCalendar that a real parser expands in the event zone, with exceptions; rotating revokes the old URL', async () => {
    const c = await company();
    const ana = await c.attendant('Ana');
    const { id } = await c.admin.call('calendar.create', weekly(c.domain, { participantIds: [ana.userId] }));
    await c.admin.call('calendar.update', { domain: c.domain, eventId: id, scope: 'occurrence', occurrenceStart: '2026-12-08T12:00:00.000Z', title: 'Moved', start: '2026-12-09T15:00:00.000Z', end: '2026-12-09T16:00:00.000Z' });
    await c.admin.call('calendar.remove', { domain: c.domain, eventId: id, scope: 'occurrence', occurrenceStart: '2026-12-15T12:00:00.000Z' });
    const { url } = await ana.call('calendar.feedUrl', { domain: c.domain }, 'query');
    expect(url).toMatch(new RegExp(`^${server.url}/calendar/feed/[\\w-]{32}\\.ics$`));
    const res = await fetch(url);
    expect(res.headers.get('content-type')).toContain('text/calendar');
    const text = await res.text();
    expect(text).toContain('DTSTART;TZID=America/Sao_Paulo:20261201T090000');

    const vevents = new ICAL.Component(ICAL.parse(text)).getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));
    const series = vevents.find((e) => e.isRecurring())!;
    expect(series.summary).toBe('Weekly');
    const it = series.iterator();
    const starts: string[] = [];
    for (let next = it.next(); next && starts.length < 4; next = it.next()) {
      const time = next.clone();
      const d = series.getOccurrenceDetails(time);
      starts.push(`${time.toString()}|${d.startDate.toJSDate().toISOString()}`);
    }
    // The parser gives the rule's times; the feed's EXDATEs remove the changed and cancelled ones.
    const exdates = series.component.getAllProperties('exdate').flatMap((p) => p.getValues().map((v: { toString(): string }) => v.toString()));
    expect(exdates).toEqual(['2026-12-08T09:00:00', '2026-12-15T09:00:00']);
    expect(starts[0]).toContain('2026-12-01T09:00:00');
    const moved = vevents.find((e) => e.summary === 'Moved')!;
    // 15:00Z is 12:00 in São Paulo: times are the event's wall time under its TZID (no VTIMEZONE
    // is sent, so the parser reads them as written; subscribing clients know IANA zones).
    expect(moved.startDate.toString()).toBe('2026-12-09T12:00:00');
    expect(moved.component.getFirstProperty('dtstart')!.getParameter('tzid')).toBe('America/Sao_Paulo');

    const { url: rotated } = await ana.call('calendar.rotateFeed', { domain: c.domain });
    expect(rotated).not.toBe(url);
    expect((await fetch(url)).status).toBe(404);
    expect((await fetch(rotated)).status).toBe(200);
    await ana.call('calendar.revokeFeed', { domain: c.domain });
    expect((await fetch(rotated)).status).toBe(404);
    // Another member's feed shows only their own events.
    const { url: bia } = await (await c.attendant('Bia')).call('calendar.feedUrl', { domain: c.domain }, 'query');
    expect(await (await fetch(bia)).text()).not.toContain('Weekly');
  });
});
