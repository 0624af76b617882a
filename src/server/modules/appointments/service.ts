/**
 * Appointments (/i/schedule, issue 15): an attendant's weekly availability, the free slots it
 * gives (shared/domain/appointments.ts), and bookings of those slots, by a member for a customer
 * or by a visitor on the company's public page. A booking and the attendant's calendar event
 * (fromAgendamento, reminded 15 minutes before) are written in one transaction; the unique index on
 * (attendantId, bookedStart) refuses a second booking of a slot, however the requests race.
 * A queue's own availability (queues.ts) books the same way, with a Target { queueId }: the
 * appointment has the queue and no attendant, (queueId, bookedStart) is its unique index, and the
 * queue's people (admins and its groups' members) stand where the attendant stood.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { z } from 'zod';
import { Prisma, type Appointment, type Company, type Member, type User } from '../../../generated/prisma/client';
import { CONVERSATION_TYPE } from '../../../shared/constants';
import { freeSlots, isFreeSlot, scheduleProblems, type ScheduleLike } from '../../../shared/domain/appointments';
import { eventTitle } from '../../../shared/domain/recurrence';
import { APPOINTMENT_MESSAGES as M, type saveScheduleInput } from '../../../shared/schemas/appointments';
import type { AppDeps } from '../../deps';
import { insertEvent } from '../calendar/service';
import { syncReminders } from '../calendar/reminders';
import { fail } from '../feeds/errors';
import { companyBlocksWork } from '../../../shared/domain/company';
import { createServiceRequest } from '../service/shared';
import { activeMemberUserIds, createNotifications, pushNotifications } from '../notifications/service';
import { appointmentMail, attendantMovedMail, type AppointmentMailKind } from './mail';
import { companyLanguage, serverText, userLanguage } from '../../i18n';
import { bookableQueueSchedule, loadQueueSchedule, lockQueuePeople, queuePeople } from './queues';

/** Whose slots: an attendant's, or a queue's own availability (no attendant yet). */
export type Target = { attendantId: string; queueId?: undefined } | { queueId: string; attendantId?: undefined };
const targetOf = (a: Pick<Appointment, 'attendantId' | 'queueId'>): Target => (a.queueId ? { queueId: a.queueId } : { attendantId: a.attendantId ?? '' });

export type AppointmentDeps = Pick<AppDeps, 'db' | 'realtime' | 'clock' | 'mailer' | 'config' | 'logger'>;
export interface AppointmentsContext extends AppointmentDeps {
  company: Company;
  member: Member;
  user: User;
}

const DAY = 86_400_000;
const DEFAULTS = { slotMinutes: 30, bufferMinutes: 0 };

async function loadSchedule(db: AppDeps['db'], companyId: string, attendantId: string) {
  return db.scheduleSettings.findUnique({ where: { companyId_attendantId: { companyId, attendantId } }, include: { windows: true } });
}

const plainSchedule = (s: NonNullable<Awaited<ReturnType<typeof loadSchedule>>>): ScheduleLike => ({
  timeZone: s.timeZone, slotMinutes: s.slotMinutes, bufferMinutes: s.bufferMinutes,
  windows: s.windows.map((w) => ({ weekday: w.weekday, startMinute: w.startMinute, endMinute: w.endMinute })).sort((a, b) => a.weekday - b.weekday || a.startMinute - b.startMinute),
});

/** My availability, or the defaults (in the zone my browser reports) when I never saved one. */
export async function getSchedule(ctx: AppointmentsContext, browserZone?: string) {
  const s = await loadSchedule(ctx.db, ctx.company.id, ctx.user.id);
  if (!s) return { saved: false, timeZone: browserZone ?? 'UTC', ...DEFAULTS, windows: [] };
  return { saved: true, ...plainSchedule(s) };
}

export async function saveSchedule(ctx: AppointmentsContext, input: z.output<typeof saveScheduleInput>) {
  const schedule: ScheduleLike = { timeZone: input.timeZone, slotMinutes: input.slotMinutes, bufferMinutes: input.bufferMinutes, windows: input.windows };
  if (scheduleProblems(schedule).length) throw fail('BAD_REQUEST', M.schedule);
  const key = { companyId: ctx.company.id, attendantId: ctx.user.id };
  await ctx.db.$transaction(async (tx) => {
    const data = { timeZone: input.timeZone, slotMinutes: input.slotMinutes, bufferMinutes: input.bufferMinutes };
    await tx.scheduleSettings.upsert({ where: { companyId_attendantId: key }, create: { ...key, ...data }, update: data });
    await tx.availabilityWindow.deleteMany({ where: key });
    await tx.availabilityWindow.createMany({ data: input.windows.map((w) => ({ ...key, ...w })) });
  });
  return getSchedule(ctx);
}

/** Active members with at least one weekly window: whom a customer can book. */
export async function bookableAttendants(db: AppDeps['db'], companyId: string) {
  const settings = await db.scheduleSettings.findMany({ where: { companyId, windows: { some: {} } }, select: { attendantId: true }, take: 200 });
  const active = await activeMemberUserIds(db, companyId, settings.map((s) => s.attendantId));
  const users = await db.user.findMany({ where: { id: { in: active } }, select: { id: true, name: true } });
  return users.map((u) => ({ userId: u.id, name: u.name ?? '' })).sort((a, b) => a.name.localeCompare(b.name));
}

/** The attendant's schedule, refused unless they are an active member who takes appointments. */
async function bookableSchedule(db: AppDeps['db'], companyId: string, attendantId: string) {
  const [s, active] = await Promise.all([loadSchedule(db, companyId, attendantId), activeMemberUserIds(db, companyId, [attendantId])]);
  if (!s || s.windows.length === 0 || active.length === 0) throw fail('NOT_FOUND', M.notBookable);
  return plainSchedule(s);
}

async function bookedAround(db: AppDeps['db'], target: Target, from: Date, to: Date, except?: string) {
  const rows = await db.appointment.findMany({
    where: { ...(target.queueId ? { queueId: target.queueId } : { attendantId: target.attendantId }), status: 'booked', start: { lt: new Date(to.getTime() + DAY) }, end: { gt: new Date(from.getTime() - DAY) }, ...(except && { id: { not: except } }) },
    select: { start: true, end: true },
  });
  return rows;
}

/** The schedule of an attendant or of a queue, refused unless it takes appointments in this company. */
async function targetSchedule(db: AppDeps['db'], companyId: string, target: Target) {
  return target.queueId ? (await bookableQueueSchedule(db, companyId, target.queueId)).schedule : bookableSchedule(db, companyId, target.attendantId ?? '');
}

export async function slots(db: AppDeps['db'], now: Date, companyId: string, target: Target, from: Date, to: Date) {
  const schedule = await targetSchedule(db, companyId, target);
  const booked = await bookedAround(db, target, from, to);
  return { timeZone: schedule.timeZone, slotMinutes: schedule.slotMinutes, slots: freeSlots(schedule, booked, from, to, now) };
}

const isSlotTaken = (err: unknown) => err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002';

async function people(db: AppDeps['db'], ids: (string | null)[]) {
  const rows = await db.user.findMany({ where: { id: { in: [...new Set(ids.filter((i): i is string => !!i))] } }, select: { id: true, name: true } });
  return new Map(rows.map((u) => [u.id, u.name ?? '']));
}

/** Who is told about an appointment: its attendant, or the queue's people (admins and its groups' members). */
async function audience(db: AppDeps['db'] | Prisma.TransactionClient, a: Pick<Appointment, 'companyId' | 'attendantId' | 'queueId'>) {
  if (a.queueId) return queuePeople(db, a.companyId, a.queueId);
  return a.attendantId ? [a.attendantId] : [];
}

/** With whom, as the customer reads it, and in which zone: the attendant's name or the queue's. */
async function withWhom(db: AppDeps['db'], a: Pick<Appointment, 'companyId' | 'attendantId' | 'queueId'>) {
  if (a.queueId) {
    const [q, s] = await Promise.all([db.queue.findUnique({ where: { id: a.queueId }, select: { name: true } }), loadQueueSchedule(db, a.companyId, a.queueId)]);
    return { name: q?.name ?? '', timeZone: s?.timeZone ?? 'UTC' };
  }
  const [names, s] = await Promise.all([people(db, [a.attendantId]), a.attendantId ? loadSchedule(db, a.companyId, a.attendantId) : null]);
  return { name: names.get(a.attendantId ?? '') ?? '', timeZone: s?.timeZone ?? 'UTC' };
}

/** One notification per person, each in their own language. */
async function notifyAll(tx: Prisma.TransactionClient, userIds: string[], key: Parameters<typeof serverText>[1], row: Omit<Parameters<typeof createNotifications>[1][number], 'userId' | 'title'>) {
  if (userIds.length === 0) return [];
  const users = await tx.user.findMany({ where: { id: { in: userIds } }, select: { id: true, language: true } });
  return createNotifications(tx, users.map((u) => ({ ...row, userId: u.id, title: serverText(userLanguage(u), key) })));
}

/** The customer's e-mail; a failure is logged, never undoes the booking. */
async function mailCustomer(deps: AppointmentDeps, company: Company, a: Appointment, kind: AppointmentMailKind) {
  if (!a.customerEmail) return;
  try {
    const whom = await withWhom(deps.db, a);
    // A rising SEQUENCE lets the customer's calendar replace the entry it has.
    const sequence = Math.max(0, Math.floor((deps.clock.now().getTime() - a.createdAt.getTime()) / 1000));
    const who = {
      companyName: company.name, domain: company.domain, attendantName: whom.name, publicUrl: deps.config.publicUrl,
      cancelUrl: cancelUrl(deps.config, company.domain, a.id), lang: companyLanguage(company),
    };
    await deps.mailer.send(appointmentMail(a, who, whom.timeZone, kind, sequence));
  } catch (err) {
    deps.logger.error({ err, appointmentId: a.id }, 'appointment e-mail failed');
  }
}

/**
 * The customer's cancel link is signed with the app's secret (HMAC of the appointment id): it
 * needs no account and no stored token, and opens only the appointment it was made for.
 */
export function cancelToken(secret: string, appointmentId: string) {
  return createHmac('sha256', secret).update(`appointment-cancel:${appointmentId}`).digest('base64url').slice(0, 32);
}
function cancelUrl(config: AppDeps['config'], domain: string, appointmentId: string) {
  if (!config.appSecret) return null;
  return `${config.publicUrl}/${domain}/book/cancel/${appointmentId}?t=${cancelToken(config.appSecret, appointmentId)}`;
}

/** The appointment a cancel link names, in the link's company; anything else is 'not valid'. */
async function byLink(deps: AppointmentDeps, company: Company, appointmentId: string, token: string) {
  const expected = deps.config.appSecret ? Buffer.from(cancelToken(deps.config.appSecret, appointmentId)) : null;
  const given = Buffer.from(token);
  if (!expected || expected.length !== given.length || !timingSafeEqual(expected, given)) throw fail('NOT_FOUND', M.badLink);
  const a = await deps.db.appointment.findFirst({ where: { id: appointmentId, companyId: company.id } });
  if (!a) throw fail('NOT_FOUND', M.badLink);
  return a;
}

/** What the customer's cancel page shows: when, with whom, and whether it can still be cancelled. */
export async function appointmentByLink(deps: AppointmentDeps, company: Company, appointmentId: string, token: string) {
  const a = await byLink(deps, company, appointmentId, token);
  const whom = await withWhom(deps.db, a);
  return {
    start: a.start, end: a.end, attendantId: a.attendantId, queueId: a.queueId, attendantName: whom.name, customerName: a.customerName,
    timeZone: whom.timeZone, cancelled: a.status === 'cancelled', started: a.start <= deps.clock.now(),
  };
}

/** Frees the slot and removes the event with its reminders, in the caller's transaction. */
async function cancelRows(tx: Prisma.TransactionClient, a: Appointment) {
  if (a.eventId) {
    await tx.scheduledTask.deleteMany({ where: { eventId: a.eventId } });
    await tx.calendarEvent.deleteMany({ where: { id: a.eventId, companyId: a.companyId } });
  }
  return tx.appointment.update({ where: { id: a.id }, data: { status: 'cancelled', bookedStart: null } });
}

/** The customer cancels from the e-mail's link: the slot is freed and the attendant is told. */
export async function cancelByLink(deps: AppointmentDeps, company: Company, appointmentId: string, token: string) {
  const a = await byLink(deps, company, appointmentId, token);
  if (a.status === 'cancelled') throw fail('BAD_REQUEST', M.alreadyCancelled);
  if (a.start <= deps.clock.now()) throw fail('BAD_REQUEST', M.past);
  const told = await audience(deps.db, a);
  const { updated, notifications } = await deps.db.$transaction(async (tx) => {
    const updated = await cancelRows(tx, a);
    const notifications = await notifyAll(tx, told, 'apptCancelledByCustomer', {
      companyId: company.id, type: 'appointmentCancelled', subtitle: `${a.customerName} · ${a.start.toISOString()}`, action: `/i/recent/schedule/${a.id}`,
    });
    return { updated, notifications };
  });
  pushNotifications(deps.realtime, notifications);
  tellPeople(deps, a, told);
  await mailCustomer(deps, company, updated, 'cancelled');
  return { ok: true };
}

function tellPeople(deps: Pick<AppDeps, 'realtime'>, a: Pick<Appointment, 'id' | 'eventId'>, userIds: string[]) {
  if (userIds.length === 0) return;
  deps.realtime.toUsers(userIds, 'appointments:changed', { appointmentId: a.id });
  if (a.eventId) deps.realtime.toUsers(userIds, 'calendar:changed', { eventId: a.eventId });
}

export interface Booking {
  company: Company;
  target: Target;
  start: Date;
  customerId: string | null;
  name: string;
  email: string;
  /** Who pressed "book": the customer, or a member booking for them. */
  bookedBy: User;
}

/** Books one free slot: the appointment, its calendar event and reminder, in one transaction. */
export async function book(deps: AppointmentDeps, b: Booking) {
  const queue = b.target.queueId ? await bookableQueueSchedule(deps.db, b.company.id, b.target.queueId) : null;
  const schedule = queue ? queue.schedule : await bookableSchedule(deps.db, b.company.id, b.target.attendantId!);
  const now = deps.clock.now();
  const slot = isFreeSlot(schedule, await bookedAround(deps.db, b.target, b.start, b.start), b.start, now);
  if (!slot) throw fail('CONFLICT', M.slotTaken);
  const attendantId = b.target.attendantId ?? null, queueId = b.target.queueId ?? null;
  // A queue's event belongs to the admin who set its availability; its people are participants.
  const creatorId = queue ? queue.setById : attendantId!;
  let created: { appointment: Appointment; notifications: Awaited<ReturnType<typeof createNotifications>>; told: string[] };
  try {
    created = await deps.db.$transaction(async (tx) => {
      // The queue's people are read under the lock a change of membership takes (queues.ts), so an
      // event never keeps a list that a concurrent change has already followed.
      if (queueId) await lockQueuePeople(tx, b.company.id, true);
      const told = await audience(tx, { companyId: b.company.id, attendantId, queueId });
      const appointment = await tx.appointment.create({
        data: { companyId: b.company.id, attendantId, queueId, customerId: b.customerId, customerName: b.name, customerEmail: b.email, start: slot.start, end: slot.end, bookedStart: slot.start },
      });
      const event = await insertEvent(tx, now, {
        companyId: b.company.id, creatorId, title: eventTitle(`Appointment: ${b.name}`), description: b.email,
        start: slot.start, end: slot.end, timeZone: schedule.timeZone, remind: true, appointmentId: appointment.id,
        participantIds: told.filter((u) => u !== creatorId),
      });
      const withEvent = await tx.appointment.update({ where: { id: appointment.id }, data: { eventId: event.id } });
      // A customer with an account (a visitor's too) gets a conversation at the booked time.
      if (b.customerId) {
        await tx.scheduledTask.create({
          data: { companyId: b.company.id, task: 'appointmentOpen', startAt: slot.start, eventId: event.id, occurrenceStart: slot.start, occurrenceEnd: slot.end, options: { idAgendamento: appointment.id } },
        });
      }
      const notifications = await notifyAll(tx, told.filter((u) => u !== b.bookedBy.id), 'apptNew', {
        companyId: b.company.id, type: 'appointmentBooked', subtitle: `${b.name} · ${slot.start.toISOString()}`, action: `/i/recent/schedule/${appointment.id}`,
      });
      return { appointment: withEvent, notifications, told };
    });
  } catch (err) {
    // Another booking won the race for this slot between our check and our insert.
    if (isSlotTaken(err)) throw fail('CONFLICT', M.slotTaken);
    throw err;
  }
  pushNotifications(deps.realtime, created.notifications);
  tellPeople(deps, created.appointment, created.told);
  await mailCustomer(deps, b.company, created.appointment, 'booked');
  return { id: created.appointment.id, start: created.appointment.start, end: created.appointment.end };
}

/** An appointment of this company that I may see and change: mine as attendant or as one of its queue's people, or any if I am an admin. */
async function loadMine(ctx: AppointmentsContext, appointmentId: string) {
  const a = await ctx.db.appointment.findFirst({ where: { id: appointmentId, companyId: ctx.company.id } });
  if (!a) throw fail('NOT_FOUND', M.notFound);
  if (a.attendantId === ctx.user.id || ctx.member.isAdmin) return a;
  if (a.queueId && (await queuePeople(ctx.db, ctx.company.id, a.queueId)).includes(ctx.user.id)) return a;
  throw fail('NOT_FOUND', M.notFound);
}

/** The queues whose appointments I see: all if I am an admin, else those of my groups. */
async function myQueueIds(ctx: AppointmentsContext) {
  const rows = await ctx.db.queue.findMany({
    where: { companyId: ctx.company.id, ...(!ctx.member.isAdmin && { groups: { some: { group: { members: { some: { memberId: ctx.member.id } } } } } }) },
    select: { id: true }, take: 500,
  });
  return rows.map((q) => q.id);
}

async function view(ctx: AppointmentsContext, rows: Appointment[]) {
  const names = await people(ctx.db, rows.map((a) => a.attendantId));
  const queueIds = [...new Set(rows.map((a) => a.queueId).filter((q): q is string => !!q))];
  const queues = new Map((await ctx.db.queue.findMany({ where: { id: { in: queueIds } }, select: { id: true, name: true } })).map((q) => [q.id, q.name]));
  const now = ctx.clock.now();
  return rows.map((a) => ({
    id: a.id, start: a.start, end: a.end, status: a.status, customerName: a.customerName, customerEmail: a.customerEmail,
    attendantId: a.attendantId, attendantName: a.attendantId ? names.get(a.attendantId) ?? '' : '',
    queueId: a.queueId, queueName: a.queueId ? queues.get(a.queueId) ?? '' : '', eventId: a.eventId, conversationId: a.conversationId,
    past: a.end <= now, mine: a.attendantId === ctx.user.id,
  }));
}

export async function listMine(ctx: AppointmentsContext, when: 'upcoming' | 'past') {
  const now = ctx.clock.now();
  const base = { companyId: ctx.company.id, OR: [{ attendantId: ctx.user.id }, { queueId: { in: await myQueueIds(ctx) } }] };
  const rows = when === 'upcoming'
    ? await ctx.db.appointment.findMany({ where: { ...base, status: 'booked', end: { gt: now } }, orderBy: { start: 'asc' }, take: 200 })
    : await ctx.db.appointment.findMany({ where: { ...base, AND: [{ OR: [{ end: { lte: now } }, { status: 'cancelled' }] }] }, orderBy: { start: 'desc' }, take: 200 });
  return view(ctx, rows);
}

export async function getOne(ctx: AppointmentsContext, appointmentId: string) {
  const [one] = await view(ctx, [await loadMine(ctx, appointmentId)]);
  return one!;
}

/** Cancels: frees the slot (bookedStart null) and removes the event and its reminder, together. */
export async function cancel(ctx: AppointmentsContext, appointmentId: string) {
  const a = await loadMine(ctx, appointmentId);
  if (a.status === 'cancelled') throw fail('BAD_REQUEST', M.alreadyCancelled);
  const updated = await ctx.db.$transaction((tx) => cancelRows(tx, a));
  tellPeople(ctx, a, await audience(ctx.db, a));
  await mailCustomer(ctx, ctx.company, updated, 'cancelled');
  return { ok: true };
}

/** Moves to another free slot of the same attendant; the event and its reminder move with it. */
export async function reschedule(ctx: AppointmentsContext, appointmentId: string, start: Date) {
  return moveAppointment(ctx, ctx.company, await loadMine(ctx, appointmentId), start, false);
}

/** The customer moves their booking from the e-mail's signed link: the attendant is told in-app and by e-mail. */
export async function rescheduleByLink(deps: AppointmentDeps, company: Company, appointmentId: string, token: string, start: Date) {
  return moveAppointment(deps, company, await byLink(deps, company, appointmentId, token), start, true);
}

async function moveAppointment(deps: AppointmentDeps, company: Company, a: Appointment, start: Date, byCustomer: boolean) {
  if (a.status === 'cancelled') throw fail('BAD_REQUEST', M.alreadyCancelled);
  const now = deps.clock.now();
  if (a.start <= now) throw fail('BAD_REQUEST', M.past);
  const target = targetOf(a);
  const schedule = await targetSchedule(deps.db, company.id, target);
  const slot = isFreeSlot(schedule, await bookedAround(deps.db, target, start, start, a.id), start, now);
  if (!slot) throw fail('CONFLICT', M.slotTaken);
  const told = await audience(deps.db, a);
  let moved: { updated: Appointment; notifications: Awaited<ReturnType<typeof createNotifications>> };
  try {
    moved = await deps.db.$transaction(async (tx) => {
      const updated = await tx.appointment.update({ where: { id: a.id }, data: { start: slot.start, end: slot.end, bookedStart: slot.start } });
      if (a.eventId) {
        const event = await tx.calendarEvent.update({ where: { id: a.eventId }, data: { start: slot.start, end: slot.end, updatedAt: now }, include: { exceptions: true } });
        await syncReminders(tx, event, now);
        await tx.scheduledTask.updateMany({
          where: { eventId: a.eventId, task: 'appointmentOpen', firedAt: null },
          data: { startAt: slot.start, occurrenceStart: slot.start, occurrenceEnd: slot.end },
        });
      }
      const notifications = byCustomer ? await notifyAll(tx, told, 'apptMovedByCustomer', {
        companyId: company.id, type: 'appointmentMoved', subtitle: `${a.customerName} · ${slot.start.toISOString()}`, action: `/i/recent/schedule/${a.id}`,
      }) : [];
      return { updated, notifications };
    });
  } catch (err) {
    if (isSlotTaken(err)) throw fail('CONFLICT', M.slotTaken);
    throw err;
  }
  pushNotifications(deps.realtime, moved.notifications);
  tellPeople(deps, a, told);
  await mailCustomer(deps, company, moved.updated, 'rescheduled');
  if (byCustomer) await mailAttendant(deps, company, moved.updated);
  return { id: a.id, start: moved.updated.start, end: moved.updated.end };
}

/** The attendant's e-mail when the customer moved the booking, in the attendant's language. */
async function mailAttendant(deps: AppointmentDeps, company: Company, a: Appointment) {
  if (!a.attendantId) return; // a queue's appointment: its people were told in-app
  try {
    const [user, settings] = await Promise.all([
      deps.db.user.findUnique({ where: { id: a.attendantId }, select: { email: true, name: true, language: true } }),
      loadSchedule(deps.db, company.id, a.attendantId),
    ]);
    if (!user?.email) return;
    await deps.mailer.send(attendantMovedMail(a, { email: user.email, name: user.name ?? '', lang: userLanguage(user) }, company.name, settings?.timeZone ?? 'UTC', `${deps.config.publicUrl}/i/recent/schedule/${a.id}`));
  } catch (err) {
    deps.logger.error({ err, appointmentId: a.id }, 'appointment e-mail to the attendant failed');
  }
}

/** For the reminder tick: the customer's e-mail 15 minutes before (the attendant gets the in-app one). */
export async function remindCustomer(deps: AppointmentDeps, appointmentId: string) {
  const a = await deps.db.appointment.findUnique({ where: { id: appointmentId } });
  if (!a || a.status !== 'booked') return;
  const company = await deps.db.company.findUnique({ where: { id: a.companyId } });
  if (company) await mailCustomer(deps, company, a, 'reminder');
}

/**
 * At the booked time: the customer's conversation opens in the company's queue (the attendant is
 * told, with a link to it), and the appointment and its event point to it (ateId), so both sides
 * can join it. The first active public queue takes it; 'faleconosco' when there is no other.
 */
export async function openAppointmentConversation(deps: Pick<AppDeps, 'db' | 'realtime' | 'clock'>, appointmentId: string) {
  const a = await deps.db.appointment.findUnique({ where: { id: appointmentId } });
  if (!a || a.status !== 'booked' || a.conversationId || !a.customerId) return;
  const [company, customer] = await Promise.all([deps.db.company.findUnique({ where: { id: a.companyId } }), deps.db.user.findUnique({ where: { id: a.customerId } })]);
  if (!company || !customer || companyBlocksWork(company)) return;
  const queues = await deps.db.queue.findMany({ where: { companyId: company.id, active: true, internal: false }, include: { groups: { select: { groupId: true } } }, orderBy: { createdAt: 'asc' } });
  // A queue's appointment opens in its own queue (while it is active), else the first public one.
  const queue = queues.find((q) => q.id === a.queueId) ?? queues.find((q) => q.key !== 'faleconosco') ?? queues[0];
  if (!queue) return;
  const whom = await withWhom(deps.db, a);
  const told = await audience(deps.db, a);
  const { conversation } = await createServiceRequest(deps, {
    company, queue, customer, type: CONVERSATION_TYPE.single, source: 'appointment',
    text: `Appointment with ${whom.name} at ${a.start.toISOString()} (${a.customerName})`,
  });
  const notifications = await deps.db.$transaction(async (tx) => {
    await tx.appointment.update({ where: { id: a.id }, data: { conversationId: conversation.id } });
    if (a.eventId) await tx.calendarEvent.updateMany({ where: { id: a.eventId }, data: { conversationId: conversation.id } });
    return notifyAll(tx, told, 'apptWaiting', {
      companyId: company.id, type: 'appointmentStarts', subtitle: `${a.customerName} · ${queue.name}`, action: `/i/recent/chat/${conversation.id}`,
    });
  });
  pushNotifications(deps.realtime, notifications);
  tellPeople(deps, a, told);
}
