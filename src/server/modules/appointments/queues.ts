/**
 * A queue's own availability (issue 15): an admin sets weekly windows for a queue; a customer
 * books one of its slots and the appointment belongs to the queue, with no attendant yet. Who
 * sees it (decisions.md): the company's admins and the members of the queue's groups, as
 * participants of its calendar event; the admin who saved the availability is the event's creator.
 */
import type { z } from 'zod';
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
export async function queuePeople(db: Db, companyId: string, queueId: string) {
  const rows = await db.member.findMany({
    where: {
      companyId, inviteAccepted: true, blocked: false, removed: false,
      OR: [{ isAdmin: true }, { groups: { some: { group: { companyId, queues: { some: { queueId } } } } } }],
    },
    select: { userId: true }, take: 500,
  });
  return [...new Set(rows.map((r) => r.userId))];
}
