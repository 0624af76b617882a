/**
 * What every chat rule starts from: the caller, their participation in a conversation of THIS
 * company, what they may see, and how a stored message becomes the message clients receive.
 */
import { TRPCError } from '@trpc/server';
import type { Company, Conversation, Member, Message, Participant } from '../../../generated/prisma/client';
import type { ChatMessageEvent, ReplyQuote } from '../../../shared/chat-events';
import { memberMayWork } from '../../../shared/domain/company';
import { quoteExcerpt } from '../../../shared/domain/messages';
import { CHAT_MESSAGES as M } from '../../../shared/schemas/chat';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import { hotQuery, Prisma, type Db } from '../../db/client';
import { prefixedColumns, unprefix } from '../../db/columns';
import type { Realtime } from '../../realtime';
import type { ObjectStore } from '../../storage';

/**
 * Options of the chat's write transactions. Sends come in bursts: a transaction waits up to 10 s
 * for a pooled connection (Prisma's default gives up after 2 s and the send fails) and may run
 * for 20 s while the conversation's row lock orders it behind others.
 */
export const WRITE_TX = { maxWait: 10_000, timeout: 20_000 } as const;

/** The caller as a member of the company the input named. */
export interface ChatContext {
  db: Db;
  clock: Clock;
  realtime: Realtime;
  storage: ObjectStore;
  config: Pick<Config, 'maxUploadBytes'>;
  company: Company;
  member: Member;
  userId: string;
}

/**
 * Comments (isComentario) are internal: only active members of the company see them. Customers
 * and anonymous visitors take part in conversations too (they reach the chat without a Member
 * row), so every read and push asks this rather than assuming.
 */
export const seesComments = (ctx: { member: ChatContext['member'] | null }) =>
  !!ctx.member && ctx.member.inviteAccepted && !ctx.member.blocked && !ctx.member.removed;

/** Prisma filter: the messages this caller may see. */
export const visibleMessages = (ctx: { member: ChatContext['member'] | null }): Prisma.MessageWhereInput => (seesComments(ctx) ? {} : { isComment: false });

/** Spec: a blocked plan or a deactivated company stops messages and new chats; admins continue. */
export function assertMayWork(ctx: ChatContext) {
  if (!memberMayWork(ctx.company, ctx.member)) throw new TRPCError({ code: 'FORBIDDEN', message: M.blocked });
}

export const PARTICIPATION_COLUMNS = Prisma.sql`${prefixedColumns(Prisma.ConversationScalarFieldEnum, 'c', 'c_')}, ${prefixedColumns(Prisma.ParticipantScalarFieldEnum, 'p', 'p_')}`;

/**
 * The caller's participation in a conversation of THIS company, or a refusal. One raw join: almost
 * every chat call starts here (two ORM calls cost ~3x the CPU in Prisma's query compiler).
 * With `clientId`, also the id of the caller's message sent earlier with that client id, if any.
 */
export async function participation(ctx: ChatContext, conversationId: string, opts: { clientId?: string } = {}) {
  const earlier = opts.clientId
    ? Prisma.sql`(SELECT "id" FROM "Message" WHERE "conversationId" = c."id" AND "authorId" = ${ctx.userId}::uuid AND "clientId" = ${opts.clientId})`
    : Prisma.sql`NULL::uuid`;
  const [row] = await hotQuery(ctx.db, Prisma.sql`
    SELECT ${PARTICIPATION_COLUMNS}, ${earlier} AS "earlierId"
    FROM "Conversation" c LEFT JOIN "Participant" p ON p."conversationId" = c."id" AND p."userId" = ${ctx.userId}::uuid
    WHERE c."id" = ${conversationId}::uuid AND c."companyId" = ${ctx.company.id}::uuid`, { prepared: true });
  return participationOf(row);
}

export type Participation = ReturnType<typeof participationOf>;

/**
 * The rules of `participation` on a row read elsewhere (the socket's batched read): the
 * conversation's columns prefixed `c_` (absent: not in this company), the caller's participant
 * row's prefixed `p_`, and `earlierId`.
 */
export function participationOf(row: Record<string, unknown> | undefined) {
  const conversation = row && unprefix<Conversation>(row, Prisma.ConversationScalarFieldEnum, 'c_');
  if (!row || !conversation) throw new TRPCError({ code: 'NOT_FOUND', message: M.notFound });
  const me = unprefix<Participant>(row, Prisma.ParticipantScalarFieldEnum, 'p_');
  if (!me) throw new TRPCError({ code: 'FORBIDDEN', message: M.notParticipant });
  if (me.removed) throw new TRPCError({ code: 'FORBIDDEN', message: M.removed });
  return { conversation, me, earlierMessageId: (row.earlierId as string | null) ?? null };
}

/** Active, accepted members of this company among `userIds`: nobody else can be added. */
export async function activeMembers(ctx: Pick<ChatContext, 'db' | 'company'>, userIds: string[]) {
  const members = await ctx.db.member.findMany({
    where: { companyId: ctx.company.id, userId: { in: userIds }, inviteAccepted: true, blocked: false, removed: false },
    select: { userId: true },
  });
  if (members.length !== new Set(userIds).size) throw new TRPCError({ code: 'BAD_REQUEST', message: M.onlyMembers });
  return members.map((m) => m.userId);
}

/** Prisma filter: users who are active members of a company (for comment recipients). */
/**
 * Who may still be told about the company's conversations: anyone but a member the company blocked
 * or removed (mayAct, participant route, as a filter). Customers and visitors have no Member row.
 */
export const notRefusedBy = (companyId: string): Prisma.UserWhereInput => ({
  memberships: { none: { companyId, OR: [{ blocked: true }, { removed: true }] } },
});

export const activeMemberOf = (companyId: string): Prisma.UserWhereInput => ({
  memberships: { some: { companyId, inviteAccepted: true, blocked: false, removed: false } },
});

/** What every message read includes: its author's name and the quote of the message it answers. */
export const MESSAGE_INCLUDE = {
  author: { select: { name: true } },
  replyTo: {
    select: { id: true, seq: true, authorId: true, type: true, text: true, fileName: true, removed: true, author: { select: { name: true } } },
  },
} satisfies Prisma.MessageInclude;

type ReplyRow = { id: string; seq: number; authorId: string | null; type: string; text: string; fileName: string | null; removed: boolean; author?: { name: string } | null };

export function toMessage(m: Message & { author?: { name: string } | null; replyTo?: ReplyRow | null }): ChatMessageEvent {
  return {
    id: m.id,
    conversationId: m.conversationId,
    seq: m.seq,
    changeSeq: m.changeSeq,
    clientId: m.clientId,
    authorId: m.authorId,
    authorName: m.author?.name ?? null,
    type: m.type,
    text: m.removed ? '' : m.text,
    replyToId: m.replyToId,
    replyTo: m.replyTo ? toQuote(m.replyTo) : null,
    forwarded: m.forwarded,
    editedAt: m.editedAt,
    removed: m.removed,
    isComment: m.isComment,
    mentions: m.mentions,
    file:
      m.fileKey && !m.removed
        ? {
            name: m.fileName ?? '',
            size: Number(m.fileSize ?? 0),
            mime: m.fileMime,
            hasThumb: !!m.thumbKey,
            isRecording: m.isRecording,
            durationMs: m.durationMs,
          }
        : null,
    data: m.removed ? null : (m.data ?? null),
    createdAt: m.createdAt,
  };
}

function toQuote(r: ReplyRow): ReplyQuote {
  return {
    id: r.id,
    seq: r.seq,
    authorId: r.authorId,
    authorName: r.author?.name ?? null,
    type: r.type,
    text: r.removed ? '' : quoteExcerpt(r.text),
    fileName: r.removed ? null : r.fileName,
    removed: r.removed,
  };
}

export async function userNames(ctx: Pick<ChatContext, 'db'>, userIds: string[]): Promise<string[]> {
  const users = await ctx.db.user.findMany({ where: { id: { in: userIds } }, select: { id: true, name: true } });
  const byId = new Map(users.map((u) => [u.id, u.name]));
  return userIds.map((id) => byId.get(id) ?? '');
}
