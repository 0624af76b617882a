import type { Conversation } from '../../../generated/prisma/client';
import { canSeeRequest, queuedRequest, type QueueViewer } from '../../../shared/domain/queue-visibility';
import { estimateWaitMinutes, WAIT_SAMPLE_DAYS, WAIT_SAMPLE_SIZE } from '../../../shared/domain/wait-estimate';
import type { QueueRequestEvent } from '../../../shared/service-events';
import { Prisma, type Db } from '../../db/client';
import type { Realtime } from '../../realtime';
import { flushQueueRemovals, pushQueueRemovals } from './queue-removals';

type Reader = Db | Prisma.TransactionClient;
export interface PushDeps {
  db: Db;
  realtime: Realtime;
  /** For the estimated wait pushed with positions; the wall clock when a caller has none. */
  clock?: { now(): Date };
}

/** Profile code -> the queues it is restricted to (empty: every queue). */
export async function profileQueues(db: Reader, companyId: string): Promise<Map<string, string[]>> {
  const rows = await db.profile.findMany({ where: { companyId }, select: { code: true, queueIds: true } });
  return new Map(rows.map((p) => [p.code, Array.isArray(p.queueIds) ? (p.queueIds as string[]) : []]));
}

/** The company's attendants as the queue sees them: active members with their groups and their profile's queues. */
export async function queueViewers(db: Reader, companyId: string): Promise<(QueueViewer & { settings: Record<string, unknown> })[]> {
  const [members, queuesOf] = await Promise.all([
    db.member.findMany({
      where: { companyId, inviteAccepted: true, blocked: false, removed: false },
      select: { userId: true, profile: true, groups: { select: { groupId: true } }, user: { select: { settings: true } } },
    }),
    profileQueues(db, companyId),
  ]);
  return members.map((m) => ({
    userId: m.userId,
    groupIds: m.groups.map((g) => g.groupId),
    queueIds: queuesOf.get(m.profile) ?? [],
    settings: (m.user.settings ?? {}) as Record<string, unknown>,
  }));
}

/** The request as the queue screen lists it. */
export async function toQueueRequest(db: Reader, c: Conversation, viewerId?: string): Promise<QueueRequestEvent> {
  const first = await db.message.findFirst({
    where: { conversationId: c.id, authorId: c.creatorId ?? undefined, isComment: false, type: 'texto', removed: false },
    orderBy: { seq: 'asc' },
    select: { text: true },
  });
  return {
    conversationId: c.id,
    protocol: c.protocol,
    type: c.type,
    customerName: c.title,
    queueId: c.queueId,
    queueName: c.queueName,
    queuedAt: c.queuedAt ?? c.createdAt,
    forMe: !!c.queueUserId && c.queueUserId === viewerId,
    preview: first?.text.slice(0, 200) ?? null,
  };
}

/** After a request entered the queue: the attendants who can see it get it. Returns who they were. */
export async function pushQueueAdded(deps: PushDeps, domain: string, conversation: Conversation): Promise<string[]> {
  const viewers = (await queueViewers(deps.db, conversation.companyId)).filter((v) => canSeeRequest(v, queuedRequest(conversation)));
  const request = await toQueueRequest(deps.db, conversation);
  flushQueueRemovals(deps.realtime, domain);
  for (const v of viewers) deps.realtime.toUser(v.userId, 'queue:added', { domain, request: { ...request, forMe: conversation.queueUserId === v.userId } });
  return viewers.map((v) => v.userId);
}

/** After a request left the queue: every attendant drops it from their view (queue-removals.ts: at once, or with the others of a burst). */
export async function pushQueueRemoved(deps: PushDeps, companyId: string, domain: string, conversationId: string) {
  // Raw: every take and transfer pays this (and the two below); see bench/queue-take.
  const members = await deps.db.$queryRaw<{ userId: string }[]>`
    SELECT "userId"::text AS "userId" FROM "Member" WHERE "companyId" = ${companyId}::uuid AND "inviteAccepted" AND NOT "blocked" AND NOT "removed"`;
  pushQueueRemovals(
    deps.realtime,
    domain,
    members.map((m) => m.userId),
    [conversationId],
  );
}

/**
 * The customers still waiting in a queue learn their new place. A request aimed at one attendant
 * (userFila) waits in that attendant's own line.
 */
export async function pushPositions(deps: PushDeps, companyId: string, queueId: string | null) {
  const waiting = await deps.db.$queryRaw<{ id: string; creatorId: string | null; queueUserId: string | null }[]>`
    SELECT "id"::text AS "id", "creatorId"::text AS "creatorId", "queueUserId"::text AS "queueUserId" FROM "Conversation"
    WHERE "companyId" = ${companyId}::uuid AND ${queueId ? Prisma.sql`"queueId" = ${queueId}::uuid` : Prisma.sql`"queueId" IS NULL`} AND "inQueue"
    ORDER BY "queuedAt" ASC, "id" ASC`;
  if (waiting.length === 0) return;
  // Pushed with the place so the visitor's estimate follows the queue too (a take is a new sample).
  emitPositions(deps.realtime, waiting, await estimatedWait(deps.db, companyId, deps.clock?.now() ?? new Date()));
}

type Waiting = { id: string; creatorId: string | null; queueUserId: string | null };

/** Each waiting customer's place in their line (oldest first); a request aimed at one attendant waits in that attendant's own line. */
function emitPositions(realtime: Realtime, waiting: Waiting[], estimatedWaitMinutes: number | null) {
  const seen = new Map<string, number>();
  for (const c of waiting) {
    const line = c.queueUserId ?? '';
    const position = (seen.get(line) ?? 0) + 1;
    seen.set(line, position);
    if (c.creatorId) realtime.toUser(c.creatorId, 'service:position', { conversationId: c.id, position, estimatedWaitMinutes });
  }
}

/** What a take tells, read by its claim's statement (takenPushesSql), emitted by emitTaken once it committed. */
export interface TakenPushes {
  members: string[];
  present: string[];
  waiting: Waiting[] | null;
  waits: number[] | null;
}

/**
 * What pushQueueRemoved, pushPositions and pushConversationUpdated would read after a take, as one
 * column of the take's own claim statement (claim.ts): no statement of its own, and nothing read
 * for a losing attempt. It reads the row of CTE `claimed` (the taken request's new row) of the
 * attempt `attempt` names, and sees the rows as they were before the statement's writes, so the
 * requests that statement took are left out of those waiting, and the taker and the new wait
 * samples are added (the newest of those stored, read backwards on the index by company and
 * time taken, then with the statement's own). The places in a line after the statement are the
 * same for every request it took from that line, so they are read and pushed once, with the first
 * of them (TAKEN_WAITING_CTE): a burst of takes tells each waiting customer their place once, not
 * once per take. The wait samples are read only when someone still waits, as pushPositions does.
 */
export function takenPushesSql(now: Date, attempt: Prisma.Sql) {
  const since = new Date(now.getTime() - WAIT_SAMPLE_DAYS * 86_400_000);
  return Prisma.sql`(SELECT json_build_object(
      'members', ARRAY(SELECT "userId"::text FROM "Member" WHERE "companyId" = k."companyId" AND "inviteAccepted" AND NOT "blocked" AND NOT "removed"),
      'present', ARRAY(SELECT "userId"::text FROM "Participant" WHERE "conversationId" = k."id" AND NOT "removed" AND "userId" <> k."takenById" UNION ALL SELECT k."takenById"::text),
      'waiting', (SELECT json_agg(json_build_object('id', q."id", 'creatorId', q."creatorId", 'queueUserId', q."queueUserId") ORDER BY q."queuedAt" ASC, q."id" ASC) FROM waiting q WHERE q."_for" = k."id"),
      'waits', CASE WHEN EXISTS (SELECT 1 FROM waiting q WHERE q."_for" = k."id") THEN ARRAY(
        SELECT t."ms" FROM (
          (SELECT t0."takenAt", (extract(epoch FROM t0."takenAt" - t0."queuedAt") * 1000)::float8 AS "ms" FROM "Conversation" t0
            WHERE t0."companyId" = k."companyId" AND t0."takenAt" >= ${since} AND t0."queuedAt" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM claimed x WHERE x."id" = t0."id")
            ORDER BY t0."takenAt" DESC LIMIT ${WAIT_SAMPLE_SIZE})
          UNION ALL SELECT x."takenAt", (extract(epoch FROM x."takenAt" - x."queuedAt") * 1000)::float8 FROM claimed x
          WHERE x."companyId" = k."companyId" AND x."queuedAt" IS NOT NULL
        ) t ORDER BY t."takenAt" DESC LIMIT ${WAIT_SAMPLE_SIZE}
      ) END)
    FROM claimed k WHERE k."_i" = ${attempt})`;
}

/**
 * The CTE `waiting` takenPushesSql reads: those still waiting in a line the statement took from,
 * over `claimed`, for ("_for") the first request it took from that line (the lowest attempt).
 */
export const TAKEN_WAITING_CTE = Prisma.sql`waiting AS (
      SELECT k."id" AS "_for", q."id", q."creatorId", q."queueUserId", q."queuedAt"
      FROM (SELECT DISTINCT ON ("companyId", "queueId") "id", "companyId", "queueId" FROM claimed ORDER BY "companyId", "queueId", "_i") k, "Conversation" q
      WHERE q."companyId" = k."companyId" AND q."inQueue" AND NOT EXISTS (SELECT 1 FROM claimed x WHERE x."id" = q."id")
        AND (q."queueId" = k."queueId" OR (q."queueId" IS NULL AND k."queueId" IS NULL))
    )`;

/** The take's pushes, in pushQueueRemoved, pushPositions, pushConversationUpdated's order. */
export function emitTaken(deps: PushDeps, c: Pick<Conversation, 'id'>, domain: string, row: TakenPushes) {
  pushQueueRemovals(deps.realtime, domain, row.members, [c.id]);
  if (row.waiting?.length) emitPositions(deps.realtime, row.waiting, estimateWaitMinutes(row.waits ?? []));
  deps.realtime.toUsers(new Set(row.present), 'conversation:updated', { conversationId: c.id });
}

/** Who is in the conversation hears that it changed (state, responsible, participants). */
export async function pushConversationUpdated(deps: PushDeps, conversationId: string, also: string[] = []) {
  const present = await deps.db.$queryRaw<{ userId: string }[]>`
    SELECT "userId"::text AS "userId" FROM "Participant" WHERE "conversationId" = ${conversationId}::uuid AND NOT "removed"`;
  deps.realtime.toUsers(new Set([...present.map((p) => p.userId), ...also]), 'conversation:updated', { conversationId });
}

/**
 * The median time-to-take of the company's last requests taken in the past week, in minutes
 * (see shared/domain/wait-estimate.ts); null when there are too few.
 */
export async function estimatedWait(db: Reader, companyId: string, now: Date): Promise<number | null> {
  const taken = await db.conversation.findMany({
    where: { companyId, takenAt: { gte: new Date(now.getTime() - WAIT_SAMPLE_DAYS * 86_400_000) }, queuedAt: { not: null } },
    orderBy: { takenAt: 'desc' },
    take: WAIT_SAMPLE_SIZE,
    select: { queuedAt: true, takenAt: true },
  });
  return estimateWaitMinutes(taken.map((c) => c.takenAt!.getTime() - c.queuedAt!.getTime()));
}

/** A waiting request's place in its line (1 = next). */
export async function queuePosition(db: Reader, c: Pick<Conversation, 'id' | 'companyId' | 'queueId' | 'queueUserId' | 'queuedAt' | 'inQueue'>): Promise<number | null> {
  if (!c.inQueue || !c.queuedAt) return null;
  const ahead = await db.conversation.count({
    where: {
      companyId: c.companyId,
      queueId: c.queueId,
      queueUserId: c.queueUserId,
      inQueue: true,
      OR: [{ queuedAt: { lt: c.queuedAt } }, { queuedAt: c.queuedAt, id: { lt: c.id } }],
    },
  });
  return ahead + 1;
}
