import type { z } from 'zod';
import { SERVICE_MESSAGES as M, type addTimeInput } from '../../../shared/schemas/service';
import { assertPlanFeature, fail, isConsultation } from './shared';
import type { ServiceContext } from './service';

/** Members who take part in the conversation (or admins) keep and read its timesheet. */
async function conversationOfCompany(ctx: ServiceContext, conversationId: string) {
  const c = await ctx.db.conversation.findFirst({ where: { id: conversationId, companyId: ctx.company.id }, select: { id: true } });
  if (!c || (await isConsultation(ctx.db, c.id))) throw fail('NOT_FOUND', M.conversationNotFound);
  if (!ctx.member.isAdmin) {
    const me = await ctx.db.participant.findUnique({ where: { conversationId_userId: { conversationId, userId: ctx.user.id } } });
    if (!me) throw fail('FORBIDDEN', M.notParticipant);
  }
  return c;
}

/** /chat/{id}/timesheet: the time entries of a conversation, oldest first, with the total per person. */
export async function listTimesheet(ctx: ServiceContext, conversationId: string) {
  assertPlanFeature(ctx.company, 'timesheet');
  await conversationOfCompany(ctx, conversationId);
  const entries = await ctx.db.timesheetEntry.findMany({ where: { conversationId }, orderBy: [{ startedAt: 'asc' }, { createdAt: 'asc' }] });
  const users = await ctx.db.user.findMany({ where: { id: { in: [...new Set(entries.map((e) => e.userId))] } }, select: { id: true, name: true } });
  const nameOf = new Map(users.map((u) => [u.id, u.name]));
  const totals = new Map<string, number>();
  for (const e of entries) totals.set(e.userId, (totals.get(e.userId) ?? 0) + e.minutes);
  return {
    entries: entries.map((e) => ({
      id: e.id,
      userId: e.userId,
      name: nameOf.get(e.userId) ?? '',
      startedAt: e.startedAt,
      minutes: e.minutes,
      description: e.description,
      mine: e.userId === ctx.user.id,
    })),
    totals: [...totals].map(([userId, minutes]) => ({ userId, name: nameOf.get(userId) ?? '', minutes })),
    totalMinutes: entries.reduce((sum, e) => sum + e.minutes, 0),
  };
}

export async function addTime(ctx: ServiceContext, input: z.output<typeof addTimeInput>) {
  assertPlanFeature(ctx.company, 'timesheet');
  const c = await conversationOfCompany(ctx, input.conversationId);
  const entry = await ctx.db.timesheetEntry.create({
    data: { companyId: ctx.company.id, conversationId: c.id, userId: ctx.user.id, startedAt: input.startedAt, minutes: input.minutes, description: input.description },
  });
  return { id: entry.id };
}

/** One's own entries; admins any of the company's. */
export async function removeTime(ctx: ServiceContext, entryId: string) {
  assertPlanFeature(ctx.company, 'timesheet');
  const { count } = await ctx.db.timesheetEntry.deleteMany({
    where: { id: entryId, companyId: ctx.company.id, ...(ctx.member.isAdmin ? {} : { userId: ctx.user.id }) },
  });
  if (count === 0) throw fail('NOT_FOUND', M.entryNotFound);
  return { ok: true };
}
