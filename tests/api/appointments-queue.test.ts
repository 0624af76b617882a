/**
 * A queue's own availability (issue 15): an admin sets it on /i/schedule/edit; a visitor books one
 * of its slots on the public page; the appointment belongs to the queue with no attendant yet, its
 * event is seen by the admins and the members of the queue's groups, the conversation opens in that
 * queue at the booked time, a race of 24 bookings of one slot has one winner, and another
 * company's queue is refused. A member books a queue's slot for a customer with the same rules,
 * and the events of future queue appointments follow the queue's people as groups and members change.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offsetClock } from '../../src/server/clock';
import { fireDueReminders } from '../../src/server/modules/calendar/reminders';
import { createUser, signIn } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/server';
import { callProcedure } from '../helpers/trpc';
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
const NOT_BOOKABLE = 'This queue does not take appointments';
function nextMonday() {
  const d = new Date(clock.now().getTime() + 7 * DAY);
  d.setUTCHours(0, 0, 0, 0);
  while (d.getUTCDay() !== 1) d.setTime(d.getTime() + DAY);
  return d;
}
const monday = nextMonday();
// Mondays 09:00–11:00 in São Paulo (UTC−3): 12:00Z–14:00Z, 30-minute slots, 15 minutes kept after each.
const at = (h: number, m = 0) => new Date(monday.getTime() + h * 3_600_000 + m * MIN).toISOString();
const week = { from: monday.toISOString(), to: new Date(monday.getTime() + DAY).toISOString() };
const iso = (d: unknown) => new Date(d as string).toISOString();
const availability = { timeZone: 'America/Sao_Paulo', slotMinutes: 30, bufferMinutes: 15, windows: [{ weekday: 1, startMinute: 540, endMinute: 660 }] };

/** A company with a 'Vendas' queue served by the group of Bia; Caio is in no group of it. */
async function setup() {
  const c = await serviceCompany(server, sockets);
  const queue = await server.db.queue.create({ data: { companyId: c.company.id, key: 'vendas', name: 'Vendas' } });
  const group = await server.db.group.create({ data: { companyId: c.company.id, name: 'Time de vendas' } });
  await server.db.queueGroup.create({ data: { queueId: queue.id, groupId: group.id } });
  const bia = await c.attendant('Bia', { groupIds: [group.id] });
  const caio = await c.attendant('Caio');
  await c.admin.call('appointments.saveQueueSchedule', { domain: c.domain, queueId: queue.id, ...availability });
  return { ...c, sales: queue, bia, caio };
}

describe("a queue's availability", () => {
  it('admins set it for a queue of their company; members and other companies are refused', async () => {
    const c = await setup();
    const other = await setup();
    expect(await c.admin.call('appointments.queueSchedule', { domain: c.domain, queueId: c.sales.id }, 'query')).toMatchObject({ saved: true, ...availability });
    expect((await c.admin.call('appointments.queues', { domain: c.domain }, 'query')).map((q: { name: string }) => q.name)).toContain('Vendas');
    expect((await c.bia.attempt('appointments.saveQueueSchedule', { domain: c.domain, queueId: c.sales.id, ...availability })).error?.code).toBe('FORBIDDEN');
    expect(await c.bia.call('appointments.queues', { domain: c.domain }, 'query')).toEqual([]);
    // Another company's queue, through our company: refused as unknown.
    expect((await c.admin.attempt('appointments.saveQueueSchedule', { domain: c.domain, queueId: other.sales.id, ...availability })).error)
      .toMatchObject({ code: 'NOT_FOUND', message: NOT_BOOKABLE });
    const visitor = await anonymousVisitor(server, sockets);
    expect((await visitor.attempt('booking.queueSlots', { domain: c.domain, queueId: other.sales.id, ...week }, 'query')).error)
      .toMatchObject({ code: 'NOT_FOUND', message: NOT_BOOKABLE });
    expect((await visitor.attempt('booking.bookQueue', { domain: c.domain, queueId: other.sales.id, start: at(12), name: 'X', email: 'x@example.com' })).error)
      .toMatchObject({ code: 'NOT_FOUND', message: NOT_BOOKABLE });
    // Bad windows: the same clear text as a person's availability.
    expect((await c.admin.attempt('appointments.saveQueueSchedule', { domain: c.domain, queueId: c.sales.id, ...availability, slotMinutes: 1 })).error?.code).toBe('BAD_REQUEST');
    // Without the plan flag the public page offers no queue and books none.
    await server.db.company.update({ where: { id: c.company.id }, data: { plan: { ...(c.company.plan as object), calendar: 0 } } });
    expect(await visitor.call('booking.queues', { domain: c.domain }, 'query')).toEqual([]);
    expect((await visitor.attempt('booking.queueSlots', { domain: c.domain, queueId: c.sales.id, ...week }, 'query')).error?.code).toBe('FORBIDDEN');
    expect((await visitor.attempt('booking.bookQueue', { domain: c.domain, queueId: c.sales.id, start: at(12), name: 'V', email: 'v@example.com' })).error?.code).toBe('FORBIDDEN');
    expect((await c.admin.attempt('appointments.queueSchedule', { domain: c.domain, queueId: c.sales.id }, 'query')).error?.code).toBe('FORBIDDEN');
  });
});

describe('booking a queue', () => {
  it('a visitor books a queue slot: no attendant yet, the event for admins and the queue group, the conversation opens in that queue', async () => {
    const c = await setup();
    const visitor = await anonymousVisitor(server, sockets);
    expect(await visitor.call('booking.queues', { domain: c.domain }, 'query')).toEqual([{ queueId: c.sales.id, name: 'Vendas' }]);
    const { slots } = await visitor.call('booking.queueSlots', { domain: c.domain, queueId: c.sales.id, ...week }, 'query');
    expect(slots.map((s: { start: string }) => iso(s.start))).toEqual([at(12), at(12, 45), at(13, 30)]);
    const { id } = await visitor.call('booking.bookQueue', { domain: c.domain, queueId: c.sales.id, start: at(13, 30), name: 'Olga', email: 'olga@example.com' });
    const mail = await smtp.next('olga@example.com');
    expect(mail.attachments).toHaveLength(1);
    const row = await server.db.appointment.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ queueId: c.sales.id, attendantId: null, customerId: visitor.userId, status: 'booked' });
    const event = await server.db.calendarEvent.findUniqueOrThrow({ where: { id: row.eventId! }, include: { participants: true } });
    expect(event.creatorId).toBe(c.admin.userId);
    expect(event.participants.map((p) => p.userId)).toEqual([c.bia.userId]);
    expect(await server.db.notification.count({ where: { userId: c.bia.userId, type: 'appointmentBooked' } })).toBe(1);
    expect(await server.db.notification.count({ where: { userId: c.caio.userId } })).toBe(0);
    // The queue's people see it; someone outside the queue does not.
    expect(await c.bia.call('appointments.get', { domain: c.domain, appointmentId: id }, 'query')).toMatchObject({ id, queueName: 'Vendas', attendantId: null });
    expect((await c.bia.call('appointments.mine', { domain: c.domain }, 'query')).map((a: { id: string }) => a.id)).toEqual([id]);
    expect((await c.caio.attempt('appointments.get', { domain: c.domain, appointmentId: id }, 'query')).error?.code).toBe('NOT_FOUND');
    expect(await c.caio.call('appointments.mine', { domain: c.domain }, 'query')).toEqual([]);
    // The slot is gone from the queue's offer; a member's move keeps it in the queue.
    const moved = await c.bia.call('appointments.reschedule', { domain: c.domain, appointmentId: id, start: at(12, 45) });
    expect(iso(moved.start)).toBe(at(12, 45));
    await smtp.next('olga@example.com');

    clock.advance(Date.parse(at(12, 45)) - clock.now().getTime() + 1000);
    await fireDueReminders(server.server.deps);
    await until(async () => !!(await server.db.appointment.findUniqueOrThrow({ where: { id } })).conversationId);
    const opened = await server.db.appointment.findUniqueOrThrow({ where: { id } });
    const conversation = await server.db.conversation.findUniqueOrThrow({ where: { id: opened.conversationId! } });
    expect(conversation).toMatchObject({ companyId: c.company.id, creatorId: visitor.userId, queueId: c.sales.id, inQueue: true });
    expect(await server.db.notification.count({ where: { userId: c.bia.userId, type: 'appointmentStarts', action: `/i/recent/chat/${conversation.id}` } })).toBe(1);
  });

  it('24 concurrent bookings of one queue slot: exactly one wins, the rest are told it is no longer available', async () => {
    const c = await setup();
    // A Monday a week later: the test above moved the clock past this Monday's slots.
    const start = new Date(Date.parse(at(12)) + 7 * DAY).toISOString();
    const visitors = await Promise.all(Array.from({ length: 4 }, () => anonymousVisitor(server, sockets)));
    const results = await Promise.all(Array.from({ length: 24 }, (_, i) =>
      visitors[i % 4]!.attempt('booking.bookQueue', { domain: c.domain, queueId: c.sales.id, start, name: `C${i}`, email: `q${i}@example.com` })));
    expect(results.filter((r) => r.data)).toHaveLength(1);
    for (const r of results.filter((x) => x.error)) expect(r.error).toMatchObject({ code: 'CONFLICT', message: SLOT_TAKEN });
    expect(await server.db.appointment.count({ where: { companyId: c.company.id } })).toBe(1);
    expect(await server.db.calendarEvent.count({ where: { companyId: c.company.id } })).toBe(1);
  });
});

/** A Monday at least `weeks` weeks after the clock's now, at hh:mm UTC (the queue's slots are 12:00Z, 12:45Z, 13:30Z). */
function mondayAt(weeks: number, h: number, m = 0) {
  const d = new Date(clock.now().getTime() + weeks * 7 * DAY);
  d.setUTCHours(0, 0, 0, 0);
  while (d.getUTCDay() !== 1) d.setTime(d.getTime() + DAY);
  return new Date(d.getTime() + h * 3_600_000 + m * MIN).toISOString();
}
const memberIdOf = async (companyId: string, userId: string) =>
  (await server.db.member.findUniqueOrThrow({ where: { companyId_userId: { companyId, userId } } })).id;
const participantsOf = async (eventId: string) =>
  (await server.db.calendarParticipant.findMany({ where: { eventId, removed: false }, select: { userId: true } })).map((p) => p.userId).sort();

describe('a member books a queue slot for a customer (/i/schedule)', () => {
  it("offers the company's bookable queues and their free slots, and books one with the public booking's rules", async () => {
    const c = await setup();
    const other = await setup();
    // Caio is in no group of the queue: any member may book it for a customer, as for a colleague.
    expect(await c.caio.call('appointments.bookableQueues', { domain: c.domain }, 'query')).toEqual([{ queueId: c.sales.id, name: 'Vendas' }]);
    const start = mondayAt(1, 12, 45);
    const range = { from: mondayAt(1, 0), to: mondayAt(1, 23) };
    const { slots } = await c.caio.call('appointments.queueSlots', { domain: c.domain, queueId: c.sales.id, ...range }, 'query');
    expect(slots.map((s: { start: string }) => iso(s.start))).toEqual([mondayAt(1, 12), start, mondayAt(1, 13, 30)]);
    const { id } = await c.caio.call('appointments.bookQueue', { domain: c.domain, queueId: c.sales.id, start, name: 'Olga', email: 'olga.member@example.com' });
    const row = await server.db.appointment.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ queueId: c.sales.id, attendantId: null, customerId: null, customerName: 'Olga', status: 'booked' });
    expect(iso(row.start)).toBe(start);
    // The customer's confirmation names the queue; the queue's people get the event and the notice.
    const mail = await smtp.next('olga.member@example.com');
    expect(mail.text).toContain('Vendas');
    const event = await server.db.calendarEvent.findUniqueOrThrow({ where: { id: row.eventId! } });
    expect(event.creatorId).toBe(c.admin.userId);
    expect(await participantsOf(event.id)).toEqual([c.bia.userId]);
    expect(await server.db.notification.count({ where: { userId: c.bia.userId, type: 'appointmentBooked' } })).toBe(1);
    // The slot is gone, a second booking of it is refused with the public page's words, and so is a time off the grid.
    const again = await c.caio.call('appointments.queueSlots', { domain: c.domain, queueId: c.sales.id, ...range }, 'query');
    expect(again.slots.map((s: { start: string }) => iso(s.start))).toEqual([mondayAt(1, 12), mondayAt(1, 13, 30)]);
    expect((await c.bia.attempt('appointments.bookQueue', { domain: c.domain, queueId: c.sales.id, start, name: 'Pia', email: 'pia@example.com' })).error)
      .toMatchObject({ code: 'CONFLICT', message: SLOT_TAKEN });
    expect((await c.bia.attempt('appointments.bookQueue', { domain: c.domain, queueId: c.sales.id, start: mondayAt(1, 12, 10), name: 'Pia', email: 'pia@example.com' })).error)
      .toMatchObject({ code: 'CONFLICT', message: SLOT_TAKEN });
    // Bad input is a clear refusal.
    expect((await c.bia.attempt('appointments.bookQueue', { domain: c.domain, queueId: c.sales.id, start, name: ' ', email: 'pia@example.com' })).error?.code).toBe('BAD_REQUEST');

    // Tenancy: another company's queue through ours is unknown, and nothing is written on either side.
    const before = await server.db.appointment.count({ where: { companyId: { in: [c.company.id, other.company.id] } } });
    expect((await c.caio.attempt('appointments.queueSlots', { domain: c.domain, queueId: other.sales.id, ...range }, 'query')).error)
      .toMatchObject({ code: 'NOT_FOUND', message: NOT_BOOKABLE });
    expect((await c.caio.attempt('appointments.bookQueue', { domain: c.domain, queueId: other.sales.id, start: mondayAt(1, 12), name: 'X', email: 'x@example.com' })).error)
      .toMatchObject({ code: 'NOT_FOUND', message: NOT_BOOKABLE });
    // A member of the other company cannot book in ours.
    expect((await other.caio.attempt('appointments.bookQueue', { domain: c.domain, queueId: c.sales.id, start: mondayAt(1, 12), name: 'X', email: 'x@example.com' })).error?.code)
      .toBe('FORBIDDEN');
    expect(await server.db.appointment.count({ where: { companyId: { in: [c.company.id, other.company.id] } } })).toBe(before);
    // Without the plan flag: refused like every appointments procedure.
    await server.db.company.update({ where: { id: c.company.id }, data: { plan: { ...(c.company.plan as object), calendar: 0 } } });
    expect((await c.caio.attempt('appointments.bookableQueues', { domain: c.domain }, 'query')).error?.code).toBe('FORBIDDEN');
    expect((await c.caio.attempt('appointments.bookQueue', { domain: c.domain, queueId: c.sales.id, start: mondayAt(1, 12), name: 'X', email: 'x@example.com' })).error?.code).toBe('FORBIDDEN');
  });

  it('24 members booking one queue slot at once: one appointment, the rest told it is no longer available', async () => {
    const c = await setup();
    const start = mondayAt(2, 12);
    const members = [c.admin, c.bia, c.caio, await c.attendant('Duda')];
    const results = await Promise.all(Array.from({ length: 24 }, (_, i) =>
      members[i % 4]!.attempt('appointments.bookQueue', { domain: c.domain, queueId: c.sales.id, start, name: `M${i}`, email: `m${i}@example.com` })));
    expect(results.filter((r) => r.data)).toHaveLength(1);
    for (const r of results.filter((x) => x.error)) expect(r.error).toMatchObject({ code: 'CONFLICT', message: SLOT_TAKEN });
    expect(await server.db.appointment.count({ where: { companyId: c.company.id } })).toBe(1);
    expect(await server.db.calendarEvent.count({ where: { companyId: c.company.id } })).toBe(1);
  });
});

describe("future queue appointments follow the queue's people", () => {
  it('a member who joins the group joins the events of its future appointments; one who leaves, or is blocked, leaves them', async () => {
    const c = await setup();
    const other = await setup();
    const group = (await server.db.queueGroup.findFirstOrThrow({ where: { queueId: c.sales.id } })).groupId;
    const [biaMember, caioMember] = [await memberIdOf(c.company.id, c.bia.userId), await memberIdOf(c.company.id, c.caio.userId)];
    const soon = await c.admin.call('appointments.bookQueue', { domain: c.domain, queueId: c.sales.id, start: mondayAt(3, 12), name: 'Soon', email: 'soon@example.com' });
    const later = await c.admin.call('appointments.bookQueue', { domain: c.domain, queueId: c.sales.id, start: mondayAt(4, 12), name: 'Later', email: 'later@example.com' });
    const eventOf = async (id: string) => (await server.db.appointment.findUniqueOrThrow({ where: { id } })).eventId!;
    const [soonEvent, laterEvent] = [await eventOf(soon.id), await eventOf(later.id)];
    expect(await participantsOf(laterEvent)).toEqual([c.bia.userId]);
    const caioSees = async () => (await c.caio.call('calendar.list', { domain: c.domain, from: mondayAt(3, 0), to: mondayAt(4, 23) }, 'query'))
      .map((o: { eventId: string }) => o.eventId).sort();

    // Caio joins the queue's group: he is in both events, sees them, and is told.
    await c.admin.call('groups.update', { domain: c.domain, groupId: group, memberIds: [biaMember, caioMember] });
    expect(await participantsOf(laterEvent)).toEqual([c.bia.userId, c.caio.userId].sort());
    expect(await caioSees()).toEqual([soonEvent, laterEvent].sort());

    // The first appointment is over (its row says so; moving the clock weeks ahead would end the test's sessions):
    // Bia leaving the group keeps her in its history, takes her out of the future one.
    const over = new Date(clock.now().getTime() - 60 * MIN);
    await server.db.appointment.update({ where: { id: soon.id }, data: { start: new Date(over.getTime() - 30 * MIN), end: over } });
    await c.admin.call('members.setGroups', { domain: c.domain, memberId: biaMember, groupIds: [] });
    expect(await participantsOf(soonEvent)).toEqual([c.bia.userId, c.caio.userId].sort());
    expect(await participantsOf(laterEvent)).toEqual([c.caio.userId]);
    expect((await c.bia.attempt('calendar.get', { domain: c.domain, eventId: laterEvent }, 'query')).error?.code).toBe('NOT_FOUND');

    // Blocked, Caio leaves it too; unblocked, he is back. Nothing changes twice (idempotent).
    await c.admin.call('members.block', { domain: c.domain, memberId: caioMember });
    expect(await participantsOf(laterEvent)).toEqual([]);
    await c.admin.call('members.unblock', { domain: c.domain, memberId: caioMember });
    expect(await participantsOf(laterEvent)).toEqual([c.caio.userId]);
    await c.admin.call('groups.update', { domain: c.domain, groupId: group, memberIds: [caioMember] });
    expect(await server.db.calendarParticipant.count({ where: { eventId: laterEvent } })).toBe(1);

    // Another company's admin cannot touch our group: refused, and the event's people are unchanged.
    expect((await other.admin.attempt('groups.update', { domain: other.domain, groupId: group, memberIds: [] })).error?.code).toBe('NOT_FOUND');
    expect((await other.admin.attempt('groups.update', { domain: c.domain, groupId: group, memberIds: [] })).error?.code).toBe('FORBIDDEN');
    expect(await participantsOf(laterEvent)).toEqual([c.caio.userId]);
  });

  it('someone invited who comes in (company.join) enters the default group and the events of its queues', async () => {
    const c = await setup();
    await server.db.queueGroup.create({ data: { queueId: c.sales.id, groupId: c.group('member') } });
    const booked = await c.admin.call('appointments.bookQueue', { domain: c.domain, queueId: c.sales.id, start: mondayAt(5, 12), name: 'Rui', email: 'rui@example.com' });
    const eventId = (await server.db.appointment.findUniqueOrThrow({ where: { id: booked.id } })).eventId!;
    const user = await createUser(server.db, { name: 'Nina' });
    await server.db.user.update({ where: { id: user.id }, data: { emailVerifiedAt: new Date() } });
    await server.db.invite.create({ data: { companyId: c.company.id, email: user.email, approved: true } });
    const joined = await callProcedure(server.url, 'company.join', { domain: c.domain }, { cookie: await signIn(server.db, user.id), type: 'mutation' });
    expect(joined.data).toEqual({ state: 'active' });
    expect(await participantsOf(eventId)).toEqual([c.bia.userId, user.id].sort());
  });
});
