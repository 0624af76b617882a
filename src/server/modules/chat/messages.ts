/**
 * What people do with messages: send, read back (by seq, and changes by changeSeq), edit, remove,
 * reply, forward, mention, receipts and the per-message details. Every write goes through
 * appendMessage (new messages) or `changeMessage` (edits and removals), so numbering and pushes
 * have one path each.
 */
import { TRPCError } from '@trpc/server';
import type { z } from 'zod';
import { Prisma, type Message } from '../../../generated/prisma/client';
import { estimateMessageBytes, MESSAGE_REMOVAL_CODES } from '../../../shared/domain/messages';
import {
  CHAT_MESSAGES as M,
  withCode,
  type changesInput,
  type editInput,
  type forwardInput,
  type messagesInput,
  type sendInput,
} from '../../../shared/schemas/chat';
import { activeMemberOf, notRefusedBy, assertMayWork, MESSAGE_INCLUDE, participation, seesComments, type Participation, toMessage, visibleMessages, WRITE_TX, type ChatContext } from './context';
import { lockFileKeys, unsharedFileKeys } from './files';
import { appendGrouped } from './group-commit';
import { appendMessage, appendOnItsOwn, emitMessage, type ChatMessage } from './service';

const removalError = (code: string, httpCode: 'NOT_FOUND' | 'FORBIDDEN' | 'BAD_REQUEST' | 'INTERNAL_SERVER_ERROR', cause?: unknown) =>
  new TRPCError({ code: httpCode, message: withCode(M.messageRemoval, code), cause });

/** The message a reply answers: same conversation, visible to the caller, not removed. */
export async function checkReply(ctx: ChatContext, conversationId: string, replyToId: string) {
  const original = await ctx.db.message.findFirst({ where: { id: replyToId, conversationId, ...visibleMessages(ctx) } });
  if (!original) throw new TRPCError({ code: 'BAD_REQUEST', message: M.replyElsewhere });
  if (original.removed) throw new TRPCError({ code: 'BAD_REQUEST', message: M.removedMessage });
  return original;
}

/** Mentions name people still in the conversation; the author mentioning themselves is ignored. */
async function checkMentions(ctx: ChatContext, conversationId: string, mentions: string[] | undefined) {
  const wanted = [...new Set(mentions ?? [])].filter((id) => id !== ctx.userId);
  if (wanted.length === 0) return [];
  const found = await ctx.db.participant.count({ where: { conversationId, userId: { in: wanted }, removed: false } });
  if (found !== wanted.length) throw new TRPCError({ code: 'BAD_REQUEST', message: M.mentionsParticipants });
  return wanted;
}

/**
 * How a send reads the caller's participation and appends. Every send is group-committed
 * (group-commit.ts), over HTTP (chat.send) as over the socket: one write path, one numbering. The
 * socket's chat:send reads the participation with its caller in one batched statement
 * (socket-send.ts); chat.send reads it after the procedure's levels, as every chat procedure does.
 */
export interface SendPath {
  participation: (ctx: ChatContext, conversationId: string, opts: { clientId: string }) => Promise<Participation>;
  append: typeof appendOnItsOwn;
}
const PROCEDURE: SendPath = { participation, append: appendGrouped };

/**
 * Sends a person's message. A retry with the same clientId returns the first message, also when
 * the retries race (the unique (conversation, author, clientId) index decides). A reply to a
 * comment is a comment too, so internal text never reaches customers through a quote.
 */
export async function sendMessage(ctx: ChatContext, input: z.output<typeof sendInput>, path: SendPath = PROCEDURE): Promise<ChatMessage> {
  assertMayWork(ctx);
  // The retry check rides on the participation read: a first send pays no extra round trip.
  const { conversation, earlierMessageId } = await path.participation(ctx, input.conversationId, { clientId: input.clientId });
  const byClientId = { conversationId_authorId_clientId: { conversationId: conversation.id, authorId: ctx.userId, clientId: input.clientId } };
  if (earlierMessageId) return toMessage(await ctx.db.message.findUniqueOrThrow({ where: { id: earlierMessageId }, include: MESSAGE_INCLUDE }));
  if (input.isComment && !seesComments(ctx)) throw new TRPCError({ code: 'FORBIDDEN', message: M.commentsMembersOnly });
  const original = input.replyToId ? await checkReply(ctx, conversation.id, input.replyToId) : null;
  const mentions = await checkMentions(ctx, conversation.id, input.mentions);
  const message = {
    conversationId: conversation.id,
    authorId: ctx.userId,
    clientId: input.clientId,
    text: input.text,
    replyToId: original?.id,
    isComment: !!input.isComment || !!original?.isComment,
    mentions,
  };
  let appended: Awaited<ReturnType<typeof appendMessage>>;
  try {
    appended = message.isComment
      ? await ctx.db.$transaction((tx) => appendMessage(tx, ctx.company.domain, message, ctx.clock.now()), WRITE_TX)
      : await path.append(ctx.db, ctx.company.domain, message, ctx.clock.now());
  } catch (err) {
    // Two sends with the same clientId at once: the loser returns the winner's message.
    if ((err as { code?: string }).code === 'P2002') {
      return toMessage(await ctx.db.message.findUniqueOrThrow({ where: byClientId, include: MESSAGE_INCLUDE }));
    }
    throw err;
  }
  emitMessage(ctx.realtime, appended);
  return appended.message;
}

/** A page of messages: after a sequence number (catching up) or before one (scrolling back). */
export async function listMessages(ctx: ChatContext, input: z.output<typeof messagesInput>) {
  await participation(ctx, input.conversationId);
  const seq = input.afterSeq !== undefined ? { gt: input.afterSeq } : input.beforeSeq !== undefined ? { lt: input.beforeSeq } : undefined;
  const newestFirst = input.afterSeq === undefined;
  const rows = await ctx.db.message.findMany({
    where: { conversationId: input.conversationId, ...(seq && { seq }), ...visibleMessages(ctx) },
    orderBy: { seq: newestFirst ? 'desc' : 'asc' },
    take: input.limit,
    include: MESSAGE_INCLUDE,
  });
  if (newestFirst) rows.reverse();
  return rows.map(toMessage);
}

/**
 * Messages edited or removed after `afterChangeSeq`, in change order: what a client that was away
 * missed about messages it already had. Change numbers are given under the conversation's row lock,
 * so they commit in order and a page is always a complete prefix: `upto` is how far the caller is
 * now up to date (when `complete`, the conversation's latest change number).
 */
export async function listChanges(ctx: ChatContext, input: z.output<typeof changesInput>) {
  const { conversation } = await participation(ctx, input.conversationId);
  const rows = await ctx.db.message.findMany({
    where: { conversationId: input.conversationId, changeSeq: { gt: input.afterChangeSeq }, ...visibleMessages(ctx) },
    orderBy: { changeSeq: 'asc' },
    take: input.limit + 1,
    include: MESSAGE_INCLUDE,
  });
  const complete = rows.length <= input.limit;
  const page = rows.slice(0, input.limit);
  const lastReturned = page.at(-1)?.changeSeq ?? 0;
  const upto = complete ? Math.max(conversation.lastChangeSeq, lastReturned, input.afterChangeSeq) : lastReturned;
  return { messages: page.map(toMessage), upto, complete };
}

/**
 * Applies an edit or a removal under the conversation's row lock: numbers the change, lets `apply`
 * re-check and write, and returns what to push. `apply` throwing rolls everything back (the
 * change number too, so numbers stay gapless).
 */
/** What a change needs of its caller: a person's context, or the server acting for another module. */
type ChangeContext = Pick<ChatContext, 'db' | 'clock' | 'realtime' | 'storage' | 'company'> & { member: ChatContext['member'] | null };

async function changeMessage(
  ctx: ChangeContext,
  conversationId: string,
  messageId: string,
  apply: (tx: Prisma.TransactionClient, message: Message, changeSeq: number) => Promise<Prisma.MessageUpdateInput>,
) {
  const now = ctx.clock.now();
  const updated = await ctx.db.$transaction(
    async (tx) => {
      const [row] = await tx.$queryRaw<{ lastChangeSeq: number }[]>`
        UPDATE "Conversation" SET "lastChangeSeq" = "lastChangeSeq" + 1, "updatedAt" = ${now}
        WHERE "id" = ${conversationId}::uuid AND "companyId" = ${ctx.company.id}::uuid RETURNING "lastChangeSeq"`;
      if (!row) throw new TRPCError({ code: 'NOT_FOUND', message: M.notFound });
      const message = await tx.message.findFirst({ where: { id: messageId, conversationId, ...visibleMessages(ctx) } });
      if (!message) throw new TRPCError({ code: 'NOT_FOUND', message: M.messageNotFound });
      const data = await apply(tx, message, row.lastChangeSeq);
      return tx.message.update({ where: { id: message.id }, data: { ...data, changeSeq: row.lastChangeSeq }, include: MESSAGE_INCLUDE });
    },
    { ...WRITE_TX, timeout: 30_000 },
  );
  const event = toMessage(updated);
  ctx.realtime.toUsers(await audience(ctx, conversationId, updated.isComment), 'message:updated', event);
  return event;
}

/** Who hears about a change: everyone still in the conversation; for comments, members only. */
async function audience(ctx: ChangeContext, conversationId: string, isComment: boolean) {
  const rows = await ctx.db.participant.findMany({
    where: { conversationId, removed: false, user: isComment ? activeMemberOf(ctx.company.id) : notRefusedBy(ctx.company.id) },
    select: { userId: true },
  });
  return rows.map((r) => r.userId);
}

/** Edits a text message: its author only, while it is not removed (editada, editTimestamp). */
export async function editMessage(ctx: ChatContext, input: z.output<typeof editInput>) {
  assertMayWork(ctx);
  await participation(ctx, input.conversationId);
  return changeMessage(ctx, input.conversationId, input.messageId, async (tx, m) => {
    if (m.removed) throw new TRPCError({ code: 'BAD_REQUEST', message: M.removedMessage });
    if (m.type !== 'texto') throw new TRPCError({ code: 'BAD_REQUEST', message: M.notEditable });
    if (m.authorId !== ctx.userId) throw new TRPCError({ code: 'FORBIDDEN', message: M.onlyAuthorEdits });
    const bytes = m.bytes + new TextEncoder().encode(input.text).length - new TextEncoder().encode(m.text).length;
    await tx.conversation.update({ where: { id: m.conversationId }, data: { bytesMessages: { increment: bytes - m.bytes } } });
    return { text: input.text, editedAt: ctx.clock.now(), bytes };
  });
}

/**
 * Removes a message for everyone (removida): its author, or an administrator of the company.
 * Text, extras and file go; the stored object is deleted unless a forward (or the original of a
 * forward) still shows it. Removing a removed message again is not an error.
 */
export async function deleteMessage(ctx: ChatContext, input: { conversationId: string; messageId: string }) {
  try {
    await participation(ctx, input.conversationId);
  } catch (err) {
    throw err instanceof TRPCError && err.code === 'NOT_FOUND' ? removalError(MESSAGE_REMOVAL_CODES.notFound, 'NOT_FOUND') : err;
  }
  const found = await ctx.db.message.findFirst({ where: { id: input.messageId, conversationId: input.conversationId, ...visibleMessages(ctx) }, include: MESSAGE_INCLUDE });
  if (!found) throw removalError(MESSAGE_REMOVAL_CODES.notFound, 'NOT_FOUND');
  if (found.removed) return toMessage(found);
  if (found.type === 'info') throw removalError(MESSAGE_REMOVAL_CODES.infoMessage, 'BAD_REQUEST');
  if (found.authorId !== ctx.userId && !ctx.member.isAdmin) throw removalError(MESSAGE_REMOVAL_CODES.notAllowed, 'FORBIDDEN');
  return removeMessageContent(ctx, input.conversationId, input.messageId);
}

/**
 * The removal itself, once who may remove was checked: one transaction that empties the message
 * and deletes its stored object (and thumbnail) unless a forward still shows it. The chat owns
 * attachments, call recordings included, so this is the one place their objects are deleted.
 */
async function removeMessageContent(ctx: ChangeContext, conversationId: string, messageId: string) {
  try {
    return await changeMessage(ctx, conversationId, messageId, async (tx, m) => {
      if (m.removed) throw new AlreadyRemoved();
      if (m.fileKey) {
        await lockFileKeys(tx, [m.fileKey]);
        const unshared = await unsharedFileKeys(tx, [m.fileKey], { exceptMessage: m.id });
        if (unshared.has(m.fileKey)) {
          for (const key of [m.fileKey, m.thumbKey].filter((k): k is string => !!k)) {
            try {
              await ctx.storage.delete(key);
            } catch (err) {
              throw removalError(MESSAGE_REMOVAL_CODES.storage, 'INTERNAL_SERVER_ERROR', err);
            }
          }
        }
      }
      const participants = await tx.participant.count({ where: { conversationId: m.conversationId, removed: false } });
      const bytes = estimateMessageBytes({ text: '', path: `${ctx.company.domain}/${m.conversationId}`, participants });
      await tx.conversation.update({
        where: { id: m.conversationId },
        data: { bytesMessages: { decrement: Math.max(0, m.bytes - bytes) }, ...(m.fileSize && { bytesAttachments: { decrement: m.fileSize } }) },
      });
      return {
        removed: true,
        type: 'removida',
        text: '',
        data: Prisma.DbNull,
        mentions: [],
        bytes: Math.min(m.bytes, bytes),
        fileKey: null,
        fileName: null,
        fileSize: null,
        fileMime: null,
        thumbKey: null,
        isRecording: false,
        durationMs: null,
      };
    });
  } catch (err) {
    if (err instanceof AlreadyRemoved) {
      return toMessage(await ctx.db.message.findUniqueOrThrow({ where: { id: messageId }, include: MESSAGE_INCLUDE }));
    }
    throw err;
  }
}

class AlreadyRemoved extends Error {}

/**
 * The server removes a message on behalf of another module that already decided who may (calls:
 * removing a recording). Same path as a person's removal: object deleted, change pushed.
 */
export async function removeMessageAsServer(
  deps: Pick<ChatContext, 'db' | 'clock' | 'realtime' | 'storage'>,
  company: ChatContext['company'],
  input: { conversationId: string; messageId: string },
) {
  return removeMessageContent({ ...deps, company, member: null }, input.conversationId, input.messageId);
}

/**
 * Forwards a message to conversations the caller takes part in (encaminhada). Files are shared by
 * key, never copied; the key's lock makes a concurrent removal of the original either finish first
 * (and the forward is refused) or see the forward (and keep the object). All targets or none.
 */
export async function forwardMessage(ctx: ChatContext, input: z.output<typeof forwardInput>) {
  assertMayWork(ctx);
  await participation(ctx, input.conversationId);
  const source = await ctx.db.message.findFirst({ where: { id: input.messageId, conversationId: input.conversationId, ...visibleMessages(ctx) } });
  if (!source) throw new TRPCError({ code: 'NOT_FOUND', message: M.messageNotFound });
  if (source.removed || !['texto', 'arquivo', 'imagem'].includes(source.type)) throw new TRPCError({ code: 'BAD_REQUEST', message: M.notForwardable });
  const targets = [...new Set(input.toConversationIds)].sort();
  const allowed = await ctx.db.participant.count({
    where: { userId: ctx.userId, removed: false, conversationId: { in: targets }, conversation: { companyId: ctx.company.id } },
  });
  if (allowed !== targets.length) throw new TRPCError({ code: 'FORBIDDEN', message: M.forwardTargets });
  const now = ctx.clock.now();
  const results = await ctx.db.$transaction(
    async (tx) => {
      // Conversations first, then the object's key: the same order removals use.
      await tx.$queryRaw`SELECT "id" FROM "Conversation" WHERE "id" = ANY(${targets}::uuid[]) ORDER BY "id" FOR UPDATE`;
      if (source.fileKey) await lockFileKeys(tx, [source.fileKey]);
      const current = await tx.message.findUnique({ where: { id: source.id } });
      if (!current || current.removed) throw new TRPCError({ code: 'BAD_REQUEST', message: M.removedMessage });
      const out: { message: ChatMessage; recipients: string[]; fresh: boolean }[] = [];
      for (const conversationId of targets) {
        const earlier = await tx.message.findUnique({
          where: { conversationId_authorId_clientId: { conversationId, authorId: ctx.userId, clientId: input.clientId } },
          include: MESSAGE_INCLUDE,
        });
        if (earlier) {
          out.push({ message: toMessage(earlier), recipients: [], fresh: false });
          continue;
        }
        const appended = await appendMessage(
          tx,
          ctx.company.domain,
          {
            conversationId,
            authorId: ctx.userId,
            clientId: input.clientId,
            type: current.type as 'texto' | 'arquivo' | 'imagem',
            text: current.text,
            forwarded: true,
            isComment: current.isComment,
            file: current.fileKey
              ? {
                  key: current.fileKey,
                  name: current.fileName ?? 'file',
                  size: Number(current.fileSize ?? 0),
                  mime: current.fileMime ?? undefined,
                  thumbKey: current.thumbKey ?? undefined,
                  isRecording: current.isRecording,
                  durationMs: current.durationMs ?? undefined,
                }
              : undefined,
          },
          now,
        );
        out.push({ ...appended, fresh: true });
      }
      return out;
    },
    { ...WRITE_TX, timeout: 30_000 },
  );
  for (const r of results) if (r.fresh) emitMessage(ctx.realtime, r);
  return results.map((r) => r.message);
}

/**
 * Moves the caller's delivered or read watermark forward (never back), records when, and tells
 * everyone in the conversation: the others' ticks depend on it, and the caller's other tabs
 * clear their unread count.
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
      data: kind === 'read' ? { readSeq: upto } : { deliveredSeq: upto },
    });
    if (count === 0) return false;
    // Reading implies receiving.
    if (kind === 'read') {
      await tx.participant.updateMany({ where: { conversationId, userId: ctx.userId, deliveredSeq: { lt: upto } }, data: { deliveredSeq: upto } });
    }
    await tx.receipt.create({ data: { conversationId, userId: ctx.userId, kind, uptoSeq: upto, at: now } });
    return true;
  }, WRITE_TX);
  if (!moved) return { uptoSeq: upto, moved: false };
  const everyone = await ctx.db.participant.findMany({ where: { conversationId, removed: false }, select: { userId: true } });
  ctx.realtime.toUsers(
    everyone.map((p) => p.userId),
    'receipt:update',
    { conversationId, userId: ctx.userId, kind, uptoSeq: upto },
  );
  return { uptoSeq: upto, moved: true };
}

/**
 * Who received and read one message, and when (/i/recent/{id}/messageDetails/{idMessage}): the
 * first receipt of each person whose watermark reached the message. Reading implies receiving,
 * so a read without an earlier delivery receipt counts as both.
 */
export async function messageDetails(ctx: ChatContext, input: { conversationId: string; messageId: string }) {
  await participation(ctx, input.conversationId);
  const message = await ctx.db.message.findFirst({ where: { id: input.messageId, conversationId: input.conversationId, ...visibleMessages(ctx) }, include: MESSAGE_INCLUDE });
  if (!message) throw new TRPCError({ code: 'NOT_FOUND', message: M.messageNotFound });
  const [people, firsts] = await Promise.all([
    ctx.db.participant.findMany({
      where: { conversationId: input.conversationId, ...(message.authorId && { NOT: { userId: message.authorId } }) },
      include: { user: { select: { name: true, avatarKey: true } } },
      orderBy: [{ joinedAt: 'asc' }, { id: 'asc' }],
    }),
    ctx.db.$queryRaw<{ userId: string; kind: string; at: Date }[]>`
      SELECT DISTINCT ON ("userId", "kind") "userId", "kind", "at" FROM "Receipt"
      WHERE "conversationId" = ${input.conversationId}::uuid AND "uptoSeq" >= ${message.seq}
      ORDER BY "userId", "kind", "at" ASC`,
  ]);
  const at = new Map(firsts.map((r) => [`${r.userId}:${r.kind}`, r.at]));
  return {
    message: toMessage(message),
    participants: people.map((p) => {
      const readAt = at.get(`${p.userId}:read`) ?? null;
      const delivered = at.get(`${p.userId}:delivered`) ?? null;
      const deliveredAt = delivered && readAt ? (delivered < readAt ? delivered : readAt) : (delivered ?? readAt);
      return { userId: p.userId, name: p.user.name, hasAvatar: !!p.user.avatarKey, removed: p.removed, deliveredAt, readAt };
    }),
  };
}

/**
 * A relay (WhatsApp, Telegram) reports that a channel customer received or read up to a message:
 * their watermark moves as their own markDelivered / markRead would move it, so the attendants'
 * ticks and the message details work for channel customers too.
 */
export async function advanceWatermarkAsServer(
  deps: Pick<ChatContext, 'db' | 'clock' | 'realtime'>,
  input: { conversationId: string; userId: string; kind: 'delivered' | 'read'; uptoSeq: number },
) {
  const { conversationId, userId, kind, uptoSeq: upto } = input;
  const now = deps.clock.now();
  const moved = await deps.db.$transaction(async (tx) => {
    const field = kind === 'read' ? 'readSeq' : 'deliveredSeq';
    const { count } = await tx.participant.updateMany({
      where: { conversationId, userId, [field]: { lt: upto } },
      data: kind === 'read' ? { readSeq: upto } : { deliveredSeq: upto },
    });
    if (count === 0) return false;
    if (kind === 'read') await tx.participant.updateMany({ where: { conversationId, userId, deliveredSeq: { lt: upto } }, data: { deliveredSeq: upto } });
    await tx.receipt.create({ data: { conversationId, userId, kind, uptoSeq: upto, at: now } });
    return true;
  }, WRITE_TX);
  if (!moved) return false;
  const everyone = await deps.db.participant.findMany({ where: { conversationId, removed: false }, select: { userId: true } });
  deps.realtime.toUsers(
    everyone.map((p) => p.userId),
    'receipt:update',
    { conversationId, userId, kind, uptoSeq: upto },
  );
  return true;
}

/**
 * A relayed message could not be delivered after every retry: the message says so, with the
 * provider's reason (data.relayFailed), as a change every tab receives.
 */
export async function markRelayFailedAsServer(
  deps: Pick<ChatContext, 'db' | 'clock' | 'realtime' | 'storage'>,
  company: ChatContext['company'],
  input: { conversationId: string; messageId: string; channel: string; reason: string },
) {
  return changeMessage({ ...deps, company, member: null }, input.conversationId, input.messageId, async (_tx, m) => ({
    data: { ...((m.data as Record<string, unknown> | null) ?? {}), relayFailed: { channel: input.channel, reason: input.reason } },
  }));
}
