/**
 * The recents list (/i/recent): every field a row needs, for one page, in one SQL statement (plus
 * one for the unread total of the browser title, run alongside). The page is chosen first on
 * cheap columns (pinned, then latest activity), and only its rows get the per-conversation
 * lookups (last visible message, unread count, the other participants), all on indexes:
 * Participant(userId), Conversation(pk), Message(conversationId, seq).
 */
import { TRPCError } from '@trpc/server';
import type { z } from 'zod';
import { Prisma } from '../../../generated/prisma/client';
import { CONVERSATION_STATE, CONVERSATION_TYPE } from '../../../shared/constants';
import { parseRecentsSearch } from '../../../shared/domain/conversations';
import { ticksFor, type Ticks } from '../../../shared/domain/messages';
import type { recentsInput } from '../../../shared/schemas/chat';
import { seesComments, type ChatContext } from './context';
import { conversationTitle } from './service';

export interface RecentOther {
  userId: string;
  name: string;
  hasAvatar: boolean;
  deliveredSeq: number;
  readSeq: number;
  /** Reached by e-mail, WhatsApp or Telegram rather than in the app (the desk shows it). */
  channel: 'email' | 'whatsapp' | 'telegram' | null;
}

/** The last message a recent shows (lastMsg, lastMsgTipo, lastMsgUser...). */
export interface RecentLastMessage {
  id: string;
  seq: number;
  type: string;
  text: string;
  authorId: string | null;
  authorName: string | null;
  removed: boolean;
  isComment: boolean;
  forwarded: boolean;
  edited: boolean;
  file: { name: string; mime: string | null; isRecording: boolean; durationMs: number | null } | null;
  data: unknown;
  createdAt: Date;
}

export interface RecentItem {
  conversationId: string;
  type: number;
  state: number;
  protocol: string;
  title: string;
  customTitle: string;
  createdAt: Date;
  lastSeq: number;
  lastChangeSeq: number;
  lastMessageAt: Date | null;
  lastMessage: RecentLastMessage | null;
  /** Ticks of my own last message (lastMsgEntregue / lastMsgTdsLeram); null when it is not mine. */
  lastMessageTicks: Ticks | null;
  unread: number;
  mentioned: boolean;
  removed: boolean;
  fixed: boolean;
  draft: string;
  readSeq: number;
  deliveredSeq: number;
  /** The other people still in it, with their avatars (`/avatars/{userId}`) and watermarks. */
  others: RecentOther[];
}

interface Row {
  conversationId: string;
  type: number;
  state: number;
  protocol: string;
  customTitle: string;
  createdAt: Date;
  lastSeq: number;
  lastChangeSeq: number;
  lastMessageAt: Date | null;
  activityAt: Date;
  fixed: boolean;
  removed: boolean;
  readSeq: number;
  deliveredSeq: number;
  mentionSeq: number;
  draft: string | null;
  lmId: string | null;
  lmSeq: number | null;
  lmType: string | null;
  lmText: string | null;
  lmAuthorId: string | null;
  lmAuthorName: string | null;
  lmRemoved: boolean | null;
  lmIsComment: boolean | null;
  lmForwarded: boolean | null;
  lmEditedAt: Date | null;
  lmFileName: string | null;
  lmFileMime: string | null;
  lmIsRecording: boolean | null;
  lmDurationMs: number | null;
  lmData: unknown;
  lmCreatedAt: Date | null;
  unread: number;
  others: RecentOther[];
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

function encodeCursor(r: Pick<Row, 'fixed' | 'activityAt' | 'conversationId'>) {
  return Buffer.from(JSON.stringify([r.fixed ? 1 : 0, r.activityAt.toISOString(), r.conversationId])).toString('base64url');
}

function decodeCursor(cursor: string): { fixed: number; at: Date; id: string } {
  try {
    const [fixed, at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [number, string, string];
    const date = new Date(at);
    if ((fixed !== 0 && fixed !== 1) || Number.isNaN(date.getTime()) || !/^[0-9a-f-]{36}$/i.test(id)) throw new Error('bad');
    return { fixed, at: date, id };
  } catch {
    throw new TRPCError({ code: 'BAD_REQUEST', message: 'Invalid cursor' });
  }
}

/** The caller's recents in this company: pinned first, then by latest activity; searchable. */
// isServiceRequest (shared/domain/conversations.ts) in SQL.
const SERVICE = Prisma.sql`(c."type" = ${CONVERSATION_TYPE.ticket} OR (c."type" = ${CONVERSATION_TYPE.single} AND c."queuedAt" IS NOT NULL))`;
const NOT_CONCLUDED = Prisma.sql`c."state" <> ${CONVERSATION_STATE.concluded}`;

/**
 * The desk's filters: unread (something after my read mark), mine (open requests I am
 * responsible for), open (open customer requests I am in), team (colleague chats), one queue.
 */
function filterConditions(me: string, input: Pick<z.output<typeof recentsInput>, 'filter' | 'queueId'>): Prisma.Sql[] {
  const conditions: Prisma.Sql[] = [];
  if (input.filter === 'unread') conditions.push(Prisma.sql`p."readSeq" < coalesce(p."removedAtSeq", c."lastSeq")`);
  if (input.filter === 'mine') conditions.push(SERVICE, NOT_CONCLUDED, Prisma.sql`c."responsibleId" = ${me}::uuid`);
  if (input.filter === 'open') conditions.push(SERVICE, NOT_CONCLUDED);
  if (input.filter === 'team') conditions.push(Prisma.sql`NOT ${SERVICE}`);
  if (input.queueId) conditions.push(SERVICE, Prisma.sql`c."queueId" = ${input.queueId}::uuid`);
  return conditions;
}

export async function listRecents(ctx: ChatContext, input: z.output<typeof recentsInput>) {
  const me = ctx.userId;
  const comments = seesComments(ctx);
  // What a participant may still see: everything, or up to their removal.
  const visibleUpto = Prisma.sql`coalesce(p."removedAtSeq", c."lastSeq")`;
  const visibleToMe = comments ? Prisma.sql`TRUE` : Prisma.sql`NOT m."isComment"`;

  const conditions: Prisma.Sql[] = [Prisma.sql`p."userId" = ${me}::uuid`, Prisma.sql`c."companyId" = ${ctx.company.id}::uuid`];
  const q = input.q?.trim();
  if (q) {
    const search = parseRecentsSearch(q);
    const companyMatches = ctx.company.name.toLowerCase().includes(search.text.toLowerCase());
    if (!companyMatches) {
      const pattern = `%${escapeLike(search.text)}%`;
      const tz = input.timeZone ?? 'UTC';
      const alternatives: Prisma.Sql[] = [
        Prisma.sql`c."title" ILIKE ${pattern}`,
        Prisma.sql`EXISTS (SELECT 1 FROM "Participant" o JOIN "User" u ON u."id" = o."userId"
                   WHERE o."conversationId" = c."id" AND o."userId" <> ${me}::uuid AND u."name" ILIKE ${pattern})`,
        Prisma.sql`(SELECT m."text" FROM "Message" m WHERE m."conversationId" = c."id" AND m."seq" <= ${visibleUpto} AND ${visibleToMe}
                   ORDER BY m."seq" DESC LIMIT 1) ILIKE ${pattern}`,
      ];
      if (search.protocolDigits) alternatives.push(Prisma.sql`c."protocol" LIKE ${`%${search.protocolDigits}%`}`);
      if (search.date) {
        alternatives.push(Prisma.sql`((c."lastMessageAt" AT TIME ZONE 'UTC' AT TIME ZONE ${tz})::date = ${search.date}::date
                          OR (c."createdAt" AT TIME ZONE 'UTC' AT TIME ZONE ${tz})::date = ${search.date}::date)`);
      }
      conditions.push(Prisma.sql`(${Prisma.join(alternatives, ' OR ')})`);
    }
  }
  conditions.push(...filterConditions(me, input));
  if (input.cursor) {
    const cur = decodeCursor(input.cursor);
    conditions.push(Prisma.sql`(p."fixed"::int, coalesce(c."lastMessageAt", c."createdAt"), c."id") < (${cur.fixed}, ${cur.at}, ${cur.id}::uuid)`);
  }

  const pageQuery = ctx.db.$queryRaw<Row[]>`
    WITH page AS (
      SELECT c."id", c."type", c."state", c."protocol", c."title", c."createdAt", c."lastSeq", c."lastChangeSeq",
             c."lastMessageAt", coalesce(c."lastMessageAt", c."createdAt") AS "activityAt",
             p."fixed", p."removed", p."readSeq", p."deliveredSeq", p."mentionSeq", p."draft", p."removedAtSeq"
      FROM "Participant" p JOIN "Conversation" c ON c."id" = p."conversationId"
      WHERE ${Prisma.join(conditions, ' AND ')}
      ORDER BY p."fixed" DESC, "activityAt" DESC, c."id" DESC
      LIMIT ${input.limit + 1}
    )
    SELECT p."id" AS "conversationId", p."type", p."state", p."protocol", p."title" AS "customTitle", p."createdAt",
           p."lastSeq", p."lastChangeSeq", p."lastMessageAt", p."activityAt", p."fixed", p."removed", p."readSeq",
           p."deliveredSeq", p."mentionSeq", p."draft",
           lm."id" AS "lmId", lm."seq" AS "lmSeq", lm."type" AS "lmType", lm."text" AS "lmText", lm."authorId" AS "lmAuthorId",
           lma."name" AS "lmAuthorName", lm."removed" AS "lmRemoved", lm."isComment" AS "lmIsComment",
           lm."forwarded" AS "lmForwarded", lm."editedAt" AS "lmEditedAt", lm."fileName" AS "lmFileName",
           lm."fileMime" AS "lmFileMime", lm."isRecording" AS "lmIsRecording", lm."durationMs" AS "lmDurationMs",
           lm."data" AS "lmData", lm."createdAt" AS "lmCreatedAt",
           CASE WHEN p."readSeq" >= coalesce(p."removedAtSeq", p."lastSeq") THEN 0 ELSE (
             SELECT count(*)::int FROM "Message" m
             WHERE m."conversationId" = p."id" AND m."seq" > p."readSeq" AND m."seq" <= coalesce(p."removedAtSeq", p."lastSeq")
               AND m."authorId" IS DISTINCT FROM ${me}::uuid AND ${visibleToMe}
           ) END AS "unread",
           (SELECT coalesce(json_agg(json_build_object(
                      'userId', o."userId", 'name', u."name", 'hasAvatar', u."avatarKey" IS NOT NULL,
                      'deliveredSeq', o."deliveredSeq", 'readSeq', o."readSeq",
                      'channel', CASE WHEN o."email" THEN 'email' WHEN o."whatsapp" THEN 'whatsapp' WHEN o."telegram" THEN 'telegram' END) ORDER BY o."joinedAt", u."name", o."id"), '[]'::json)
            FROM "Participant" o JOIN "User" u ON u."id" = o."userId"
            WHERE o."conversationId" = p."id" AND o."userId" <> ${me}::uuid AND NOT o."removed") AS "others"
    FROM page p
    LEFT JOIN LATERAL (
      SELECT * FROM "Message" m
      WHERE m."conversationId" = p."id" AND m."seq" <= coalesce(p."removedAtSeq", p."lastSeq") AND ${visibleToMe}
      ORDER BY m."seq" DESC LIMIT 1
    ) lm ON TRUE
    LEFT JOIN "User" lma ON lma."id" = lm."authorId"
    ORDER BY p."fixed" DESC, p."activityAt" DESC, p."id" DESC`;

  const totalQuery = ctx.db.$queryRaw<{ total: number }[]>`
    SELECT coalesce(sum((
      SELECT count(*) FROM "Message" m
      WHERE m."conversationId" = c."id" AND m."seq" > p."readSeq" AND m."seq" <= ${visibleUpto}
        AND m."authorId" IS DISTINCT FROM ${me}::uuid AND ${visibleToMe}
    )), 0)::int AS "total"
    FROM "Participant" p JOIN "Conversation" c ON c."id" = p."conversationId"
    WHERE p."userId" = ${me}::uuid AND c."companyId" = ${ctx.company.id}::uuid AND p."readSeq" < ${visibleUpto}`;

  const [rows, [total]] = await Promise.all([pageQuery, totalQuery]);
  const more = rows.length > input.limit;
  const page = rows.slice(0, input.limit);
  return {
    items: page.map((r) => toRecent(r, me)),
    nextCursor: more ? encodeCursor(page.at(-1)!) : null,
    /** Unread messages over all my conversations in this company (the browser title and badge). */
    totalUnread: total?.total ?? 0,
  };
}

function toRecent(r: Row, me: string): RecentItem {
  const last: RecentLastMessage | null = r.lmId
    ? {
        id: r.lmId,
        seq: r.lmSeq!,
        type: r.lmType!,
        text: r.lmRemoved ? '' : r.lmText!,
        authorId: r.lmAuthorId,
        authorName: r.lmAuthorName,
        removed: !!r.lmRemoved,
        isComment: !!r.lmIsComment,
        forwarded: !!r.lmForwarded,
        edited: !!r.lmEditedAt,
        file: r.lmFileName ? { name: r.lmFileName, mime: r.lmFileMime, isRecording: !!r.lmIsRecording, durationMs: r.lmDurationMs } : null,
        data: r.lmRemoved ? null : r.lmData,
        createdAt: r.lmCreatedAt!,
      }
    : null;
  return {
    conversationId: r.conversationId,
    type: r.type,
    state: r.state,
    protocol: r.protocol,
    title: conversationTitle({ type: r.type, title: r.customTitle }, r.others.map((o) => o.name)),
    customTitle: r.customTitle,
    createdAt: r.createdAt,
    lastSeq: r.lastSeq,
    lastChangeSeq: r.lastChangeSeq,
    lastMessageAt: r.lastMessageAt,
    lastMessage: last,
    lastMessageTicks: last && last.authorId === me ? ticksFor(last.seq, r.others) : null,
    unread: r.unread,
    mentioned: r.mentionSeq > r.readSeq,
    removed: r.removed,
    fixed: r.fixed,
    draft: r.draft ?? '',
    readSeq: r.readSeq,
    deliveredSeq: r.deliveredSeq,
    others: r.others,
  };
}
