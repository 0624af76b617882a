/**
 * Appointments (/i/schedule, issue 15): an attendant's weekly availability, the free slots it
 * gives (shared/domain/appointments.ts), and bookings of those slots, by a member for a customer
 * or by a visitor on the company's public page. A booking and the attendant's calendar event
 * (fromAgendamento, reminded 15 minutes before) are written in one transaction; the unique index on
 * (attendantId, bookedStart) refuses a second booking of a slot, however the requests race.
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

async function bookedAround(db: AppDeps['db'], attendantId: string, from: Date, to: Date, except?: string) {
  const rows = await db.appointment.findMany({
    where: { attendantId, status: 'booked', start: { lt: new Date(to.getTime() + DAY) }, end: { gt: new Date(from.getTime() - DAY) }, ...(except && { id: { not: except } }) },
    select: { start: true, end: true },
  });
  return rows;
}

export async function slots(db: AppDeps['db'], now: Date, companyId: string, attendantId: string, from: Date, to: Date) {
  const schedule = await bookableSchedule(db, companyId, attendantId);
  const booked = await bookedAround(db, attendantId, from, to);
  return { timeZone: schedule.timeZone, slotMinutes: schedule.slotMinutes, slots: freeSlots(schedule, booked, from, to, now) };
}

const isSlotTaken = (err: unknown) => err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002';

async function people(db: AppDeps['db'], ids: string[]) {
  const rows = await db.user.findMany({ where: { id: { in: [...new Set(ids)] } }, select: { id: true, name: true } });
  return new Map(rows.map((u) => [u.id, u.name ?? '']));
}

/** A text in the attendant's own language (their notifications). */
async function attendantText(db: AppDeps['db'], attendantId: string, key: Parameters<typeof serverText>[1]) {
  return serverText(userLanguage(await db.user.findUnique({ where: { id: attendantId }, select: { language: true } })), key);
}

/** The customer's e-mail; a failure is logged, never undoes the booking. */
async function mailCustomer(deps: AppointmentDeps, company: Company, a: Appointment, kind: AppointmentMailKind) {
  if (!a.customerEmail) return;
  try {
    const [settings, names] = await Promise.all([loadSchedule(deps.db, company.id, a.attendantId), people(deps.db, [a.attendantId])]);
    // A rising SEQUENCE lets the customer's calendar replace the entry it has.
    const sequence = Math.max(0, Math.floor((deps.clock.now().getTime() - a.createdAt.getTime()) / 1000));
    const who = {
      companyName: company.name, domain: company.domain, attendantName: names.get(a.attendantId) ?? '', publicUrl: deps.config.publicUrl,
      cancelUrl: cancelUrl(deps.config, company.domain, a.id), lang: companyLanguage(company),
    };
    await deps.mailer.send(appointmentMail(a, who, settings?.timeZone ?? 'UTC', kind, sequence));
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
  const [names, settings] = await Promise.all([people(deps.db, [a.attendantId]), loadSchedule(deps.db, company.id, a.attendantId)]);
  return {
    start: a.start, end: a.end, attendantId: a.attendantId, attendantName: names.get(a.attendantId) ?? '', customerName: a.customerName,
    timeZone: settings?.timeZone ?? 'UTC', cancelled: a.status === 'cancelled', started: a.start <= deps.clock.now(),
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
  const title = await attendantText(deps.db, a.attendantId, 'apptCancelledByCustomer');
  const { updated, notifications } = await deps.db.$transaction(async (tx) => {
    const updated = await cancelRows(tx, a);
    const notifications = await createNotifications(tx, [{
      companyId: company.id, userId: a.attendantId, type: 'appointmentCancelled', title,
      subtitle: `${a.customerName} · ${a.start.toISOString()}`, action: `/i/recent/schedule/${a.id}`,
    }]);
    return { updated, notifications };
  });
  pushNotifications(deps.realtime, notifications);
  tellAttendant(deps, a);
  await mailCustomer(deps, company, updated, 'cancelled');
  return { ok: true };
}

function tellAttendant(deps: Pick<AppDeps, 'realtime'>, a: Pick<Appointment, 'id' | 'attendantId' | 'eventId'>) {
  deps.realtime.toUsers([a.attendantId], 'appointments:changed', { appointmentId: a.id });
  if (a.eventId) deps.realtime.toUsers([a.attendantId], 'calendar:changed', { eventId: a.eventId });
}

export interface Booking {
  company: Company;
  attendantId: string;
  start: Date;
  customerId: string | null;
  name: string;
  email: string;
  /** Who pressed "book": the customer, or a member booking for them. */
  bookedBy: User;
}

/** Books one free slot: the appointment, its calendar event and reminder, in one transaction. */
export async function book(deps: AppointmentDeps, b: Booking) {
  const schedule = await bookableSchedule(deps.db, b.company.id, b.attendantId);
  const now = deps.clock.now();
  const slot = isFreeSlot(schedule, await bookedAround(deps.db, b.attendantId, b.start, b.start), b.start, now);
  if (!slot) throw fail('CONFLICT', M.slotTaken);
  const title = await attendantText(deps.db, b.attendantId, 'apptNew');
  let created: { appointment: Appointment; notifications: Awaited<ReturnType<typeof createNotifications>> };
  try {
    created = await deps.db.$transaction(async (tx) => {
      const appointment = await tx.appointment.create({
        data: { companyId: b.company.id, attendantId: b.attendantId, customerId: b.customerId, customerName: b.name, customerEmail: b.email, start: slot.start, end: slot.end, bookedStart: slot.start },
      });
      const event = await insertEvent(tx, now, {
        companyId: b.company.id, creatorId: b.attendantId, title: eventTitle(`Appointment: ${b.name}`), description: b.email,
        start: slot.start, end: slot.end, timeZone: schedule.timeZone, remind: true, appointmentId: appointment.id,
      });
      const withEvent = await tx.appointment.update({ where: { id: appointment.id }, data: { eventId: event.id } });
      // A customer with an account (a visitor's too) gets a conversation at the booked time.
      if (b.customerId) {
        await tx.scheduledTask.create({
          data: { companyId: b.company.id, task: 'appointmentOpen', startAt: slot.start, eventId: event.id, occurrenceStart: slot.start, occurrenceEnd: slot.end, options: { idAgendamento: appointment.id } },
        });
      }
      const notifications = b.bookedBy.id === b.attendantId ? [] : await createNotifications(tx, [{
        companyId: b.company.id, userId: b.attendantId, type: 'appointmentBooked', title,
        subtitle: `${b.name} · ${slot.start.toISOString()}`, action: `/i/recent/schedule/${appointment.id}`,
      }]);
      return { appointment: withEvent, notifications };
    });
  } catch (err) {
    // Another booking won the race for this slot between our check and our insert.
    if (isSlotTaken(err)) throw fail('CONFLICT', M.slotTaken);
    throw err;
  }
  pushNotifications(deps.realtime, created.notifications);
  tellAttendant(deps, created.appointment);
  await mailCustomer(deps, b.company, created.appointment, 'booked');
  return { id: created.appointment.id, start: created.appointment.start, end: created.appointment.end };
}

/** An appointment of this company that I may see and change: mine as attendant, or any if I am an admin. */
async function loadMine(ctx: AppointmentsContext, appointmentId: string) {
  const a = await ctx.db.appointment.findFirst({ where: { id: appointmentId, companyId: ctx.company.id } });
  if (!a || (a.attendantId !== ctx.user.id && !ctx.member.isAdmin)) throw fail('NOT_FOUND', M.notFound);
  return a;
}

async function view(ctx: AppointmentsContext, rows: Appointment[]) {
  const names = await people(ctx.db, rows.map((a) => a.attendantId));
  const now = ctx.clock.now();
  return rows.map((a) => ({
    id: a.id, start: a.start, end: a.end, status: a.status, customerName: a.customerName, customerEmail: a.customerEmail,
    attendantId: a.attendantId, attendantName: names.get(a.attendantId) ?? '', eventId: a.eventId, conversationId: a.conversationId,
    past: a.end <= now, mine: a.attendantId === ctx.user.id,
  }));
}

export async function listMine(ctx: AppointmentsContext, when: 'upcoming' | 'past') {
  const now = ctx.clock.now();
  const base = { companyId: ctx.company.id, attendantId: ctx.user.id };
  const rows = when === 'upcoming'
    ? await ctx.db.appointment.findMany({ where: { ...base, status: 'booked', end: { gt: now } }, orderBy: { start: 'asc' }, take: 200 })
    : await ctx.db.appointment.findMany({ where: { ...base, OR: [{ end: { lte: now } }, { status: 'cancelled' }] }, orderBy: { start: 'desc' }, take: 200 });
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
  tellAttendant(ctx, a);
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
  const schedule = await bookableSchedule(deps.db, company.id, a.attendantId);
  const slot = isFreeSlot(schedule, await bookedAround(deps.db, a.attendantId, start, start, a.id), start, now);
  if (!slot) throw fail('CONFLICT', M.slotTaken);
  const title = byCustomer ? await attendantText(deps.db, a.attendantId, 'apptMovedByCustomer') : '';
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
      const notifications = byCustomer ? await createNotifications(tx, [{
        companyId: company.id, userId: a.attendantId, type: 'appointmentMoved', title,
        subtitle: `${a.customerName} · ${slot.start.toISOString()}`, action: `/i/recent/schedule/${a.id}`,
      }]) : [];
      return { updated, notifications };
    });
  } catch (err) {
    if (isSlotTaken(err)) throw fail('CONFLICT', M.slotTaken);
    throw err;
  }
  pushNotifications(deps.realtime, moved.notifications);
  tellAttendant(deps, a);
  await mailCustomer(deps, company, moved.updated, 'rescheduled');
  if (byCustomer) await mailAttendant(deps, company, moved.updated);
  return { id: a.id, start: moved.updated.start, end: moved.updated.end };
}

/** The attendant's e-mail when the customer moved the booking, in the attendant's language. */
async function mailAttendant(deps: AppointmentDeps, company: Company, a: Appointment) {
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
  const queue = queues.find((q) => q.key !== 'faleconosco') ?? queues[0];
  if (!queue) return;
  const names = await people(deps.db, [a.attendantId]);
  const title = await attendantText(deps.db, a.attendantId, 'apptWaiting');
  const { conversation } = await createServiceRequest(deps, {
    company, queue, customer, type: CONVERSATION_TYPE.single, source: 'appointment',
    text: `Appointment with ${names.get(a.attendantId) ?? ''} at ${a.start.toISOString()} (${a.customerName})`,
  });
  const notifications = await deps.db.$transaction(async (tx) => {
    await tx.appointment.update({ where: { id: a.id }, data: { conversationId: conversation.id } });
    if (a.eventId) await tx.calendarEvent.updateMany({ where: { id: a.eventId }, data: { conversationId: conversation.id } });
    return createNotifications(tx, [{
      companyId: company.id, userId: a.attendantId, type: 'appointmentStarts', title,
      subtitle: `${a.customerName} · ${queue.name}`, action: `/i/recent/chat/${conversation.id}`,
    }]);
  });
  pushNotifications(deps.realtime, notifications);
  tellAttendant(deps, a);
}
