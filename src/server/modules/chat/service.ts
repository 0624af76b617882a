import { randomInt } from 'node:crypto';
import { TRPCError } from '@trpc/server';
import type { z } from 'zod';
import type { Company, Member, Message } from '../../../generated/prisma/client';
import { CONVERSATION_TYPE } from '../../../shared/constants';
import { memberMayWork } from '../../../shared/domain/company';
import { estimateMessageBytes } from '../../../shared/domain/messages';
import { newProtocol } from '../../../shared/domain/protocol';
import { CHAT_MESSAGES as M, type messagesInput, type sendInput, type startTeamInput } from '../../../shared/schemas/chat';
import type { Clock } from '../../clock';
import type { Db } from '../../db/client';
import type { Realtime } from '../../realtime';

/** What every chat rule works with: the caller as a member of the company the input named. */
export interface ChatContext {
  db: Db;
  clock: Clock;
  realtime: Realtime;
  company: Company;
  member: Member;
  userId: string;
}

export type ChatMessage = ReturnType<typeof toMessage>;

export function toMessage(m: Message & { author?: { name: string } | null }) {
  return {
    id: m.id,
    conversationId: m.conversationId,
    seq: m.seq,
    clientId: m.clientId,
    authorId: m.authorId,
    authorName: m.author?.name ?? null,
    type: m.type,
    text: m.removed ? '' : m.text,
    replyToId: m.replyToId,
    forwarded: m.forwarded,
    editedAt: m.editedAt,
    removed: m.removed,
    isComment: m.isComment,
    mentions: m.mentions,
    createdAt: m.createdAt,
  };
}

/** Spec: a blocked plan or a deactivated company stops messages and new chats; admins continue. */
function assertMayWork(ctx: ChatContext) {
  if (!memberMayWork(ctx.company, ctx.member)) throw new TRPCError({ code: 'FORBIDDEN', message: M.blocked });
}

/** The caller's participation in a conversation of THIS company, or a refusal. */
async function participation(ctx: ChatContext, conversationId: string) {
  const conversation = await ctx.db.conversation.findFirst({ where: { id: conversationId, companyId: ctx.company.id } });
  if (!conversation) throw new TRPCError({ code: 'NOT_FOUND', message: M.notFound });
  const me = await ctx.db.participant.findUnique({ where: { conversationId_userId: { conversationId, userId: ctx.userId } } });
  if (!me) throw new TRPCError({ code: 'FORBIDDEN', message: M.notParticipant });
  if (me.removed) throw new TRPCError({ code: 'FORBIDDEN', message: M.removed });
  return { conversation, me };
}

/** Active, accepted members of this company among `userIds`: nobody else can be added. */
async function activeMembers(ctx: ChatContext, userIds: string[]) {
  const members = await ctx.db.member.findMany({
    where: { companyId: ctx.company.id, userId: { in: userIds }, inviteAccepted: true, blocked: false, removed: false },
    select: { userId: true },
  });
  if (members.length !== new Set(userIds).size) throw new TRPCError({ code: 'BAD_REQUEST', message: 'Only active members of this company can take part' });
  return members.map((m) => m.userId);
}

async function createConversation(ctx: ChatContext, type: number, title: string, userIds: string[]) {
  // A clash of two random 15-digit protocols is unlikely, not impossible: try again.
  for (let attempt = 0; ; attempt++) {
    try {
      return await ctx.db.conversation.create({
        data: {
          companyId: ctx.company.id,
          type,
          title,
          protocol: newProtocol(() => randomInt(0, 10)),
          creatorId: ctx.userId,
          participants: { create: [ctx.userId, ...userIds].map((userId) => ({ userId })) },
        },
      });
    } catch (err) {
      if ((err as { code?: string }).code !== 'P2002' || attempt >= 3) throw err;
    }
  }
}

/**
 * A one-to-one chat. An open one with the same person is offered back first (spec: 'continuar'
 * or 'criar outro'); `force` creates another.
 */
export async function startDirect(ctx: ChatContext, otherUserId: string, force = false) {
  if (otherUserId === ctx.userId) throw new TRPCError({ code: 'BAD_REQUEST', message: M.self });
  assertMayWork(ctx);
  await activeMembers(ctx, [otherUserId]);
  if (!force) {
    const existing = await ctx.db.conversation.findFirst({
      where: {
        companyId: ctx.company.id,
        type: CONVERSATION_TYPE.single,
        AND: [{ participants: { some: { userId: ctx.userId, removed: false } } }, { participants: { some: { userId: otherUserId, removed: false } } }],
        participants: { every: { userId: { in: [ctx.userId, otherUserId] } } },
      },
      orderBy: { createdAt: 'desc' },
    });
    if (existing) return { conversationId: existing.id, existing: true };
  }
  const created = await createConversation(ctx, CONVERSATION_TYPE.single, '', [otherUserId]);
  return { conversationId: created.id, existing: false };
}

export async function startTeam(ctx: ChatContext, input: z.output<typeof startTeamInput>) {
  assertMayWork(ctx);
  const others = await activeMembers(ctx, input.userIds.filter((id) => id !== ctx.userId));
  const created = await createConversation(ctx, CONVERSATION_TYPE.teamChat, input.title, others);
  return { conversationId: created.id };
}

/**
 * Sends a message. The conversation row is locked while its next number is taken, so numbers are
 * gapless and in commit order; a retry with the same clientId returns the first message.
 */
export async function sendMessage(ctx: ChatContext, input: z.output<typeof sendInput>): Promise<ChatMessage> {
  assertMayWork(ctx);
  const { conversation } = await participation(ctx, input.conversationId);
  const earlier = await ctx.db.message.findUnique({
    where: { conversationId_authorId_clientId: { conversationId: conversation.id, authorId: ctx.userId, clientId: input.clientId } },
    include: { author: { select: { name: true } } },
  });
  if (earlier) return toMessage(earlier);

  const now = ctx.clock.now();
  let created: Message & { author: { name: string } | null };
  let recipients: string[];
  try {
    [created, recipients] = await ctx.db.$transaction(async (tx) => {
      const [row] = await tx.$queryRaw<{ lastSeq: number }[]>`
        UPDATE "Conversation" SET "lastSeq" = "lastSeq" + 1, "lastMessageAt" = ${now}, "updatedAt" = ${now}
        WHERE "id" = ${conversation.id}::uuid RETURNING "lastSeq"`;
      const participants = await tx.participant.findMany({ where: { conversationId: conversation.id, removed: false }, select: { userId: true } });
      const bytes = estimateMessageBytes({ text: input.text, path: `${ctx.company.domain}/${conversation.id}`, participants: participants.length });
      const message = await tx.message.create({
        data: {
          conversationId: conversation.id,
          seq: row!.lastSeq,
          authorId: ctx.userId,
          clientId: input.clientId,
          text: input.text,
          replyToId: input.replyToId,
          isComment: input.isComment ?? false,
          mentions: input.mentions ?? [],
          bytes,
          createdAt: now,
        },
        include: { author: { select: { name: true } } },
      });
      await tx.conversation.update({ where: { id: conversation.id }, data: { bytesMessages: { increment: bytes } } });
      // The author has received and read what they wrote.
      await tx.participant.update({
        where: { conversationId_userId: { conversationId: conversation.id, userId: ctx.userId } },
        data: { deliveredSeq: message.seq, readSeq: message.seq, draft: null },
      });
      if (input.mentions?.length) {
        await tx.participant.updateMany({ where: { conversationId: conversation.id, userId: { in: input.mentions } }, data: { mentioned: true } });
      }
      return [message, participants.map((p) => p.userId)] as const;
    });
  } catch (err) {
    // Two sends with the same clientId at once: the loser returns the winner's message.
    if ((err as { code?: string }).code === 'P2002') {
      const winner = await ctx.db.message.findUniqueOrThrow({
        where: { conversationId_authorId_clientId: { conversationId: conversation.id, authorId: ctx.userId, clientId: input.clientId } },
        include: { author: { select: { name: true } } },
      });
      return toMessage(winner);
    }
    throw err;
  }
  const message = toMessage(created);
  for (const userId of recipients) ctx.realtime.toUser(userId, 'message:new', message);
  return message;
}

/** A page of messages: after a sequence number (catching up) or before one (scrolling back). */
export async function listMessages(ctx: ChatContext, input: z.output<typeof messagesInput>) {
  await participation(ctx, input.conversationId);
  const seq = input.afterSeq !== undefined ? { gt: input.afterSeq } : input.beforeSeq !== undefined ? { lt: input.beforeSeq } : undefined;
  const newestFirst = input.afterSeq === undefined;
  const rows = await ctx.db.message.findMany({
    where: { conversationId: input.conversationId, ...(seq && { seq }) },
    orderBy: { seq: newestFirst ? 'desc' : 'asc' },
    take: input.limit,
    include: { author: { select: { name: true } } },
  });
  if (newestFirst) rows.reverse();
  return rows.map(toMessage);
}

/**
 * Moves the caller's delivered or read watermark forward (never back), records when, and tells
 * the other participants, whose ticks depend on it.
 */
export async function advanceWatermark(ctx: ChatContext, conversationId: string, kind: 'delivered' | 'read', uptoSeq: number) {
  const { conversation } = await participation(ctx, conversationId);
  const upto = Math.min(uptoSeq, conversation.lastSeq);
  const now = ctx.clock.now();
  const moved = await ctx.db.$transaction(async (tx) => {
    // The WHERE keeps the watermark monotonic under concurrent calls.
    const field = kind === 'read' ? 'readSeq' : 'deliveredSeq';
    const { count } = await tx.participant.updateMany({
      where: { conversationId, userId: ctx.userId, [field]: { lt: upto } },
      data: kind === 'read' ? { readSeq: upto, mentioned: false } : { deliveredSeq: upto },
    });
    if (count === 0) return false;
    // Reading implies receiving.
    if (kind === 'read') {
      await tx.participant.updateMany({ where: { conversationId, userId: ctx.userId, deliveredSeq: { lt: upto } }, data: { deliveredSeq: upto } });
    }
    await tx.receipt.create({ data: { conversationId, userId: ctx.userId, kind, uptoSeq: upto, at: now } });
    return true;
  });
  if (!moved) return { uptoSeq: upto, moved: false };
  const others = await ctx.db.participant.findMany({ where: { conversationId, removed: false, NOT: { userId: ctx.userId } }, select: { userId: true } });
  for (const { userId } of others) ctx.realtime.toUser(userId, 'receipt:update', { conversationId, userId: ctx.userId, kind, uptoSeq: upto });
  return { uptoSeq: upto, moved: true };
}

/** The caller's conversations in this company, most recent first, with unread counts. */
export async function listRecents(ctx: ChatContext) {
  const mine = await ctx.db.participant.findMany({
    where: { userId: ctx.userId, conversation: { companyId: ctx.company.id } },
    include: {
      conversation: {
        include: {
          participants: { include: { user: { select: { id: true, name: true } } } },
          messages: { orderBy: { seq: 'desc' }, take: 1, include: { author: { select: { name: true } } } },
        },
      },
    },
    orderBy: { conversation: { lastMessageAt: { sort: 'desc', nulls: 'last' } } },
  });
  const unread = await ctx.db.$queryRaw<{ conversationId: string; n: bigint }[]>`
    SELECT m."conversationId", count(*) AS n
    FROM "Participant" p
    JOIN "Conversation" c ON c."id" = p."conversationId" AND c."companyId" = ${ctx.company.id}::uuid
    JOIN "Message" m ON m."conversationId" = p."conversationId" AND m.seq > p."readSeq"
    WHERE p."userId" = ${ctx.userId}::uuid AND (m."authorId" IS NULL OR m."authorId" <> ${ctx.userId}::uuid)
    GROUP BY m."conversationId"`;
  const unreadBy = new Map(unread.map((r) => [r.conversationId, Number(r.n)]));
  const items = mine.map(({ conversation: c, ...p }) => {
    const others = c.participants.filter((x) => x.userId !== ctx.userId && !x.removed);
    const last = c.messages[0];
    return {
      conversationId: c.id,
      type: c.type,
      protocol: c.protocol,
      title: c.title || others.map((o) => o.user.name).join(', '),
      lastMessage: last ? toMessage(last) : null,
      lastSeq: c.lastSeq,
      lastMessageAt: c.lastMessageAt,
      unread: unreadBy.get(c.id) ?? 0,
      fixed: p.fixed,
      mentioned: p.mentioned,
      removed: p.removed,
      // Ticks of my own last message: how far the others have received and read.
      others: others.map((o) => ({ userId: o.userId, name: o.user.name, deliveredSeq: o.deliveredSeq, readSeq: o.readSeq })),
    };
  });
  // Fixed conversations stay on top (isFixo); the rest keep their recency order.
  return [...items.filter((i) => i.fixed), ...items.filter((i) => !i.fixed)];
}

/** Everyone still in the conversation, plus `also` (e.g. who was just removed), hears about it. */
async function announceParticipants(ctx: ChatContext, conversationId: string, also: string[] = []) {
  const present = await ctx.db.participant.findMany({ where: { conversationId, removed: false }, select: { userId: true } });
  for (const userId of new Set([...present.map((p) => p.userId), ...also])) ctx.realtime.toUser(userId, 'conversation:updated', { conversationId });
}

/** Adds members ('Novos participantes foram adicionados'); someone removed earlier comes back. */
export async function addParticipants(ctx: ChatContext, conversationId: string, userIds: string[]) {
  assertMayWork(ctx);
  await participation(ctx, conversationId);
  const users = await activeMembers(ctx, userIds);
  await ctx.db.$transaction(
    users.map((userId) =>
      ctx.db.participant.upsert({
        where: { conversationId_userId: { conversationId, userId } },
        create: { conversationId, userId },
        update: { removed: false },
      }),
    ),
  );
  await announceParticipants(ctx, conversationId);
  return { added: users.length };
}

/** Removes someone else ('Deseja remover {name}?' -> 'O participante foi removido!'). */
export async function removeParticipant(ctx: ChatContext, conversationId: string, userId: string) {
  if (userId === ctx.userId) throw new TRPCError({ code: 'BAD_REQUEST', message: M.useLeave });
  await participation(ctx, conversationId);
  const { count } = await ctx.db.participant.updateMany({ where: { conversationId, userId, removed: false }, data: { removed: true } });
  if (count === 0) throw new TRPCError({ code: 'NOT_FOUND', message: M.notAParticipant });
  await announceParticipants(ctx, conversationId, [userId]);
  return { removed: true };
}

/** Leaves ('Deseja sair?' -> 'Você saiu do atendimento'); the responsible person transfers first. */
export async function leaveConversation(ctx: ChatContext, conversationId: string) {
  const { me } = await participation(ctx, conversationId);
  if (me.responsible) throw new TRPCError({ code: 'BAD_REQUEST', message: M.responsibleCannotLeave });
  await ctx.db.participant.update({ where: { id: me.id }, data: { removed: true } });
  await announceParticipants(ctx, conversationId, [ctx.userId]);
  return { left: true };
}
