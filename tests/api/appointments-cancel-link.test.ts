/**
 * The customer cancels from the link in the confirmation e-mail: no account, a signature over the
 * appointment's id. The page reads the appointment, the cancel frees the slot, removes the event
 * with its reminders and tells the attendant; a forged or foreign link opens nothing. The same link
 * moves the booking to another free slot: the event and its reminder move, both sides get a mail.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { record, serviceCompany, until, type ClientSocket } from '../helpers/service';
import { startSmtpServer } from '../helpers/smtp';
import { callProcedure } from '../helpers/trpc';

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

const DAY = 86_400_000;
function nextMonday() {
  const d = new Date(Date.now() + 7 * DAY);
  d.setUTCHours(0, 0, 0, 0);
  while (d.getUTCDay() !== 1) d.setTime(d.getTime() + DAY);
  return d;
}
const monday = nextMonday();
const at = (h: number) => new Date(monday.getTime() + h * 3_600_000).toISOString();
const week = { from: monday.toISOString(), to: new Date(monday.getTime() + DAY).toISOString() };
/** Without a session, as the customer's mail client opens it. */
const anonymous = (path: string, input: unknown, type: 'query' | 'mutation') => callProcedure(server.url, path, input, { type });

async function booked() {
  const c = await serviceCompany(server, sockets, {});
  const ana = await c.attendant('Ana');
  await ana.call('appointments.saveSchedule', { domain: c.domain, timeZone: 'America/Sao_Paulo', slotMinutes: 30, bufferMinutes: 0, windows: [{ weekday: 1, startMinute: 540, endMinute: 600 }] });
  const email = `carla-${c.domain}@example.com`;
  const { id } = await c.admin.call('appointments.book', { domain: c.domain, attendantId: ana.userId, start: at(12), name: 'Carla Cliente', email });
  const mail = await smtp.next(email);
  const link = /Para remarcar ou cancelar: (\S+)/.exec(mail.text)?.[1];
  expect(link).toBeTruthy();
  const url = new URL(link!);
  expect(url.pathname).toBe(`/${c.domain}/book/cancel/${id}`);
  return { c, ana, id, email, token: url.searchParams.get('t')! };
}

describe('cancelling from the e-mail link', () => {
  it('shows the appointment, cancels it, frees the slot and tells the attendant', async () => {
    const { c, ana, id, email, token } = await booked();
    const pushed = record(await ana.open(), 'notification:new');
    const view = await anonymous('booking.byLink', { domain: c.domain, appointmentId: id, token }, 'query');
    expect(view.data).toMatchObject({ attendantName: 'Ana', customerName: 'Carla Cliente', timeZone: 'America/Sao_Paulo', cancelled: false, started: false });
    const { slots: before } = await c.admin.call('appointments.slots', { domain: c.domain, attendantId: ana.userId, ...week }, 'query');
    expect(before).toHaveLength(1);

    expect((await anonymous('booking.cancelByLink', { domain: c.domain, appointmentId: id, token }, 'mutation')).error).toBeUndefined();
    const row = await server.db.appointment.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ status: 'cancelled', bookedStart: null });
    expect(await server.db.calendarEvent.count({ where: { appointmentId: id } })).toBe(0);
    expect(await server.db.scheduledTask.count({ where: { companyId: c.company.id } })).toBe(0);
    const { slots: after } = await c.admin.call('appointments.slots', { domain: c.domain, attendantId: ana.userId, ...week }, 'query');
    expect(after).toHaveLength(2);
    await until(() => pushed.some((n) => n.type === 'appointmentCancelled'));
    const note = await server.db.notification.findFirstOrThrow({ where: { userId: ana.userId, type: 'appointmentCancelled' } });
    expect(note.action).toBe(`/i/recent/schedule/${id}`);
    const mail = await smtp.next(email);
    expect(mail.subject).toContain('cancelado');
    expect(mail.text).not.toContain('Para remarcar');

    // A second press is told it is done; the page shows it cancelled.
    expect((await anonymous('booking.cancelByLink', { domain: c.domain, appointmentId: id, token }, 'mutation')).error).toMatchObject({ code: 'BAD_REQUEST', message: 'This appointment was cancelled' });
    expect((await anonymous('booking.byLink', { domain: c.domain, appointmentId: id, token }, 'query')).data).toMatchObject({ cancelled: true });
  });

  it('opens nothing with a forged token, another appointment, or another company', async () => {
    const first = await booked();
    const other = await booked();
    const bad = [
      { domain: first.c.domain, appointmentId: first.id, token: 'x'.repeat(32) },
      { domain: first.c.domain, appointmentId: first.id, token: other.token },
      { domain: other.c.domain, appointmentId: first.id, token: first.token },
    ];
    for (const input of bad) {
      expect((await anonymous('booking.byLink', input, 'query')).error).toMatchObject({ code: 'NOT_FOUND', message: 'This link is not valid' });
      expect((await anonymous('booking.cancelByLink', input, 'mutation')).error).toMatchObject({ code: 'NOT_FOUND', message: 'This link is not valid' });
    }
    expect((await anonymous('booking.cancelByLink', { domain: first.c.domain, appointmentId: first.id, token: '' }, 'mutation')).error?.code).toBe('BAD_REQUEST');
    expect(await server.db.appointment.count({ where: { id: { in: [first.id, other.id] }, status: 'booked' } })).toBe(2);
  });
});

describe('moving from the e-mail link', () => {
  it('moves to another free slot with the event and its reminder; the customer and the attendant get a mail; a taken or foreign slot is refused', async () => {
    const { c, ana, id, email, token } = await booked();
    const view = await anonymous('booking.byLink', { domain: c.domain, appointmentId: id, token }, 'query');
    expect((view.data as { attendantId: string }).attendantId).toBe(ana.userId);
    const later = new Date(Date.parse(at(12)) + 30 * 60_000).toISOString();
    // Only a free slot of the same attendant: 11:00 is outside her windows.
    expect((await anonymous('booking.rescheduleByLink', { domain: c.domain, appointmentId: id, token, start: at(14) }, 'mutation')).error)
      .toMatchObject({ code: 'CONFLICT', message: 'This time is no longer available; choose another' });
    const moved = await anonymous('booking.rescheduleByLink', { domain: c.domain, appointmentId: id, token, start: later }, 'mutation');
    expect(moved.error).toBeUndefined();
    const row = await server.db.appointment.findUniqueOrThrow({ where: { id } });
    expect(row.start.toISOString()).toBe(later);
    expect(row.bookedStart?.toISOString()).toBe(later);
    const event = await server.db.calendarEvent.findUniqueOrThrow({ where: { id: row.eventId! } });
    expect(event.start.toISOString()).toBe(later);
    const tasks = await server.db.scheduledTask.findMany({ where: { eventId: event.id, task: 'appointmentReminder' } });
    expect(tasks.map((t) => t.startAt.toISOString())).toEqual([new Date(Date.parse(later) - 15 * 60_000).toISOString()]);
    // The old slot is free again.
    const { slots } = await c.admin.call('appointments.slots', { domain: c.domain, attendantId: ana.userId, ...week }, 'query');
    expect(slots.map((s: { start: string }) => new Date(s.start).toISOString())).toEqual([at(12)]);
    expect((await smtp.next(email)).subject).toContain('remarcado');
    const attendant = await server.db.user.findUniqueOrThrow({ where: { id: ana.userId } });
    const told = await smtp.next(attendant.email!);
    expect(told.subject).toContain('Appointment moved by the customer');
    expect(told.text).toContain(`/i/recent/schedule/${id}`);
    expect(await server.db.notification.count({ where: { userId: ana.userId, type: 'appointmentMoved' } })).toBe(1);
    // Another company's link, or a forged one, moves nothing.
    const other = await booked();
    expect((await anonymous('booking.rescheduleByLink', { domain: c.domain, appointmentId: id, token: other.token, start: at(12) }, 'mutation')).error)
      .toMatchObject({ code: 'NOT_FOUND', message: 'This link is not valid' });
  });
});
