/**
 * Saved replies (canned responses): the company's texts its attendants insert with "/shortcut".
 * Every member reads the list; admins keep it.
 */
import { Prisma } from '../../db/client';
import { REPLY_MESSAGES as M, SAVED_REPLIES_MAX, type replySaveInput } from '../../../shared/schemas/replies';
import type { z } from 'zod';
import { fail } from '../feeds/errors';
import type { FeedsContext as MemberContext } from '../feeds/service';

const shape = { id: true, shortcut: true, title: true, text: true, updatedAt: true } as const;

export function listReplies(ctx: Pick<MemberContext, 'db' | 'company'>) {
  return ctx.db.savedReply.findMany({ where: { companyId: ctx.company.id }, select: shape, orderBy: { shortcut: 'asc' } });
}

export async function saveReply(ctx: Pick<MemberContext, 'db' | 'company' | 'user'>, input: z.output<typeof replySaveInput>) {
  const data = { shortcut: input.shortcut, title: input.title, text: input.text, updatedById: ctx.user.id, updatedAt: new Date() };
  try {
    if (input.replyId) {
      const { count } = await ctx.db.savedReply.updateMany({ where: { id: input.replyId, companyId: ctx.company.id }, data });
      if (!count) throw fail('NOT_FOUND', M.notFound);
      return ctx.db.savedReply.findUniqueOrThrow({ where: { id: input.replyId }, select: shape });
    }
    const existing = await ctx.db.savedReply.count({ where: { companyId: ctx.company.id } });
    if (existing >= SAVED_REPLIES_MAX) throw fail('BAD_REQUEST', M.tooMany);
    return await ctx.db.savedReply.create({ data: { ...data, companyId: ctx.company.id }, select: shape });
  } catch (err) {
    // The unique (company, shortcut) index is the rule: two admins saving the same shortcut at once get one reply.
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002') throw fail('CONFLICT', M.shortcutTaken);
    throw err;
  }
}

export async function removeReply(ctx: Pick<MemberContext, 'db' | 'company'>, replyId: string) {
  const { count } = await ctx.db.savedReply.deleteMany({ where: { id: replyId, companyId: ctx.company.id } });
  if (!count) throw fail('NOT_FOUND', M.notFound);
  return { removed: true };
}
