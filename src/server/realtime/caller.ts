/**
 * Who is acting, for an acknowledged socket event (chat:send, service:take): the socket's session
 * and the membership in the company named by domain, read from the database for EVERY event, with
 * the rules of the tRPC levels (authed, then member) after. Nothing is cached, so a session ended
 * or a member blocked a moment ago is refused on their next event, on every instance. Events
 * arriving together are read in one statement (db/batch.ts), as the HTTP requests' lookups are.
 * service:take reads the same row inside its claim statement instead (service.ts, takeAsCaller).
 */
import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import type { Company, Member, Session, User } from '../../generated/prisma/client';
import { mayAct } from '../../shared/domain/membership';
import type { SocketRefusal } from '../../shared/realtime';
import { batched, perDb } from '../db/batch';
import { hotQuery, Prisma, type Db } from '../db/client';
import { prefixedColumns, unprefix } from '../db/columns';
import { touchSession } from '../modules/identity/sessions';
import type { z } from 'zod';
import { UNSTORABLE_TEXT_MESSAGE } from '../../shared/limits';
import { AccessError, findUnstorable, publicMessage } from '../trpc';

/** The caller's columns, for a statement joining "Session" s, "User" u, "Company" co and "Member" m (callerFromRow reads them). */
export const CALLER_COLUMNS = Prisma.sql`${prefixedColumns(Prisma.SessionScalarFieldEnum, 's', 's_')}, ${prefixedColumns(Prisma.UserScalarFieldEnum, 'u', 'u_')},
  ${prefixedColumns(Prisma.CompanyScalarFieldEnum, 'co', 'co_')}, ${prefixedColumns(Prisma.MemberScalarFieldEnum, 'm', 'm_')},
  (SELECT "verifyEmail" FROM "AppConfig" WHERE "id" = 1) AS "verifyEmail"`;

/**
 * Joined to a "Session" s: its user u, the company co of `domain` and the user's membership m in it
 * (both null when absent), the tables CALLER_COLUMNS reads.
 */
export const callerJoins = (domain: Prisma.Sql | string) => Prisma.sql`JOIN "User" u ON u."id" = s."userId"
  LEFT JOIN "Company" co ON co."domain" = ${domain} LEFT JOIN "Member" m ON m."companyId" = co."id" AND m."userId" = u."id"`;

/**
 * callerFromRow's rules in SQL, over callerJoins' tables, for a statement that acts in the same
 * round trip as it reads the caller (service:take's claim): true only where callerFromRow lets the
 * caller through. callerFromRow still gives the answer, from the row that statement read (the
 * same snapshot); this only keeps the statement from writing for someone it will refuse, and a
 * mismatch is logged (service.ts, takeAsCaller). tests/realtime/service-take-socket.test.ts proves every
 * refusal through that path: same words, nothing written.
 */
export const callerMayActSql = (now: Date) => Prisma.sql`(s."expiresAt" > ${now}::timestamp(3)
  AND (u."guestExpiresAt" IS NULL OR u."guestExpiresAt" > ${now}::timestamp(3))
  AND co."id" IS NOT NULL AND m."id" IS NOT NULL AND NOT m."blocked" AND NOT m."removed" AND m."inviteAccepted"
  AND NOT (COALESCE((SELECT "verifyEmail" FROM "AppConfig" WHERE "id" = 1), false) AND COALESCE(u."email", '') <> '' AND u."emailVerifiedAt" IS NULL))`;

type CallerKey = { sessionId: string; domain: string };
const callerKey = (k: CallerKey) => `${k.sessionId} ${k.domain}`;

/**
 * Session, user, the company by domain and the user's membership (and AppConfig.verifyEmail) for
 * every (session, domain) asked in the same event-loop turn: what `authedProcedure` and
 * `memberProcedure` read (resolveSession, decideAccess), in one statement for all of them.
 */
const callerRow = perDb((db: Db) =>
  batched(async (keys: CallerKey[]) => {
    const rows = await hotQuery(db, Prisma.sql`
      SELECT k."i"::int AS "_i", ${CALLER_COLUMNS}
      FROM unnest(${keys.map((k) => k.sessionId)}::text[], ${keys.map((k) => k.domain)}::text[]) WITH ORDINALITY AS k("sessionId", "domain", "i")
        JOIN "Session" s ON s."id" = k."sessionId" ${callerJoins(Prisma.sql`k."domain"`)}`, { prepared: true });
    return new Map(rows.map((r) => [callerKey(keys[(r._i as number) - 1]!), r]));
  }, callerKey),
);

/** The caller of a socket event acting for the company of `domain`, or the refusal the member level would give. */
export async function socketCaller(db: Db, sessionId: string, domain: string, now: Date): Promise<SocketCaller> {
  return callerFromRow(db, await callerRow(db, { sessionId, domain }), now);
}

export type SocketCaller = { user: User; company: Company; member: Member };

/**
 * The caller from a row holding CALLER_COLUMNS (undefined: no such session): the rules of
 * resolveSession and decideAccess, in their order, and the session's "last seen" touch.
 */
export async function callerFromRow(db: Db, row: Record<string, unknown> | undefined, now: Date): Promise<SocketCaller> {
  const session = row && unprefix<Session>(row, Prisma.SessionScalarFieldEnum, 's_');
  const user = row && unprefix<User>(row, Prisma.UserScalarFieldEnum, 'u_');
  const t = now.getTime();
  if (!row || !session || !user || session.expiresAt.getTime() <= t || (user.guestExpiresAt && user.guestExpiresAt.getTime() <= t)) {
    throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Sign in to continue' });
  }
  // As resolveSession does: "last seen" moves while someone only acts over their socket too.
  await touchSession(db, session, now);
  const company = unprefix<Company>(row, Prisma.CompanyScalarFieldEnum, 'co_');
  if (!company) throw new TRPCError({ code: 'NOT_FOUND', message: 'Domain not found' });
  const member = unprefix<Member>(row, Prisma.MemberScalarFieldEnum, 'm_');
  const mustVerifyEmail = row.verifyEmail === true && !!user.email && !user.emailVerifiedAt;
  const refusal = mayAct('member', member, { mustVerifyEmail });
  if (refusal) throw new AccessError(refusal);
  return { user, company, member: member! };
}

/** The answer to a refused event, in the procedure's words and HTTP status (the client's retry policy reads both). */
export function refusalAck(err: unknown): SocketRefusal {
  const error = err instanceof TRPCError ? err : new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: err });
  return {
    ok: false,
    error: publicMessage(error),
    httpStatus: getHTTPStatusCodeFromError(error),
    ...(error instanceof AccessError && { access: error.refusal.reason }),
  };
}

/** An event's input checked as a procedure's is: no unstorable characters, then its schema (zod's text for the first issue). */
export function eventInput<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  const where = findUnstorable(raw);
  if (where) throw new TRPCError({ code: 'BAD_REQUEST', message: `${where}: ${UNSTORABLE_TEXT_MESSAGE}` });
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new TRPCError({ code: 'BAD_REQUEST', message: parsed.error.message, cause: parsed.error });
  return parsed.data;
}

/** How an acknowledged event ended, for the metrics: answered, refused as a procedure refuses, or failed unexpectedly. */
export type EventOutcome = 'ok' | 'refused' | 'error';
export type EventObserver = (event: string, outcome: EventOutcome, seconds: number) => void;

/**
 * The listener of an acknowledged event answered the way a procedure answers a request: the
 * handler's result, or the refusal in the procedure's words and HTTP status (refusalAck); an
 * unexpected failure is logged. Timed for the metrics (socketio_event_duration_seconds), as the
 * HTTP requests are, so what moved off HTTP stays visible.
 */
export function answerEvent<A>(
  event: string,
  userId: string,
  deps: { logger: { error(obj: object, msg: string): void }; observe?: EventObserver },
  handle: (raw: unknown) => Promise<A>,
): (raw: unknown, ack: (response: A | SocketRefusal) => void) => void {
  return (raw, ack) => {
    if (typeof ack !== 'function') return;
    const started = performance.now();
    const answer = (outcome: EventOutcome, response: A | SocketRefusal) => {
      deps.observe?.(event, outcome, (performance.now() - started) / 1000);
      ack(response);
    };
    handle(raw).then(
      (result) => answer('ok', result),
      (err: unknown) => {
        const unexpected = !(err instanceof TRPCError) || err.code === 'INTERNAL_SERVER_ERROR';
        if (unexpected) deps.logger.error({ err, userId }, `${event} failed`);
        answer(unexpected ? 'error' : 'refused', refusalAck(err));
      },
    );
  };
}
