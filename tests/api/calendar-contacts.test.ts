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
