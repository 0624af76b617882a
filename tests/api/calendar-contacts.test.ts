/**
 * Contacts of the company (not members) as event participants: invited beside members, e-mailed an
 * .ics in the company's language (a real SMTP server receives it, a real iCalendar parser reads
 * it), told of changes and of the deletion, shown in the event; only the company's own contacts.
 * And a meeting's chat follows the event: deleting the meeting concludes its conversation, and a
 * participant who removes himself leaves it.
 */
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONVERSATION_STATE } from '../../src/shared/constants';
import { startTestServer, type TestServer } from '../helpers/server';
import { serviceCompany, type ClientSocket } from '../helpers/service';
import { startSmtpServer } from '../helpers/smtp';

let server: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
const sockets: ClientSocket[] = [];
beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ env: { SMTP_URL: smtp.url } });
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await server?.close();
  await smtp?.close();
});

const company = () => serviceCompany(server, sockets, {});
const meeting = (domain: string, extra: Record<string, unknown> = {}) => ({
  domain, title: 'Kick-off', start: '2026-12-01T12:00:00.000Z', end: '2026-12-01T13:00:00.000Z', timeZone: 'America/Sao_Paulo', isMeeting: true, ...extra,
});
let n = 0;
const contact = (companyId: string, name: string) =>
  server.db.contact.create({ data: { companyId, name, email: `${name.toLowerCase()}.${Date.now()}.${n++}@example.com` } });
const vevent = (ics: string) => {
  const cal = new ICAL.Component(ICAL.parse(ics));
  return { method: cal.getFirstPropertyValue('method'), event: new ICAL.Event(cal.getFirstSubcomponent('vevent')!) };
};

describe('contacts as participants', () => {
  it('are invited beside members by e-mail with an .ics in the company language, and shown in the event', async () => {
    const c = await company();
    const ana = await c.attendant('Ana');
    const lia = await contact(c.company.id, 'Lia');
    const created = await c.admin.call('calendar.create', meeting(c.domain, { participantIds: [ana.userId], contactIds: [lia.id] }));
    const mail = await smtp.next(lia.email!);
    // serviceCompany registers the company in Portuguese.
    expect(mail.subject).toBe(`${c.company.name}: convite para "Kick-off"`);
    expect(mail.text).toContain('Olá Lia,');
    const ics = vevent(mail.attachments.find((a) => a.contentType.includes('text/calendar'))!.content);
    expect(ics.method).toBe('REQUEST');
    expect(ics.event.startDate.toJSDate().toISOString()).toBe('2026-12-01T12:00:00.000Z');
    expect(ics.event.uid).toBe(`${created.id}@${c.domain}`);
    const event = await ana.call('calendar.get', { domain: c.domain, eventId: created.id }, 'query');
    expect(event.contacts).toEqual([{ contactId: lia.id, name: 'Lia', email: lia.email }]);
    const list = await c.admin.call('calendar.list', { domain: c.domain, from: '2026-11-30T00:00:00Z', to: '2026-12-02T00:00:00Z' }, 'query');
    expect(list[0].contacts).toEqual([{ contactId: lia.id, name: 'Lia', email: lia.email }]);
    // The member invited gets the same invitation by e-mail, in her own language (none set: English).
    const anaUser = await server.db.user.findUniqueOrThrow({ where: { id: ana.userId } });
    const anaMail = await smtp.next(anaUser.email!);
    expect(anaMail.subject).toBe(`${c.company.name}: invitation to "Kick-off"`);
    expect(vevent(anaMail.attachments[0]!.content).event.uid).toBe(`${created.id}@${c.domain}`);
    // A contact is not a member: nobody was added to the meeting's conversation for her.
    expect(await server.db.participant.count({ where: { conversationId: created.conversationId } })).toBe(2);
  });

  it('one added is invited, one kept is told of the change, one taken off and all on deletion get the cancellation', async () => {
    const c = await company();
    const lia = await contact(c.company.id, 'Lia');
    const rui = await contact(c.company.id, 'Rui');
    const { id } = await c.admin.call('calendar.create', meeting(c.domain, { contactIds: [lia.id] }));
    await smtp.next(lia.email!);
    await c.admin.call('calendar.update', { domain: c.domain, eventId: id, scope: 'series', contactIds: [lia.id, rui.id], start: '2026-12-01T14:00:00.000Z', end: '2026-12-01T15:00:00.000Z' });
    expect((await smtp.next(rui.email!)).subject).toContain('convite');
    const changed = await smtp.next(lia.email!);
    expect(changed.subject).toContain('foi alterado');
    expect(vevent(changed.attachments[0]!.content).event.startDate.toJSDate().toISOString()).toBe('2026-12-01T14:00:00.000Z');
    await c.admin.call('calendar.update', { domain: c.domain, eventId: id, scope: 'series', contactIds: [rui.id] });
    const off = await smtp.next(lia.email!);
    expect(vevent(off.attachments[0]!.content).method).toBe('CANCEL');
    await smtp.next(rui.email!); // the change
    await c.admin.call('calendar.remove', { domain: c.domain, eventId: id, scope: 'series' });
    const gone = await smtp.next(rui.email!);
    expect(gone.subject).toContain('foi cancelado');
    expect(vevent(gone.attachments[0]!.content).method).toBe('CANCEL');
  });

  it("only the company's own contacts: another company's is refused and nothing is written", async () => {
    const c = await company();
    const other = await company();
    const stranger = await contact(other.company.id, 'Zed');
    const before = await server.db.calendarEvent.count({ where: { companyId: c.company.id } });
    const refused = await c.admin.attempt('calendar.create', meeting(c.domain, { contactIds: [stranger.id] }));
    expect(refused.error).toMatchObject({ code: 'BAD_REQUEST', message: 'Invited contacts must be contacts of this company' });
    expect(await server.db.calendarEvent.count({ where: { companyId: c.company.id } })).toBe(before);
    const { id } = await c.admin.call('calendar.create', meeting(c.domain));
    expect((await c.admin.attempt('calendar.update', { domain: c.domain, eventId: id, scope: 'series', contactIds: [stranger.id] })).error)
      .toMatchObject({ code: 'BAD_REQUEST' });
    expect(await server.db.calendarContact.count({ where: { eventId: id } })).toBe(0);
  });
});

describe("a meeting's chat follows the event", () => {
  it('deleting the meeting concludes its conversation, history kept', async () => {
    const c = await company();
    const ana = await c.attendant('Ana');
    const { id, conversationId } = await c.admin.call('calendar.create', meeting(c.domain, { participantIds: [ana.userId] }));
    expect(await c.admin.call('calendar.remove', { domain: c.domain, eventId: id, scope: 'series' })).toEqual({ effect: 'deleteEvent' });
    const conv = await server.db.conversation.findUniqueOrThrow({ where: { id: conversationId } });
    expect(conv.state).toBe(CONVERSATION_STATE.concluded);
    expect(conv.concludedAt).toBeInstanceOf(Date);
    // Those who took part still read it.
    expect(await ana.call('chat.conversation', { domain: c.domain, conversationId }, 'query')).toBeTruthy();
  });

  it('a participant who removes himself leaves its chat; the others stay', async () => {
    const c = await company();
    const ana = await c.attendant('Ana');
    const bia = await c.attendant('Bia');
    const { id, conversationId } = await c.admin.call('calendar.create', meeting(c.domain, { participantIds: [ana.userId, bia.userId] }));
    expect(await ana.call('calendar.remove', { domain: c.domain, eventId: id, scope: 'series' })).toEqual({ effect: 'removeSelf' });
    const rows = new Map((await server.db.participant.findMany({ where: { conversationId } })).map((p) => [p.userId, p.removed]));
    expect(rows.get(ana.userId)).toBe(true);
    expect(rows.get(bia.userId)).toBe(false);
    expect(rows.get(c.admin.userId)).toBe(false);
    expect((await ana.attempt('chat.conversation', { domain: c.domain, conversationId }, 'query')).error).toBeTruthy();
    const conv = await server.db.conversation.findUniqueOrThrow({ where: { id: conversationId } });
    expect(conv.state).not.toBe(CONVERSATION_STATE.concluded);
  });
});

describe('a cancelled occurrence of a series', () => {
  // Tuesdays 09:00 in São Paulo (12:00Z) from 1 December 2026.
  const series = (domain: string, contactIds: string[]) => ({
    domain, title: 'Weekly', start: '2026-12-01T12:00:00.000Z', end: '2026-12-01T13:00:00.000Z', timeZone: 'America/Sao_Paulo',
    repeat: 'personalizarsemana', weekdays: ['ter'], contactIds,
  });
  const ics = (mail: { attachments: { contentType: string; content: string }[] }) => mail.attachments.find((a) => a.contentType.includes('text/calendar'))!.content;

  it("mails its contacts that occurrence's cancellation (RECURRENCE-ID, METHOD:CANCEL) in the company's language, once", async () => {
    const c = await company();
    const lia = await contact(c.company.id, 'Lia');
    const { id } = await c.admin.call('calendar.create', series(c.domain, [lia.id]));
    await smtp.next(lia.email!); // the invitation
    const cancel = (at: string) => c.admin.call('calendar.remove', { domain: c.domain, eventId: id, scope: 'occurrence', occurrenceStart: at });
    expect(await cancel('2026-12-08T12:00:00.000Z')).toEqual({ effect: 'cancelOccurrence' });
    const mail = await smtp.next(lia.email!);
    // serviceCompany registers the company in Portuguese; the date is the occurrence's, in the event's zone.
    expect(mail.subject).toBe(`${c.company.name}: "Weekly" cancelado em 8 de dez. de 2026`);
    expect(mail.text).toContain('Olá Lia,');
    expect(mail.text).toContain('Esta ocorrência de "Weekly" foi cancelada');
    const parsed = vevent(ics(mail));
    expect(parsed.method).toBe('CANCEL');
    expect(parsed.event.uid).toBe(`${id}@${c.domain}`);
    const raw = ics(mail).replace(/\r\n/g, '\n');
    expect(raw).toContain('RECURRENCE-ID;TZID=America/Sao_Paulo:20261208T090000');
    expect(raw).toContain('STATUS:CANCELLED');
    expect(raw).not.toContain('RRULE');
    // Cancelling it again mails nothing: the next mail Lia gets is the next cancellation.
    await cancel('2026-12-08T12:00:00.000Z');
    await cancel('2026-12-15T12:00:00.000Z');
    expect(ics(await smtp.next(lia.email!)).replace(/\r\n/g, '\n')).toContain('RECURRENCE-ID;TZID=America/Sao_Paulo:20261215T090000');
    // The rest of the series is untouched: it is still there, with those two dates gone.
    const list = await c.admin.call('calendar.list', { domain: c.domain, from: '2026-12-01T00:00:00Z', to: '2026-12-23T00:00:00Z' }, 'query');
    expect(list.map((o: { start: string }) => new Date(o.start).toISOString())).toEqual(['2026-12-01T12:00:00.000Z', '2026-12-22T12:00:00.000Z']);
  });

  it('a moved occurrence is cancelled at the time the contacts were last told', async () => {
    const c = await company();
    const lia = await contact(c.company.id, 'Lia');
    const { id } = await c.admin.call('calendar.create', series(c.domain, [lia.id]));
    await smtp.next(lia.email!);
    await c.admin.call('calendar.update', { domain: c.domain, eventId: id, scope: 'occurrence', occurrenceStart: '2026-12-08T12:00:00.000Z', start: '2026-12-09T15:00:00.000Z' });
    await c.admin.call('calendar.remove', { domain: c.domain, eventId: id, scope: 'occurrence', occurrenceStart: '2026-12-08T12:00:00.000Z' });
    const raw = ics(await smtp.next(lia.email!)).replace(/\r\n/g, '\n');
    expect(raw).toContain('RECURRENCE-ID;TZID=America/Sao_Paulo:20261208T090000');
    expect(raw).toContain('DTSTART;TZID=America/Sao_Paulo:20261209T120000');
  });

  it("another company's member cannot cancel it: refused, nothing written, nobody mailed", async () => {
    const c = await company();
    const other = await company();
    const lia = await contact(c.company.id, 'Lia');
    const { id } = await c.admin.call('calendar.create', series(c.domain, [lia.id]));
    await smtp.next(lia.email!);
    const input = { eventId: id, scope: 'occurrence', occurrenceStart: '2026-12-08T12:00:00.000Z' };
    expect((await other.admin.attempt('calendar.remove', { domain: other.domain, ...input })).error?.code).toBe('NOT_FOUND');
    expect((await other.admin.attempt('calendar.remove', { domain: c.domain, ...input })).error?.code).toBe('FORBIDDEN');
    expect(await server.db.calendarException.count({ where: { eventId: id } })).toBe(0);
    // The next mail Lia gets is the one her own company sends.
    await c.admin.call('calendar.remove', { domain: c.domain, ...input });
    expect((await smtp.next(lia.email!)).subject).toContain('cancelado em');
  });
});
