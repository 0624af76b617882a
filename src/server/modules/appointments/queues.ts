/**
 * A queue's own availability (issue 15): an admin sets weekly windows for a queue; a customer
 * books one of its slots and the appointment belongs to the queue, with no attendant yet. Who
 * sees it (decisions.md): the company's admins and the members of the queue's groups, as
 * participants of its calendar event; the admin who saved the availability is the event's creator.
 */
import type { z } from 'zod';
import type { Prisma } from '../../../generated/prisma/client';
import { scheduleProblems, type ScheduleLike } from '../../../shared/domain/appointments';
import { APPOINTMENT_MESSAGES as M, type saveQueueScheduleInput } from '../../../shared/schemas/appointments';
import type { AppDeps } from '../../deps';
import { fail } from '../feeds/errors';
import type { AppointmentsContext } from './service';

type Db = AppDeps['db'];
const DEFAULTS = { slotMinutes: 30, bufferMinutes: 0 };

export async function loadQueueSchedule(db: Db, companyId: string, queueId: string) {
  return db.queueSchedule.findUnique({ where: { companyId_queueId: { companyId, queueId } }, include: { windows: true } });
}

const plain = (s: NonNullable<Awaited<ReturnType<typeof loadQueueSchedule>>>): ScheduleLike => ({
  timeZone: s.timeZone, slotMinutes: s.slotMinutes, bufferMinutes: s.bufferMinutes,
  windows: s.windows.map((w) => ({ weekday: w.weekday, startMinute: w.startMinute, endMinute: w.endMinute })).sort((a, b) => a.weekday - b.weekday || a.startMinute - b.startMinute),
});

/** Only admins set a queue's availability, and only for a queue of their company. */
async function adminQueue(ctx: AppointmentsContext, queueId: string) {
  if (!ctx.member.isAdmin) throw fail('FORBIDDEN', M.queueNotBookable);
  const queue = await ctx.db.queue.findFirst({ where: { id: queueId, companyId: ctx.company.id }, select: { id: true, name: true } });
  if (!queue) throw fail('NOT_FOUND', M.queueNotBookable);
  return queue;
}

export async function getQueueSchedule(ctx: AppointmentsContext, queueId: string, browserZone?: string) {
  await adminQueue(ctx, queueId);
  const s = await loadQueueSchedule(ctx.db, ctx.company.id, queueId);
  if (!s) return { saved: false, timeZone: browserZone ?? 'UTC', ...DEFAULTS, windows: [] };
  return { saved: true, ...plain(s) };
}

export async function saveQueueSchedule(ctx: AppointmentsContext, input: z.output<typeof saveQueueScheduleInput>) {
  await adminQueue(ctx, input.queueId);
  const schedule: ScheduleLike = { timeZone: input.timeZone, slotMinutes: input.slotMinutes, bufferMinutes: input.bufferMinutes, windows: input.windows };
  if (scheduleProblems(schedule).length) throw fail('BAD_REQUEST', M.schedule);
  const key = { companyId: ctx.company.id, queueId: input.queueId };
  await ctx.db.$transaction(async (tx) => {
    const data = { timeZone: input.timeZone, slotMinutes: input.slotMinutes, bufferMinutes: input.bufferMinutes, setById: ctx.user.id };
    await tx.queueSchedule.upsert({ where: { companyId_queueId: key }, create: { ...key, ...data }, update: data });
    await tx.queueWindow.deleteMany({ where: key });
    await tx.queueWindow.createMany({ data: input.windows.map((w) => ({ ...key, ...w })) });
  });
  return getQueueSchedule(ctx, input.queueId);
}

/** The company's queues, for the admin's "for a queue" choice. */
export async function companyQueues(ctx: AppointmentsContext) {
  if (!ctx.member.isAdmin) return [];
  const rows = await ctx.db.queue.findMany({ where: { companyId: ctx.company.id, active: true, internal: false }, select: { id: true, name: true }, orderBy: { name: 'asc' }, take: 200 });
  return rows.map((q) => ({ queueId: q.id, name: q.name }));
}

/** Active public queues with at least one weekly window: what a customer can book. */
export async function bookableQueues(db: Db, companyId: string) {
  const rows = await db.queue.findMany({
    where: { companyId, active: true, internal: false, id: { in: (await db.queueSchedule.findMany({ where: { companyId, windows: { some: {} } }, select: { queueId: true }, take: 200 })).map((s) => s.queueId) } },
    select: { id: true, name: true }, orderBy: { name: 'asc' },
  });
  return rows.map((q) => ({ queueId: q.id, name: q.name }));
}

/** The queue's schedule, refused for a queue of another company, inactive, internal or without windows. */
export async function bookableQueueSchedule(db: Db, companyId: string, queueId: string) {
  const [s, queue] = await Promise.all([
    loadQueueSchedule(db, companyId, queueId),
    db.queue.findFirst({ where: { id: queueId, companyId, active: true, internal: false }, select: { id: true, name: true } }),
  ]);
  if (!s || s.windows.length === 0 || !queue) throw fail('NOT_FOUND', M.queueNotBookable);
  return { schedule: plain(s), setById: s.setById, queueName: queue.name };
}

/** The queue's people: the company's active admins and the active members of the queue's groups. */
export async function queuePeople(db: Db | Prisma.TransactionClient, companyId: string, queueId: string) {
  const rows = await db.member.findMany({
    where: {
      companyId, inviteAccepted: true, blocked: false, removed: false,
      OR: [{ isAdmin: true }, { groups: { some: { group: { companyId, queues: { some: { queueId } } } } } }],
    },
    select: { userId: true }, take: 500,
  });
  return [...new Set(rows.map((r) => r.userId))];
}

/**
 * Who belongs to a company's queues is read and written under this lock: a change of membership
 * takes it exclusively before following it into the events (followQueuePeople), a queue booking
 * shares it while it reads the queue's people, so neither writes an event from a stale list.
 */
export async function lockQueuePeople(tx: Prisma.TransactionClient, companyId: string, shared: boolean) {
  const key = `atende:queue-people:${companyId}`;
  if (shared) await tx.$queryRaw`SELECT pg_advisory_xact_lock_shared(hashtext(${key}))::text`;
  else await tx.$queryRaw`SELECT pg_advisory_xact_lock(hashtext(${key}))::text`;
}

/** The events whose participants followQueuePeople changed, and the people who came or went. */
export type Followed = { eventId: string; appointmentId: string; userIds: string[] }[];

/**
 * A queue's booked appointments that have not ended follow the queue's people (decisions.md):
 * called in the transaction that changed a group, a queue's groups or a member's state, it adds
 * the people who now belong as participants of each event and removes those who no longer do
 * (one who removed himself from the event and still belongs stays removed). Past appointments keep
 * the people they had. Idempotent: a second call changes nothing.
 */
export async function followQueuePeople(tx: Prisma.TransactionClient, companyId: string, now: Date): Promise<Followed> {
  await lockQueuePeople(tx, companyId, false);
  const booked = await tx.appointment.findMany({
    where: { companyId, queueId: { not: null }, eventId: { not: null }, status: 'booked', end: { gt: now } },
    select: { id: true, queueId: true, eventId: true }, take: 2000,
  });
  if (booked.length === 0) return [];
  const people = new Map<string, Set<string>>();
  for (const queueId of new Set(booked.map((a) => a.queueId!))) people.set(queueId, new Set(await queuePeople(tx, companyId, queueId)));
  const events = await tx.calendarEvent.findMany({
    where: { companyId, id: { in: booked.map((a) => a.eventId!) } },
    select: { id: true, creatorId: true, participants: { select: { userId: true } } },
  });
  const byEvent = new Map(events.map((e) => [e.id, e]));
  const followed: Followed = [];
  for (const a of booked) {
    const e = byEvent.get(a.eventId!);
    if (!e) continue;
    const want = people.get(a.queueId!)!;
    const have = new Set(e.participants.map((p) => p.userId));
    const joined = [...want].filter((u) => u !== e.creatorId && !have.has(u));
    const left = [...have].filter((u) => !want.has(u));
    if (left.length) await tx.calendarParticipant.deleteMany({ where: { eventId: e.id, userId: { in: left } } });
    if (joined.length) await tx.calendarParticipant.createMany({ data: joined.map((userId) => ({ eventId: e.id, userId })), skipDuplicates: true });
    if (joined.length || left.length) followed.push({ eventId: e.id, appointmentId: a.id, userIds: [...joined, ...left] });
  }
  return followed;
}

/** After the commit: the people who joined or left see their calendar and appointments change. */
export function tellFollowed(realtime: AppDeps['realtime'], followed: Followed) {
  for (const f of followed) {
    realtime.toUsers(f.userIds, 'calendar:changed', { eventId: f.eventId });
    realtime.toUsers(f.userIds, 'appointments:changed', { appointmentId: f.appointmentId });
  }
}
