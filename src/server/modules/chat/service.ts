/**
 * The chat's service: conversations, the one path every message takes (appendMessage /
 * emitMessage / postInfoMessage), participants, drafts and pins. Other modules use only what
 * this file exports; messages.ts, recents.ts, files.ts, presence.ts and notes.ts hold the rest
 * of the chat's rules for its own router.
 */
import { randomInt, randomUUID } from 'node:crypto';
import { TRPCError } from '@trpc/server';
import type { z } from 'zod';
import type { Message } from '../../../generated/prisma/client';
import type { ChatMessageEvent } from '../../../shared/chat-events';
import { CONVERSATION_STATE, CONVERSATION_TYPE } from '../../../shared/constants';
import { isServiceRequest } from '../../../shared/domain/conversations';
import { groupTitle } from '../../../shared/domain/conversations';
import { infoText, type InfoMessage } from '../../../shared/domain/info-messages';
import { CONVERSATION_REMOVAL_CODES, estimateMessageBytes } from '../../../shared/domain/messages';
import { newProtocol } from '../../../shared/domain/protocol';
import { CHAT_MESSAGES as M, withCode, type contactsInput, type startTeamInput } from '../../../shared/schemas/chat';
import type { Clock } from '../../clock';
import { hotQuery, Prisma, type Db } from '../../db/client';
import { unprefix } from '../../db/columns';
import { asOrmUniqueViolation } from '../../db/raw-errors';
import type { Realtime } from '../../realtime';
import {
  activeMemberOf,
  activeMembers,
  assertMayWork,
  participation,
  seesComments,
  toMessage,
  userNames,
  WRITE_TX,
  type ChatContext,
} from './context';
import { lockFileKeys, unsharedFileKeys } from './files';
import { enqueueRelays } from '../channels/outbox';

export type { ChatContext } from './context';
export { toMessage } from './context';
export { chargeConversationFile, checkConversationFile, companyStorageUsage, refundConversationFile, storeRelayedFile, UploadRefused } from './files';
export { advanceWatermarkAsServer, markRelayFailedAsServer, removeMessageAsServer } from './messages';
export type ChatMessage = ChatMessageEvent;

// ---- conversations ------------------------------------------------------------------------------

type Creator = Pick<ChatContext, 'db' | 'clock' | 'userId'> & { company: Pick<ChatContext['company'], 'id'> };

async function createConversation(ctx: Creator, type: number, title: string, userIds: string[]) {
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
          createdAt: ctx.clock.now(),
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
  announce(ctx.realtime, [ctx.userId, otherUserId], created.id);
  return { conversationId: created.id, existing: false };
}

export async function startTeam(ctx: ChatContext, input: z.output<typeof startTeamInput>) {
  assertMayWork(ctx);
  const others = await activeMembers(ctx, input.userIds.filter((id) => id !== ctx.userId));
  const created = await createConversation(ctx, CONVERSATION_TYPE.teamChat, input.title, others);
  announce(ctx.realtime, [ctx.userId, ...others], created.id);
  return { conversationId: created.id };
}

/**
 * A live room (type 4) with its presenter in it (calls.createLive). The chat owns conversations;
 * the calls module asks for the room here and runs the call on it.
 */
export async function createLiveConversation(
  deps: Pick<ChatContext, 'db' | 'clock' | 'realtime'>,
  actor: { companyId: string; userId: string },
  title: string,
) {
  const created = await createConversation({ ...deps, userId: actor.userId, company: { id: actor.companyId } }, CONVERSATION_TYPE.live, title, []);
  announce(deps.realtime, [actor.userId], created.id);
  return { conversationId: created.id };
}

/**
 * A meeting's group conversation (spec: a calendar event's ateId), written in the caller's
 * transaction so the calendar creates event and conversation together or neither. No retry on a
 * protocol clash here: inside a transaction a failed INSERT aborts it, and the event's creation
 * fails with it (one in 10^15).
 */
export async function insertMeetingConversation(
  tx: Prisma.TransactionClient,
  actor: { companyId: string; userId: string },
  title: string,
  userIds: string[],
  now: Date,
) {
  return tx.conversation.create({
    data: {
      companyId: actor.companyId,
      type: CONVERSATION_TYPE.teamChat,
      title: title.slice(0, 120),
      protocol: newProtocol(() => randomInt(0, 10)),
      creatorId: actor.userId,
      createdAt: now,
      participants: { create: [...new Set([actor.userId, ...userIds])].map((userId) => ({ userId, joinedAt: now })) },
    },
    select: { id: true },
  });
}

/** Brings a meeting's conversation in line with its participants (inside the caller's transaction). */
export async function syncMeetingParticipants(tx: Prisma.TransactionClient, conversationId: string, userIds: string[], now: Date) {
  // Those taken off the meeting keep what was said until now, as when removed from a group.
  const { lastSeq } = await tx.conversation.findUniqueOrThrow({ where: { id: conversationId }, select: { lastSeq: true } });
  await tx.participant.updateMany({ where: { conversationId, userId: { notIn: userIds }, removed: false }, data: { removed: true, removedAtSeq: lastSeq } });
  for (const userId of userIds) {
    await tx.participant.upsert({
      where: { conversationId_userId: { conversationId, userId } },
      create: { conversationId, userId, joinedAt: now },
      update: { removed: false, removedAtSeq: null },
    });
  }
}

/** Someone who takes himself out of a meeting leaves its chat, keeping what was said until now. */
export async function leaveMeetingConversation(tx: Prisma.TransactionClient, conversationId: string, userId: string) {
  const { lastSeq } = await tx.conversation.findUniqueOrThrow({ where: { id: conversationId }, select: { lastSeq: true } });
  await tx.participant.updateMany({ where: { conversationId, userId, removed: false }, data: { removed: true, removedAtSeq: lastSeq } });
}

/** A deleted meeting's chat is concluded like a finished conversation (history kept, no longer open). */
export async function concludeMeetingConversation(tx: Prisma.TransactionClient, conversationId: string, now: Date) {
  await tx.conversation.updateMany({ where: { id: conversationId, state: { not: CONVERSATION_STATE.concluded } }, data: { state: CONVERSATION_STATE.concluded, concludedAt: now } });
}

export const announceConversation = (realtime: Realtime, userIds: Iterable<string>, conversationId: string) =>
  realtime.toUsers(userIds, 'conversation:updated', { conversationId });

const announce = (realtime: Realtime, userIds: Iterable<string>, conversationId: string) =>
  realtime.toUsers(userIds, 'conversation:updated', { conversationId });

/** The title people see: the conversation's own, else the other participants' names (spec 9). */
export function conversationTitle(c: { type: number; title: string }, otherNames: string[]): string {
  if (c.title) return c.title;
  if (c.type === CONVERSATION_TYPE.single || otherNames.length === 1) return otherNames[0] ?? '';
  return groupTitle(otherNames);
}

/** What the chat screen opens with: the conversation, its people, my draft and watermarks. */
export async function getConversation(ctx: ChatContext, conversationId: string) {
  const { conversation: c, me } = await participation(ctx, conversationId);
  const [people, taskCount] = await Promise.all([
    ctx.db.participant.findMany({
      where: { conversationId },
      include: { user: { select: { name: true, avatarKey: true, memberships: { where: { companyId: ctx.company.id }, select: { inviteAccepted: true, blocked: true, removed: true } } } } },
    }),
    ctx.db.conversation.count({ where: { parentId: conversationId } }),
  ]);
  // Who came first first; people added together: the creator, then by name.
  people.sort(
    (x, y) =>
      x.joinedAt.getTime() - y.joinedAt.getTime() ||
      Number(y.userId === c.creatorId) - Number(x.userId === c.creatorId) ||
      x.user.name.localeCompare(y.user.name),
  );
  const participants = people.map((p) => {
    const m = p.user.memberships[0];
    return {
      userId: p.userId,
      name: p.user.name,
      hasAvatar: !!p.user.avatarKey,
      /** A member of the company (attendant) rather than a customer or visitor. */
      member: !!m && m.inviteAccepted && !m.blocked && !m.removed,
      responsible: p.responsible,
      removed: p.removed,
      deliveredSeq: p.deliveredSeq,
      readSeq: p.readSeq,
    };
  });
  const others = participants.filter((p) => p.userId !== ctx.userId && !p.removed);
  return {
    conversationId: c.id,
    type: c.type,
    /** A customer's request (its service panel, protocol and states), not a chat between colleagues. */
    isService: isServiceRequest(c),
    state: c.state,
    title: conversationTitle(c, others.map((o) => o.name)),
    customTitle: c.title,
    protocol: c.protocol,
    creatorId: c.creatorId,
    parentId: c.parentId,
    createdAt: c.createdAt,
    lastSeq: c.lastSeq,
    lastChangeSeq: c.lastChangeSeq,
    lastMessageAt: c.lastMessageAt,
    taskCount,
    /** The delete action is offered to whom the server would let delete (creator or admin). */
    canDelete: c.creatorId === ctx.userId || ctx.member.isAdmin,
    seesComments: seesComments(ctx),
    me: {
      deliveredSeq: me.deliveredSeq,
      readSeq: me.readSeq,
      mentioned: me.mentionSeq > me.readSeq,
      fixed: me.fixed,
      responsible: me.responsible,
      draft: me.draft ?? '',
    },
    participants,
  };
}

/**
 * The colleagues a member can start a chat with or add to one: accepted members of this company
 * who are neither blocked nor removed, me left out, by name. Names only (no e-mail): the full
 * member list with contact data stays an administrator's screen.
 */
export async function listContacts(ctx: ChatContext, input: z.infer<typeof contactsInput>) {
  const matching = input.q ? await membersNamed(ctx, input.q) : null;
  const where: Prisma.MemberWhereInput = {
    companyId: ctx.company.id,
    inviteAccepted: true,
    blocked: false,
    removed: false,
    userId: { not: ctx.userId, ...(matching && { in: matching }) },
  };
  const rows = await ctx.db.member.findMany({
    where,
    orderBy: [{ user: { name: 'asc' } }, { id: 'asc' }],
    take: input.limit + 1,
    ...(input.cursor && { cursor: { id: input.cursor }, skip: 1 }),
    select: { id: true, userId: true, user: { select: { name: true, avatarKey: true } } },
  });
  const page = rows.slice(0, input.limit);
  return {
    items: page.map((m) => ({ userId: m.userId, name: m.user.name, hasAvatar: m.user.avatarKey !== null })),
    nextCursor: rows.length > input.limit ? page[page.length - 1]!.id : null,
  };
}

/**
 * The users of this company's members whose name contains `q`, ignoring case and accents ("joao"
 * finds "João"; migration unaccent_contact_search). Prisma's `contains` cannot call unaccent.
 */
async function membersNamed(ctx: ChatContext, q: string): Promise<string[]> {
  const pattern = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rows = await ctx.db.$queryRaw<{ userId: string }[]>`
    SELECT m."userId" FROM "Member" m JOIN "User" u ON u.id = m."userId"
    WHERE m."companyId" = ${ctx.company.id}::uuid AND unaccent(u.name) ILIKE unaccent(${pattern})`;
  return rows.map((r) => r.userId);
}

/** Pins a conversation on top of my recents (isFixo) or unpins it; my other tabs follow. */
export async function setFixed(ctx: ChatContext, conversationId: string, fixed: boolean) {
  const { me } = await participation(ctx, conversationId);
  await ctx.db.participant.update({ where: { id: me.id }, data: { fixed } });
  ctx.realtime.toUser(ctx.userId, 'conversation:updated', { conversationId });
  return { fixed };
}

/** Keeps what I was writing (rascunho); an empty draft is deleted (spec 5). */
export async function saveDraft(ctx: ChatContext, conversationId: string, text: string) {
  const { me } = await participation(ctx, conversationId);
  const draft = text.trim() ? text : null;
  await ctx.db.participant.update({ where: { id: me.id }, data: { draft } });
  return { draft: draft ?? '' };
}

/**
 * Deletes a conversation (spec 5): the caller typed REMOVER (checked by the input schema), is its
 * creator or an administrator of the company, and no task is linked to it. Its stored files go
 * too, except those a forward in another conversation still shows. Everyone in it is told.
 */
export async function deleteConversation(ctx: ChatContext, conversationId: string) {
  const found = await ctx.db.conversation.findFirst({ where: { id: conversationId, companyId: ctx.company.id } });
  if (!found) throw new TRPCError({ code: 'NOT_FOUND', message: M.conversationMissing });
  const mine = await ctx.db.participant.findUnique({ where: { conversationId_userId: { conversationId, userId: ctx.userId } } });
  const isCreator = found.creatorId === ctx.userId && !!mine;
  if (!isCreator && !ctx.member.isAdmin) throw new TRPCError({ code: 'FORBIDDEN', message: M.onlyCreatorOrAdminDeletes });
  let told: string[] = [];
  try {
    await ctx.db.$transaction(
      async (tx) => {
        // The row lock orders this against sends, edits and forwards into the conversation.
        const locked = await tx.$queryRaw<{ id: string }[]>`
          SELECT "id" FROM "Conversation" WHERE "id" = ${conversationId}::uuid AND "companyId" = ${ctx.company.id}::uuid FOR UPDATE`;
        if (locked.length === 0) throw new TRPCError({ code: 'NOT_FOUND', message: M.conversationMissing });
        if ((await tx.conversation.count({ where: { parentId: conversationId } })) > 0) {
          throw new TRPCError({ code: 'BAD_REQUEST', message: M.conversationHasTasks });
        }
        told = (await tx.participant.findMany({ where: { conversationId }, select: { userId: true } })).map((p) => p.userId);
        const rows = await tx.message.findMany({ where: { conversationId, fileKey: { not: null } }, select: { fileKey: true, thumbKey: true } });
        const keys = [...new Set(rows.map((r) => r.fileKey!))];
        await lockFileKeys(tx, keys);
        const unshared = await unsharedFileKeys(tx, keys, { notInConversation: conversationId });
        const objects = rows.filter((r) => unshared.has(r.fileKey!)).flatMap((r) => [r.fileKey!, ...(r.thumbKey ? [r.thumbKey] : [])]);
        // Objects first: if the store fails, the conversation stays and the person can try again
        // (deleting an object that is already gone is not an error).
        for (const key of new Set(objects)) {
          try {
            await ctx.storage.delete(key);
          } catch (err) {
            throw new TRPCError({ code: 'INTERNAL_SERVER_ERROR', message: withCode(M.conversationStorage, CONVERSATION_REMOVAL_CODES.storage), cause: err });
          }
        }
        await tx.conversation.delete({ where: { id: conversationId } });
      },
      { ...WRITE_TX, timeout: 60_000 },
    );
  } catch (err) {
    if (err instanceof TRPCError) throw err;
    // A task linked at the same moment: the foreign key refused the delete.
    if ((err as { code?: string }).code === 'P2003') throw new TRPCError({ code: 'BAD_REQUEST', message: M.conversationHasTasks });
    throw new TRPCError({ code: 'INTERNAL_SERVER_ERROR', message: M.conversationProblem, cause: err });
  }
  ctx.realtime.toUsers(told, 'conversation:removed', { conversationId });
  return { removed: true };
}

// ---- messages: the single path ------------------------------------------------------------------

/** A message to write: by a person (authorId) or by the server (null, e.g. info messages). */
export interface NewMessage {
  conversationId: string;
  /** Chosen by the caller when the id is needed before the row exists (a file's storage key). */
  id?: string;
  authorId: string | null;
  clientId?: string;
  type?: 'texto' | 'info' | 'arquivo' | 'imagem' | 'removida' | 'propostaSLA' | 'formulario' | 'orcamento';
  text: string;
  replyToId?: string;
  forwarded?: boolean;
  isComment?: boolean;
  mentions?: string[];
  file?: { key: string; name: string; size: number; mime?: string; thumbKey?: string; isRecording?: boolean; durationMs?: number; callId?: string };
  data?: Prisma.InputJsonValue;
}

/**
 * Writes a message inside the caller's transaction: takes the conversation's next number under
 * its row lock (gapless, in commit order), counts its bytes, and moves the author's own
 * watermarks. Returns the message and who must hear about it (comments: company members only);
 * call `emitMessage` after commit. Every module that posts into a conversation (chat, service,
 * calls) goes through here.
 */
export async function appendMessage(tx: Prisma.TransactionClient, domain: string, input: NewMessage, now: Date, opts: { standalone?: boolean } = {}) {
  // One round trip: chat_append_message (migration 20261128130000) takes the number under the
  // conversation's row lock, reads the participants after it, counts the bytes (the spec's size
  // grows by 2 per participant, so the base is computed here with none), moves the author's
  // watermarks, inserts the row and marks the mentions; the join adds the author's name and the
  // quote (what the ORM's create with MESSAGE_INCLUDE did). The id is made here as the ORM made it.
  const baseBytes = estimateMessageBytes({ text: input.text, path: `${domain}/${input.conversationId}`, participants: 0 });
  const f = input.file;
  const rows = await hotQuery(tx, Prisma.sql`
    SELECT (f.out_message).*, f.out_company AS "f_companyId", f.out_participants AS "f_participants", ${APPENDED_JOIN}
    FROM chat_append_message(${input.conversationId}::uuid, ${input.id ?? randomUUID()}::uuid, ${input.authorId ?? null}::uuid, ${input.clientId ?? null}::text,
      ${input.type ?? (f ? 'arquivo' : 'texto')}::text, ${input.text}::text, ${input.replyToId ?? null}::uuid, ${input.forwarded ?? false}::boolean,
      ${input.isComment ?? false}::boolean, ${input.mentions ?? []}::uuid[], ${baseBytes}::integer, ${f?.key ?? null}::text, ${f?.name ?? null}::text,
      ${f ? String(f.size) : null}::bigint, ${f?.mime ?? null}::text, ${f?.thumbKey ?? null}::text, ${f?.isRecording ?? false}::boolean,
      ${f?.durationMs ?? null}::integer, ${f?.callId ?? null}::uuid, ${input.data === undefined ? null : JSON.stringify(input.data)}::jsonb,
      ${now}::timestamp(3), ${!!opts.standalone}::boolean) f
    ${APPENDED_JOINS}`).catch((err: unknown) => {
    if (needsTransaction(err)) throw new RelaysNeedTransaction();
    throw asOrmUniqueViolation(err); // a retry with the same clientId: callers expect P2002
  });
  const inserted = rows[0];
  if (!inserted || inserted.id == null) throw new TRPCError({ code: 'NOT_FOUND', message: M.notFound });
  const { companyId, participants, created } = appendedRow(inserted);
  // Channel customers (WhatsApp, Telegram, e-mail) get it through the channels outbox, in this
  // transaction (a standalone call never gets here with any: the function refused it).
  const relayed = participants.filter((p) => (p.whatsapp || p.telegram || p.email) && p.userId !== input.authorId);
  if (relayed.length && !input.isComment) await enqueueRelays(tx, companyId, created, relayed);
  let recipients = participants.filter((p) => !p.refused).map((p) => p.userId);
  if (input.isComment) {
    // Comments are internal: customers and visitors in the conversation never receive them.
    const members = await tx.user.findMany({ where: { id: { in: recipients }, ...activeMemberOf(companyId) }, select: { id: true } });
    recipients = members.map((u) => u.id);
  }
  return { message: toMessage(created), recipients };
}

/** The joined columns every append query selects (see appendMessage), for `appendedRow`. */
export const APPENDED_JOIN = Prisma.sql`au."name" AS "authorName",
      r."id" AS "r_id", r."seq" AS "r_seq", r."authorId" AS "r_authorId", r."type" AS "r_type", r."text" AS "r_text",
      r."fileName" AS "r_fileName", r."removed" AS "r_removed", r."authorName" AS "r_authorName"`;

/**
 * Joined to an append function `f` for APPENDED_JOIN's columns. Each a LATERAL subquery with LIMIT
 * (which the planner cannot fold into a plain join), so each row is looked up by its primary key
 * whatever the statistics say: the prepared group commit keeps the plan it made first, when the
 * tables may have looked empty, and plain joins were then planned as hashes of whole tables,
 * "Message" included (issue 22, docs/performance.md section 26).
 */
export const APPENDED_JOINS = Prisma.sql`LEFT JOIN LATERAL (SELECT u."name" FROM "User" u WHERE u."id" = (f.out_message)."authorId" LIMIT 1) au ON true
    LEFT JOIN LATERAL (SELECT m."id", m."seq", m."authorId", m."type", m."text", m."fileName", m."removed", u."name" AS "authorName"
      FROM "Message" m LEFT JOIN "User" u ON u."id" = m."authorId" WHERE m."id" = (f.out_message)."replyToId" LIMIT 1) r ON true`;

/** A row of an append function (the message's columns, f_companyId, f_participants and APPENDED_JOIN) as the message and its audience. */
export function appendedRow(inserted: Record<string, unknown>) {
  const companyId = inserted.f_companyId as string;
  const rawParticipants = inserted.f_participants;
  const participants = (typeof rawParticipants === 'string' ? JSON.parse(rawParticipants) : rawParticipants) as {
    userId: string;
    refused: boolean;
    whatsapp: boolean;
    telegram: boolean;
    email: boolean;
  }[];
  const created = {
    ...unprefix<Message>(inserted, Prisma.MessageScalarFieldEnum, '')!,
    author: inserted.authorId ? { name: inserted.authorName as string } : null,
    replyTo: inserted.r_id
      ? {
          id: inserted.r_id as string,
          seq: inserted.r_seq as number,
          authorId: inserted.r_authorId as string | null,
          type: inserted.r_type as string,
          text: inserted.r_text as string,
          fileName: inserted.r_fileName as string | null,
          removed: inserted.r_removed as boolean,
          author: inserted.r_authorId ? { name: inserted.r_authorName as string } : null,
        }
      : null,
  };
  return { companyId, participants: participants ?? [], created };
}

/** A standalone append refused because channel relays must be queued in the same transaction. */
export class RelaysNeedTransaction extends Error {}

/**
 * Appends a message that is not part of a larger write: one statement that is its own transaction
 * (no BEGIN/COMMIT round trips, no interactive transaction held open), or, where channel customers
 * need their relay queued with it (the function refuses those, writing nothing), a short
 * transaction. Comments need the transaction's other reads: callers append those in one.
 */
export function appendOnItsOwn(db: Db, domain: string, input: NewMessage, now: Date) {
  return appendMessage(db, domain, input, now, { standalone: true }).catch((err: unknown) => {
    if (err instanceof RelaysNeedTransaction) return appendInTransaction(db, domain, input, now);
    throw err;
  });
}

/** Appends a message in a short transaction of its own (what a send with channel relays needs). */
export function appendInTransaction(db: Db, domain: string, input: NewMessage, now: Date) {
  return db.$transaction((tx) => appendMessage(tx, domain, input, now), WRITE_TX);
}

export type Appended = Awaited<ReturnType<typeof appendMessage>>;

function needsTransaction(err: unknown): boolean {
  const e = err as { meta?: { driverAdapterError?: { cause?: { originalCode?: string; code?: string } } }; message?: string };
  const cause = e?.meta?.driverAdapterError?.cause;
  return (err as { code?: unknown })?.code === 'AT001' || cause?.originalCode === 'AT001' || cause?.code === 'AT001' || String(e?.message ?? '').includes('chat_append_message: channel relays');
}

/** After the transaction that appended the message has committed: every participant's tabs. */
export function emitMessage(realtime: Realtime, { message, recipients }: { message: ChatMessage; recipients: string[] }) {
  realtime.toUsers(recipients, 'message:new', message);
}

/** Posts a server info message in its own transaction and pushes it. */
export async function postInfoMessage(
  deps: { db: Db; realtime: Realtime; clock: Clock },
  conversation: { id: string; domain: string },
  info: InfoMessage,
): Promise<ChatMessage> {
  const appended = await deps.db.$transaction((tx) =>
    appendMessage(tx, conversation.domain, { conversationId: conversation.id, authorId: null, type: 'info', text: infoText(info), data: info }, deps.clock.now()),
    WRITE_TX,
  );
  emitMessage(deps.realtime, appended);
  return appended.message;
}

/** Is this person in the conversation (and not removed)? Calls and others ask here. */
export async function isActiveParticipant(db: Db, conversationId: string, userId: string): Promise<boolean> {
  const p = await db.participant.findUnique({ where: { conversationId_userId: { conversationId, userId } }, select: { removed: true } });
  return !!p && !p.removed;
}

/**
 * A conversation of the company with the people in it and how each is reached (relay flags), for
 * a call to be started on it; null when the company has no such conversation.
 */
export async function conversationForCall(db: Db, companyId: string, conversationId: string) {
  const c = await db.conversation.findFirst({
    where: { id: conversationId, companyId },
    select: {
      id: true,
      type: true,
      title: true,
      participants: { where: { removed: false }, select: { userId: true, whatsapp: true, telegram: true, user: { select: { name: true } } } },
    },
  });
  if (!c) return null;
  return { id: c.id, type: c.type, title: c.title, participants: c.participants.map((p) => ({ userId: p.userId, name: p.user.name, whatsapp: p.whatsapp, telegram: p.telegram })) };
}

/**
 * Of `messageIds`, those still showing their file (not removed). Other modules that keep rows
 * about a chat attachment (calls: its recordings) read the attachment's life from here.
 */
export async function messagesWithFile(db: Db, messageIds: string[]): Promise<Set<string>> {
  if (messageIds.length === 0) return new Set();
  const rows = await db.message.findMany({ where: { id: { in: messageIds }, removed: false, fileKey: { not: null } }, select: { id: true } });
  return new Set(rows.map((r) => r.id));
}

// ---- participants -------------------------------------------------------------------------------

/** Everyone still in the conversation, plus `also` (e.g. who was just removed), hears about it. */
async function announceParticipants(ctx: ChatContext, conversationId: string, also: string[] = []) {
  const present = await ctx.db.participant.findMany({ where: { conversationId, removed: false }, select: { userId: true } });
  announce(ctx.realtime, new Set([...present.map((p) => p.userId), ...also]), conversationId);
}

/** Adds members ('Novos participantes foram adicionados'); someone removed earlier comes back. */
export async function addParticipants(ctx: ChatContext, conversationId: string, userIds: string[]) {
  assertMayWork(ctx);
  await participation(ctx, conversationId);
  const users = await activeMembers(ctx, userIds);
  const names = await userNames(ctx, users);
  const appended = await ctx.db.$transaction(async (tx) => {
    for (const userId of users) {
      await tx.participant.upsert({
        where: { conversationId_userId: { conversationId, userId } },
        create: { conversationId, userId, joinedAt: ctx.clock.now() },
        update: { removed: false, removedAtSeq: null },
      });
    }
    const info: InfoMessage = { info: 'participantsAdded', params: { names } };
    return appendMessage(tx, ctx.company.domain, { conversationId, authorId: null, type: 'info', text: infoText(info), data: info }, ctx.clock.now());
  }, WRITE_TX);
  emitMessage(ctx.realtime, appended);
  await announceParticipants(ctx, conversationId);
  return { added: users.length };
}

/**
 * Adds someone reached only through a relay (the e-mail integration's outside address) to a
 * conversation the caller is in: flagged in the same transaction as the info message, so that
 * message is already relayed to them (their first mail says they were added).
 */
export async function addRelayParticipant(ctx: ChatContext, conversationId: string, user: { id: string; name: string }, relay: 'email') {
  assertMayWork(ctx);
  const { conversation } = await participation(ctx, conversationId);
  const appended = await ctx.db.$transaction(async (tx) => {
    await tx.participant.upsert({
      where: { conversationId_userId: { conversationId, userId: user.id } },
      create: { conversationId, userId: user.id, joinedAt: ctx.clock.now(), [relay]: true },
      update: { removed: false, removedAtSeq: null, [relay]: true },
    });
    const info: InfoMessage = { info: 'participantsAdded', params: { names: [user.name] } };
    return appendMessage(tx, ctx.company.domain, { conversationId, authorId: null, type: 'info', text: infoText(info), data: info }, ctx.clock.now());
  }, WRITE_TX);
  emitMessage(ctx.realtime, appended);
  await announceParticipants(ctx, conversationId);
  return conversation;
}

/**
 * Takes someone out in one transaction: the flag, the info message, and the last message they
 * may still see (that info message), so their recent shows why and nothing after it.
 */
async function takeOut(ctx: ChatContext, conversationId: string, userId: string, info: InfoMessage) {
  const appended = await ctx.db.$transaction(async (tx) => {
    const { count } = await tx.participant.updateMany({ where: { conversationId, userId, removed: false }, data: { removed: true } });
    if (count === 0) throw new TRPCError({ code: 'NOT_FOUND', message: M.notAParticipant });
    const done = await appendMessage(tx, ctx.company.domain, { conversationId, authorId: null, type: 'info', text: infoText(info), data: info }, ctx.clock.now());
    await tx.participant.updateMany({ where: { conversationId, userId }, data: { removedAtSeq: done.message.seq } });
    return done;
  }, WRITE_TX);
  emitMessage(ctx.realtime, { ...appended, recipients: [...appended.recipients, userId] });
  await announceParticipants(ctx, conversationId, [userId]);
}

/** Removes someone else ('Deseja remover {name}?' -> 'O participante foi removido!'). */
export async function removeParticipant(ctx: ChatContext, conversationId: string, userId: string) {
  if (userId === ctx.userId) throw new TRPCError({ code: 'BAD_REQUEST', message: M.useLeave });
  await participation(ctx, conversationId);
  const [name = ''] = await userNames(ctx, [userId]);
  await takeOut(ctx, conversationId, userId, { info: 'participantRemoved', params: { name } });
  return { removed: true };
}

/** Leaves ('Deseja sair?' -> 'Você saiu do atendimento'); the responsible person transfers first. */
export async function leaveConversation(ctx: ChatContext, conversationId: string) {
  const { me } = await participation(ctx, conversationId);
  if (me.responsible) throw new TRPCError({ code: 'BAD_REQUEST', message: M.responsibleCannotLeave });
  const [name = ''] = await userNames(ctx, [ctx.userId]);
  await takeOut(ctx, conversationId, ctx.userId, { info: 'participantLeft', params: { name } });
  return { left: true };
}

// ---- accounts -----------------------------------------------------------------------------------

/**
 * An anonymous user signed in to an existing account (identity's mergeAnonymousUser): their
 * conversations, messages, receipts and notes become the account's. Where both took part in the
 * same conversation, the account's participation stays.
 */
export async function moveChatRows(tx: Prisma.TransactionClient, fromId: string, toId: string) {
  await tx.$executeRaw`
    DELETE FROM "Participant" p WHERE p."userId" = ${fromId}::uuid
      AND EXISTS (SELECT 1 FROM "Participant" q WHERE q."conversationId" = p."conversationId" AND q."userId" = ${toId}::uuid)`;
  await tx.$executeRaw`UPDATE "Participant" SET "userId" = ${toId}::uuid WHERE "userId" = ${fromId}::uuid`;
  // A send id the account already used in the same conversation would clash: that copy loses it.
  await tx.$executeRaw`
    UPDATE "Message" m SET "clientId" = NULL WHERE m."authorId" = ${fromId}::uuid AND m."clientId" IS NOT NULL
      AND EXISTS (SELECT 1 FROM "Message" o WHERE o."conversationId" = m."conversationId" AND o."authorId" = ${toId}::uuid AND o."clientId" = m."clientId")`;
  await tx.$executeRaw`UPDATE "Message" SET "authorId" = ${toId}::uuid WHERE "authorId" = ${fromId}::uuid`;
  await tx.$executeRaw`UPDATE "Message" SET "mentions" = array_replace("mentions", ${fromId}::uuid, ${toId}::uuid) WHERE ${fromId}::uuid = ANY("mentions")`;
  await tx.$executeRaw`UPDATE "Receipt" SET "userId" = ${toId}::uuid WHERE "userId" = ${fromId}::uuid`;
  await tx.$executeRaw`UPDATE "ConversationNote" SET "authorId" = ${toId}::uuid WHERE "authorId" = ${fromId}::uuid`;
  await tx.$executeRaw`UPDATE "Conversation" SET "creatorId" = ${toId}::uuid WHERE "creatorId" = ${fromId}::uuid`;
  await tx.$executeRaw`DELETE FROM "PresenceAnnouncement" WHERE "userId" = ${fromId}::uuid`;
}
