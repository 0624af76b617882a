/**
 * The take's referee: ONE statement claims a waiting request, with every check a take needs, for
 * one attempt or for every service:take of an event-loop turn together (group commit: under a
 * burst, 100 attendants on one request are one statement, not 100). Of attempts on the same
 * request, in one statement or in several at once, exactly one changes the row and becomes its one
 * responsible participant there. service.ts tells each attempt's outcome from what the statement
 * read (takeRequest, takeAsCaller).
 */
import type { Conversation } from '../../../generated/prisma/client';
import { CONVERSATION_TYPE } from '../../../shared/constants';
import type { QueueViewer } from '../../../shared/domain/queue-visibility';
import { SERVICE_TRANSITIONS } from '../../../shared/domain/service-states';
import { hotQuery, Prisma, type Db } from '../../db/client';
import { CALLER_COLUMNS, callerJoins, callerMayActSql } from '../../realtime/caller';
import { TAKEN_WAITING_CTE, takenPushesSql, type TakenPushes } from './events';

/**
 * Who claims what, as the claim's first CTE `who`: one row per attempt (none for an attempt whose
 * session does not exist) with "_i" (the attempt, from 1), "_conversationId", "_userId",
 * "_memberId", "_companyId", "_profile", "_ticketsAllowed" (may take a Contact Us ticket) and
 * "_mayTake" (the access rules let them), plus whatever else the caller reads back.
 */
interface Claimer {
  sql: Prisma.Sql;
  attempts: number;
}

interface AttendantAttempt {
  userId: string;
  memberId: string;
  companyId: string;
  profile: string;
  /** May take a Contact Us ticket (an admin, or a profile with serveContactUs). */
  ticketsAllowed: boolean;
  conversationId: string;
}

/** Attendants the member procedure (or callerFromRow) already let through (service.take). */
function attendantsClaimer(attempts: AttendantAttempt[]): Claimer {
  const column = <K extends keyof AttendantAttempt>(k: K) => attempts.map((a) => a[k]);
  const sql = Prisma.sql`SELECT a."i"::int AS "_i", a."conversationId"::uuid AS "_conversationId", a."userId"::uuid AS "_userId", a."memberId"::uuid AS "_memberId",
    a."companyId"::uuid AS "_companyId", a."profile" AS "_profile", a."ticketsAllowed" AS "_ticketsAllowed", true AS "_mayTake"
    FROM unnest(${column('conversationId')}::text[], ${column('userId')}::text[], ${column('memberId')}::text[], ${column('companyId')}::text[],
      ${column('profile')}::text[], ${column('ticketsAllowed')}::boolean[]) WITH ORDINALITY AS a("conversationId", "userId", "memberId", "companyId", "profile", "ticketsAllowed", "i")`;
  return { sql, attempts: attempts.length };
}

/** memberMayWork (shared/domain/company.ts) in SQL over callerJoins' co and m: what assertMayWork lets through. */
const MEMBER_MAY_WORK_SQL = Prisma.sql`(m."isAdmin" OR NOT (co."deactivated" OR (co."planBlocked" AND NOT co."billingExempt")))`;

interface SessionAttempt {
  sessionId: string;
  domain: string;
  conversationId: string;
}

/** Sockets' sessions acting for the companies of their domains (service:take), read in the claim's statement with CALLER_COLUMNS. */
function sessionClaimer(attempts: SessionAttempt[], now: Date): Claimer {
  const sql = Prisma.sql`SELECT a."i"::int AS "_i", a."conversationId"::uuid AS "_conversationId", u."id" AS "_userId", m."id" AS "_memberId",
    co."id" AS "_companyId", m."profile" AS "_profile", COALESCE(m."isAdmin", false) AS "_ticketsAllowed",
    COALESCE(${callerMayActSql(now)} AND ${MEMBER_MAY_WORK_SQL}, false) AS "_mayTake", ${CALLER_COLUMNS}
    FROM unnest(${attempts.map((a) => a.sessionId)}::text[], ${attempts.map((a) => a.domain)}::text[], ${attempts.map((a) => a.conversationId)}::text[])
      WITH ORDINALITY AS a("sessionId", "domain", "conversationId", "i")
    JOIN "Session" s ON s."id" = a."sessionId" ${callerJoins(Prisma.sql`a."domain"`)}`;
  return { sql, attempts: attempts.length };
}

export interface Claim {
  /** The claimed request's queue, or null: this attempt did not take it. */
  won: { queueId: string | null } | null;
  /** The winner's pushes (takenPushesSql); null for a losing attempt. */
  taken: TakenPushes | null;
  /** The request as the statement's snapshot saw it (null when the claimer's company has none with that id). */
  conversation: Conversation | null;
  /** The claimer as the queue rule reads them. */
  viewer: QueueViewer;
  /** The claimer's row: `who`'s columns (and CALLER_COLUMNS for a session's claim). */
  caller: Record<string, unknown>;
  /** The statement's time (an attempt of a batch has the batch's). */
  now: Date;
}

/**
 * The claim statement for `claimer`'s attempts: the request of the claimer's company, in the queue,
 * in a state 'take' moves from (SERVICE_TRANSITIONS), a service request this attendant sees
 * (canSeeRequest, in SQL: their groups and their profile's queues are read in the same statement),
 * and a Contact Us ticket only when the claimer's `_ticketsAllowed`, for a claimer `_mayTake`.
 * Whatever the outcome each attempt also gets the conversation as the statement's snapshot saw it,
 * the attendant as the queue rule reads them and the claimer's row, so a refusal is told apart in
 * JS, by the same functions the queue screen uses, without another statement. (A winner is not
 * judged by that snapshot: a transfer committed just before may have moved the request the update
 * then took.)
 *
 * The requests the attempts name are locked first, in id order (`locked`): two statements of
 * several attempts each would otherwise lock their rows in whatever order their plans visit them,
 * and could deadlock. Several attempts on one request in one statement: the update changes the row
 * once, for one of them (PostgreSQL's UPDATE ... FROM), and RETURNING says which.
 */
async function claimStatement(db: Db, claimer: Claimer, now: Date): Promise<Claim[]> {
  // Straight on the pool (hotQuery), planned once per connection: every attempt, winning or not, pays its share of this statement only.
  const rows = await hotQuery<Conversation & { _attempt: number; _won: { queueId: string | null } | null; _taken: TakenPushes | null; _groupIds: string[] | null; _queueIds: string[] | null; _userId: string }>(db, Prisma.sql`
    WITH who AS (${claimer.sql}), viewer AS (
      SELECT w."_i", ARRAY(SELECT "groupId" FROM "GroupMember" WHERE "memberId" = w."_memberId") AS "groupIds",
        COALESCE((SELECT CASE WHEN jsonb_typeof("queueIds") = 'array' THEN ARRAY(SELECT jsonb_array_elements_text("queueIds")) END
          FROM "Profile" WHERE "companyId" = w."_companyId" AND "code" = w."_profile"), '{}'::text[]) AS "queueIds"
      FROM who w
    ), locked AS (
      SELECT c."id" FROM "Conversation" c
      WHERE EXISTS (SELECT 1 FROM who w WHERE w."_mayTake" AND w."_conversationId" = c."id" AND w."_companyId" = c."companyId") AND c."inQueue"
      ORDER BY c."id" FOR NO KEY UPDATE
    ), claimed AS (
      UPDATE "Conversation" c SET "inQueue" = false, "state" = ${SERVICE_TRANSITIONS.take.to}, "takenById" = w."_userId", "takenAt" = ${now},
        "responsibleId" = w."_userId", "queueUserId" = NULL, "updatedAt" = ${now}
      FROM who w JOIN viewer v ON v."_i" = w."_i"
      WHERE c."id" = ANY(ARRAY(SELECT "id" FROM locked)) AND c."id" = w."_conversationId" AND c."companyId" = w."_companyId" AND w."_mayTake" AND c."inQueue"
        AND c."state" = ANY(${[...SERVICE_TRANSITIONS.take.from]}::int[])
        AND (c."type" = ${CONVERSATION_TYPE.ticket} OR (c."type" = ${CONVERSATION_TYPE.single} AND c."queuedAt" IS NOT NULL))
        AND (w."_ticketsAllowed" OR c."type" <> ${CONVERSATION_TYPE.ticket})
        AND CASE WHEN c."queueUserId" IS NOT NULL THEN c."queueUserId" = w."_userId"
          ELSE (cardinality(v."queueIds") = 0 OR c."queueId"::text = ANY(v."queueIds"))
            AND (cardinality(c."queueGroupIds") = 0 OR c."queueGroupIds" && v."groupIds") END
      RETURNING w."_i", c."id", c."queueId", c."takenById", c."companyId", c."takenAt", c."queuedAt"
    ), ${TAKEN_WAITING_CTE}, cleared AS (
      UPDATE "Participant" p SET "responsible" = false
      FROM claimed k WHERE p."conversationId" = k."id" AND p."responsible" AND p."userId" <> k."takenById"
    ), joined AS (
      INSERT INTO "Participant" ("id", "conversationId", "userId", "responsible", "joinedAt")
      SELECT gen_random_uuid(), "id", "takenById", true, ${now} FROM claimed
      ON CONFLICT ("conversationId", "userId") DO UPDATE SET "responsible" = true, "removed" = false
    )
    SELECT a."i"::int AS "_attempt", (SELECT json_build_object('queueId', k."queueId") FROM claimed k WHERE k."_i" = a."i") AS "_won",
      ${takenPushesSql(now, Prisma.sql`a."i"`)} AS "_taken", v."groupIds"::text[] AS "_groupIds", v."queueIds" AS "_queueIds", w.*, c.*
    FROM generate_series(1, ${claimer.attempts}::int) AS a("i") LEFT JOIN who w ON w."_i" = a."i" LEFT JOIN viewer v ON v."_i" = a."i"
      LEFT JOIN "Conversation" c ON c."id" = w."_conversationId" AND c."companyId" = w."_companyId"
    ORDER BY a."i"`, { prepared: true });
  // Each attempt's row by its number, not by its place in the answer.
  const claims: Claim[] = [];
  for (const row of rows) {
    const { _attempt, _won, _taken, _groupIds, _queueIds, _userId } = row;
    // The row's other columns are the conversation's and, from `who`, "_"-named ones and the caller's (CALLER_COLUMNS).
    const conversation = Object.fromEntries(Object.entries(row).filter(([k]) => !NOT_CONVERSATION.test(k))) as unknown as Conversation;
    claims[_attempt - 1] = {
      won: _won,
      taken: _taken,
      conversation: conversation.id ? conversation : null,
      viewer: { userId: _userId, groupIds: _groupIds ?? [], queueIds: _queueIds ?? [] } satisfies QueueViewer,
      caller: row as Record<string, unknown>,
      now,
    };
  }
  return claims;
}

/** Columns of the claim's row that are not the conversation's: `who`'s and CALLER_COLUMNS' (prefixed s_, u_, co_, m_, and verifyEmail). */
const NOT_CONVERSATION = /^(_|s_|u_|co_|m_|verifyEmail$)/;

/**
 * Claims of one kind, the attempts of one event-loop turn as one statement, each still read and
 * judged on its own. Nothing is cached: each attempt's session and membership are read by a
 * statement that starts after the attempt arrived.
 *
 * An attempt on a request that a statement of this process is claiming right now waits for that
 * statement here and goes in the next one. In the database it would wait for that statement's row
 * lock (`locked`), and every other attempt of its own statement with it, holding their locks
 * meanwhile: under a race those waits chained into the slowest takes (docs/performance.md section
 * 25). Statements of other instances still meet at the row locks, which stay the referee.
 */
class ClaimQueue<A extends { conversationId: string }> {
  private next: Pending<A>[] = [];
  private scheduled = false;
  /** Requests a statement of this queue is claiming now, with the attempts on them that wait for it. */
  private claiming = new Map<string, Pending<A>[]>();

  constructor(
    private db: Db,
    private claimer: (attempts: A[], now: Date) => Claimer,
  ) {}

  add(attempt: A, clock: { now(): Date }): Promise<Claim> {
    return new Promise((resolve, reject) => {
      const pending = { attempt, clock, resolve, reject };
      const waiting = this.claiming.get(attempt.conversationId);
      if (waiting) waiting.push(pending);
      else this.enqueue(pending);
    });
  }

  private enqueue(pending: Pending<A>) {
    this.next.push(pending);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  private flush() {
    this.scheduled = false;
    const batch = this.next;
    this.next = [];
    const ids = new Set(batch.map((p) => p.attempt.conversationId));
    for (const id of ids) this.claiming.set(id, []);
    const now = batch[0]!.clock.now();
    // Built inside the chain: whatever fails, every attempt of the batch is answered and the requests are let go.
    Promise.resolve()
      .then(() => claimStatement(this.db, this.claimer(batch.map((p) => p.attempt), now), now))
      .then(
        (claims) => batch.forEach((p, i) => p.resolve(claims[i]!)),
        (err: unknown) => batch.forEach((p) => p.reject(err)),
      )
      .finally(() => {
        for (const id of ids) {
          const waiting = this.claiming.get(id)!;
          this.claiming.delete(id);
          for (const p of waiting) this.enqueue(p);
        }
      });
  }
}

interface Pending<A> {
  attempt: A;
  clock: { now(): Date };
  resolve: (claim: Claim) => void;
  reject: (err: unknown) => void;
}

/** One ClaimQueue per database client (tests run several apps, each with its own). */
function claimBatches<A extends { conversationId: string }>(claimer: (attempts: A[], now: Date) => Claimer) {
  const queues = new WeakMap<Db, ClaimQueue<A>>();
  return (deps: { db: Db; clock: { now(): Date } }, attempt: A): Promise<Claim> => {
    let queue = queues.get(deps.db);
    if (!queue) queues.set(deps.db, (queue = new ClaimQueue(deps.db, claimer)));
    return queue.add(attempt, deps.clock);
  };
}

/** service:take's claim: the socket's session is read in the statement. */
export const claimForSession = claimBatches(sessionClaimer);

/** service.take's claim, for an attendant the member procedure let through. */
export const claimForAttendant = claimBatches(attendantsClaimer);
