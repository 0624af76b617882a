/**
 * Appointments through the procedures: an attendant's availability, free slots, booking by a member
 * and by a visitor on the public page, 'slot taken' as a clear text (also under a race: one row
 * and one calendar event win), cancel and reschedule moving the event and its 15-minute reminder,
 * the customer's e-mails with an .ics invitation, the plan flag and tenancy.
 */
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offsetClock } from '../../src/server/clock';
import { fireDueReminders } from '../../src/server/modules/calendar/reminders';
import { startTestServer, type TestServer } from '../helpers/server';
import { anonymousVisitor, serviceCompany, until, type ClientSocket } from '../helpers/service';
import { startSmtpServer } from '../helpers/smtp';

let server: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
const clock = offsetClock();
const sockets: ClientSocket[] = [];
beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ clock, env: { SMTP_URL: smtp.url } });
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await server?.close();
  await smtp?.close();
});

const MIN = 60_000;
const DAY = 86_400_000;
const SLOT_TAKEN = 'This time is no longer available; choose another';
/** The Monday at least a week after now, 00:00Z: far enough that every slot that day is future. */
function nextMonday() {
  const d = new Date(clock.now().getTime() + 7 * DAY);
  d.setUTCHours(0, 0, 0, 0);
  while (d.getUTCDay() !== 1) d.setTime(d.getTime() + DAY);
  return d;
}
const monday = nextMonday();
// Mondays 09:00–11:00 in São Paulo (UTC−3, no DST): 12:00Z–14:00Z, 30-minute slots, 15 minutes kept after each.
const at = (h: number, m = 0) => new Date(monday.getTime() + h * 3_600_000 + m * MIN).toISOString();
const week = { from: monday.toISOString(), to: new Date(monday.getTime() + DAY).toISOString() };
const iso = (d: unknown) => new Date(d as string).toISOString();

async function setup(plan?: Record<string, number>) {
  const c = await serviceCompany(server, sockets, { plan });
  const ana = await c.attendant('Ana');
  await ana.call('appointments.saveSchedule', { domain: c.domain, timeZone: 'America/Sao_Paulo', slotMinutes: 30, bufferMinutes: 15, windows: [{ weekday: 1, startMinute: 540, endMinute: 660 }] });
  return { ...c, ana };
}

describe('availability and slots', () => {
  it('saves weekly windows, refuses overlapping ones, and cuts them into slots with the buffer', async () => {
    const c = await setup();
    const bad = await c.ana.attempt('appointments.saveSchedule', { domain: c.domain, timeZone: 'America/Sao_Paulo', slotMinutes: 30, bufferMinutes: 0, windows: [{ weekday: 1, startMinute: 540, endMinute: 600 }, { weekday: 1, startMinute: 570, endMinute: 620 }] });
    expect(bad.error).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('windows that do not overlap') });
    expect(await c.ana.call('appointments.schedule', { domain: c.domain }, 'query')).toMatchObject({ saved: true, timeZone: 'America/Sao_Paulo', slotMinutes: 30, bufferMinutes: 15, windows: [{ weekday: 1, startMinute: 540, endMinute: 660 }] });
    const fresh = await c.admin.call('appointments.schedule', { domain: c.domain, zone: 'Europe/Berlin' }, 'query');
    expect(fresh).toMatchObject({ saved: false, timeZone: 'Europe/Berlin', windows: [] });

    expect(await c.admin.call('appointments.attendants', { domain: c.domain }, 'query')).toEqual([{ userId: c.ana.userId, name: 'Ana' }]);
    const { slots } = await c.admin.call('appointments.slots', { domain: c.domain, attendantId: c.ana.userId, ...week }, 'query');
    // 09:00, 09:45, 10:30 local: 30 minutes each, 15 kept after.
    expect(slots.map((s: { start: string }) => iso(s.start))).toEqual([at(12), at(12, 45), at(13, 30)]);
    // A member without windows does not take appointments.
    expect((await c.ana.attempt('appointments.slots', { domain: c.domain, attendantId: c.admin.userId, ...week }, 'query')).error)
      .toMatchObject({ code: 'NOT_FOUND', message: 'This attendant does not take appointments' });
  });
});

describe('booking', () => {
  it('books a slot with its calendar event and 15-minute reminder, mails an .ics, refuses the taken slot with a clear text', async () => {
    const c = await setup();
    const booked = await c.admin.call('appointments.book', { domain: c.domain, attendantId: c.ana.userId, start: at(12, 45), name: 'Carla Cliente', email: 'carla@example.com' });
    expect(iso(booked.start)).toBe(at(12, 45));
    const row = await server.db.appointment.findUniqueOrThrow({ where: { id: booked.id } });
    expect(row).toMatchObject({ status: 'booked', customerName: 'Carla Cliente', customerEmail: 'carla@example.com' });
    const event = await server.db.calendarEvent.findUniqueOrThrow({ where: { id: row.eventId! } });
    expect(event).toMatchObject({ appointmentId: row.id, creatorId: c.ana.userId, timeZone: 'America/Sao_Paulo', title: 'Appointment: Carla Cliente' });
    const tasks = await server.db.scheduledTask.findMany({ where: { eventId: event.id } });
    expect(tasks.map((t) => [t.task, t.startAt.toISOString()])).toEqual([['appointmentReminder', new Date(Date.parse(at(12, 45)) - 15 * MIN).toISOString()]]);
    // The attendant sees it in the calendar and in the list, and was notified.
    const cal = await c.ana.call('calendar.list', { domain: c.domain, ...week }, 'query');
    expect(cal).toHaveLength(1);
    expect(cal[0]).toMatchObject({ appointmentId: row.id });
    expect((await c.ana.call('appointments.mine', { domain: c.domain }, 'query')).map((a: { id: string }) => a.id)).toEqual([row.id]);
    expect(await server.db.notification.count({ where: { userId: c.ana.userId, type: 'appointmentBooked' } })).toBe(1);

    const mail = await smtp.next('carla@example.com');
    expect(mail.subject).toBe(`Agendamento confirmado com ${c.company.name}`); // the company's language (pt)
    expect(mail.attachments).toHaveLength(1);
    expect(mail.attachments[0]!.contentType).toContain('text/calendar');
    const vevent = new ICAL.Component(ICAL.parse(mail.attachments[0]!.content)).getFirstSubcomponent('vevent')!;
    expect(new ICAL.Event(vevent).startDate.toJSDate().toISOString()).toBe(at(12, 45));

    // The slot is gone (09:00 stays: its 15-minute buffer ends at 09:45); booking it again is a clear refusal.
    const { slots } = await c.admin.call('booking.slots', { domain: c.domain, attendantId: c.ana.userId, ...week }, 'query');
    expect(slots.map((s: { start: string }) => iso(s.start))).toEqual([at(12), at(13, 30)]);
    expect((await c.admin.attempt('appointments.book', { domain: c.domain, attendantId: c.ana.userId, start: at(12, 45), name: 'Other', email: 'o@example.com' })).error)
      .toMatchObject({ code: 'CONFLICT', message: SLOT_TAKEN });
  });

  it('under a race of ten bookings of one slot, one appointment and one event win; the rest are told the slot is taken', async () => {
    const c = await setup();
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) =>
      c.admin.attempt('appointments.book', { domain: c.domain, attendantId: c.ana.userId, start: at(12), name: `C${i}`, email: `c${i}@example.com` })));
    expect(results.filter((r) => r.data)).toHaveLength(1);
    for (const r of results.filter((x) => x.error)) expect(r.error).toMatchObject({ code: 'CONFLICT', message: SLOT_TAKEN });
    const companyId = c.company.id;
    expect(await server.db.appointment.count({ where: { companyId } })).toBe(1);
    // No event without its appointment: the losers' transactions left nothing behind.
    expect(await server.db.calendarEvent.count({ where: { companyId } })).toBe(1);
    expect(await server.db.scheduledTask.count({ where: { companyId } })).toBe(1);
  });

  it('a visitor books from the public page; without the plan flag the page offers nobody', async () => {
    const c = await setup();
    const visitor = await anonymousVisitor(server, sockets);
    expect(await visitor.call('booking.attendants', { domain: c.domain }, 'query')).toEqual([{ userId: c.ana.userId, name: 'Ana' }]);
    const { id } = await visitor.call('booking.book', { domain: c.domain, attendantId: c.ana.userId, start: at(13, 30), name: 'Vera Visitante', email: 'vera@example.com' });
    expect(await server.db.appointment.findUniqueOrThrow({ where: { id } })).toMatchObject({ customerId: visitor.userId, customerName: 'Vera Visitante' });
    expect((await smtp.next('vera@example.com')).attachments).toHaveLength(1);
    // Bad input is a clear text.
    expect((await visitor.attempt('booking.book', { domain: c.domain, attendantId: c.ana.userId, start: at(12), name: ' ', email: 'x' })).error?.code).toBe('BAD_REQUEST');

    await server.db.company.update({ where: { id: c.company.id }, data: { plan: { ...(c.company.plan as object), calendar: 0 } } });
    expect(await visitor.call('booking.attendants', { domain: c.domain }, 'query')).toEqual([]);
    expect((await visitor.attempt('booking.slots', { domain: c.domain, attendantId: c.ana.userId, ...week }, 'query')).error?.code).toBe('FORBIDDEN');
    expect((await visitor.attempt('booking.book', { domain: c.domain, attendantId: c.ana.userId, start: at(12), name: 'V', email: 'v@example.com' })).error?.code).toBe('FORBIDDEN');
  });
});

describe('cancel and reschedule', () => {
  it('cancelling frees the slot and removes the event; rescheduling moves event and reminder, never onto a taken slot', async () => {
    const c = await setup();
    const first = await c.admin.call('appointments.book', { domain: c.domain, attendantId: c.ana.userId, start: at(12), name: 'Rui', email: 'rui@example.com' });
    await smtp.next('rui@example.com');
    const second = await c.admin.call('appointments.book', { domain: c.domain, attendantId: c.ana.userId, start: at(12, 45), name: 'Sara', email: 'sara@example.com' });
    await smtp.next('sara@example.com');

    expect((await c.ana.attempt('appointments.reschedule', { domain: c.domain, appointmentId: first.id, start: at(12, 45) })).error).toMatchObject({ code: 'CONFLICT', message: SLOT_TAKEN });
    const moved = await c.ana.call('appointments.reschedule', { domain: c.domain, appointmentId: first.id, start: at(13, 30) });
    expect(iso(moved.start)).toBe(at(13, 30));
    const row = await server.db.appointment.findUniqueOrThrow({ where: { id: first.id } });
    expect((await server.db.calendarEvent.findUniqueOrThrow({ where: { id: row.eventId! } })).start.toISOString()).toBe(at(13, 30));
    expect((await server.db.scheduledTask.findFirstOrThrow({ where: { eventId: row.eventId! } })).startAt.toISOString()).toBe(new Date(Date.parse(at(13, 30)) - 15 * MIN).toISOString());
    expect((await smtp.next('rui@example.com')).subject).toContain('remarcado');

    await c.ana.call('appointments.cancel', { domain: c.domain, appointmentId: second.id });
    const cancelled = await server.db.appointment.findUniqueOrThrow({ where: { id: second.id } });
    expect(cancelled).toMatchObject({ status: 'cancelled', bookedStart: null });
    expect(await server.db.calendarEvent.count({ where: { id: cancelled.eventId! } })).toBe(0);
    expect(await server.db.scheduledTask.count({ where: { eventId: cancelled.eventId! } })).toBe(0);
    const cancelMail = await smtp.next('sara@example.com');
    expect(cancelMail.attachments[0]!.content).toContain('METHOD:CANCEL');
    expect((await c.ana.attempt('appointments.cancel', { domain: c.domain, appointmentId: second.id })).error?.message).toBe('This appointment was cancelled');
    // Its slot is free again, and the list moves it to the past/cancelled side.
    await c.admin.call('appointments.book', { domain: c.domain, attendantId: c.ana.userId, start: at(12, 45), name: 'Tito', email: 'tito@example.com' });
    expect((await c.ana.call('appointments.mine', { domain: c.domain, when: 'past' }, 'query')).map((a: { id: string }) => a.id)).toEqual([second.id]);
  });

  it('shows an appointment to its attendant and admins only, and to no other company', async () => {
    const c = await setup();
    const other = await setup();
    const bia = await c.attendant('Bia');
    const { id } = await c.admin.call('appointments.book', { domain: c.domain, attendantId: c.ana.userId, start: at(12), name: 'Rui', email: 'rui2@example.com' });
    await smtp.next('rui2@example.com');
    expect(await c.ana.call('appointments.get', { domain: c.domain, appointmentId: id }, 'query')).toMatchObject({ id, attendantName: 'Ana', customerName: 'Rui', mine: true });
    expect((await bia.attempt('appointments.get', { domain: c.domain, appointmentId: id }, 'query')).error).toMatchObject({ code: 'NOT_FOUND', message: 'Appointment not found' });
    expect((await bia.attempt('appointments.cancel', { domain: c.domain, appointmentId: id })).error?.code).toBe('NOT_FOUND');
    // Another company's admin, through their own company: not found; through ours: refused.
    expect((await other.admin.attempt('appointments.get', { domain: other.domain, appointmentId: id }, 'query')).error?.code).toBe('NOT_FOUND');
    expect((await other.admin.attempt('appointments.get', { domain: c.domain, appointmentId: id }, 'query')).error?.code).toBe('FORBIDDEN');
    // Nor can a company book another company's attendant.
    expect((await other.admin.attempt('appointments.book', { domain: other.domain, attendantId: c.ana.userId, start: at(12, 45), name: 'X', email: 'x@example.com' })).error)
      .toMatchObject({ code: 'NOT_FOUND', message: 'This attendant does not take appointments' });
    // The plan flag closes the member side too.
    await server.db.company.update({ where: { id: c.company.id }, data: { plan: { ...(c.company.plan as object), calendar: 0 } } });
    expect((await c.ana.attempt('appointments.mine', { domain: c.domain }, 'query')).error?.code).toBe('FORBIDDEN');
  });
});

describe('reminders', () => {
  it('15 minutes before, the attendant gets the in-app reminder and the customer an e-mail', async () => {
    const c = await setup();
    const { id } = await c.admin.call('appointments.book', { domain: c.domain, attendantId: c.ana.userId, start: at(13, 30), name: 'Rita', email: 'rita@example.com' });
    await smtp.next('rita@example.com');
    // Ten seconds after it fell due: on time, not 'late'.
    clock.advance(Date.parse(at(13, 30)) - 15 * MIN + 10_000 - clock.now().getTime());
    // The server's own tick may be claiming it at this moment (SKIP LOCKED): wait for it to land.
    await fireDueReminders(server.server.deps);
    await until(async () => (await server.db.notification.count({ where: { userId: c.ana.userId, type: 'calendarReminder' } })) === 1);
    const mail = await smtp.next('rita@example.com');
    expect(mail.subject).toContain('Lembrete');
    expect(mail.attachments).toHaveLength(0);
    expect((await server.db.appointment.findUniqueOrThrow({ where: { id } })).status).toBe('booked');
  });

  it("at the booked time the visitor's conversation opens in the queue, linked to the appointment and its event", async () => {
    const c = await setup();
    const visitor = await anonymousVisitor(server, sockets);
    const { id } = await visitor.call('booking.book', { domain: c.domain, attendantId: c.ana.userId, start: at(13, 30), name: 'Olga', email: 'olga@example.com' });
    await smtp.next('olga@example.com');
    const row = await server.db.appointment.findUniqueOrThrow({ where: { id } });
    expect(await server.db.scheduledTask.findMany({ where: { eventId: row.eventId!, task: 'appointmentOpen' } })).toHaveLength(1);
    clock.advance(Date.parse(at(13, 30)) - clock.now().getTime() + 1000);
    await fireDueReminders(server.server.deps);
    await until(async () => !!(await server.db.appointment.findUniqueOrThrow({ where: { id } })).conversationId);
    const opened = await server.db.appointment.findUniqueOrThrow({ where: { id } });
    const conversation = await server.db.conversation.findUniqueOrThrow({ where: { id: opened.conversationId! } });
    expect(conversation).toMatchObject({ companyId: c.company.id, creatorId: visitor.userId, inQueue: true });
    // The customer enters the directory as someone who came through an appointment.
    expect(await server.db.contact.findFirstOrThrow({ where: { companyId: c.company.id, userIds: { has: visitor.userId } } })).toMatchObject({ source: 'appointment' });
    expect((await server.db.calendarEvent.findUniqueOrThrow({ where: { id: opened.eventId! } })).conversationId).toBe(conversation.id);
    expect(await server.db.notification.count({ where: { userId: c.ana.userId, type: 'appointmentStarts', action: `/i/recent/chat/${conversation.id}` } })).toBe(1);
    const open = await visitor.call('customer.openServices', { domain: c.domain }, 'query');
    expect(open.map((o: { conversationId: string }) => o.conversationId)).toContain(conversation.id);
    // Fired once: another tick opens nothing more.
    await fireDueReminders(server.server.deps);
    expect(await server.db.conversation.count({ where: { companyId: c.company.id, creatorId: visitor.userId } })).toBe(1);
  });
});
