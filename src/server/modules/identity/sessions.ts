import { createHash, randomBytes } from 'node:crypto';
import { parse as parseCookies } from 'cookie';
import { hotQuery, Prisma, type Db } from '../../db/client';
import { batched, perDb } from '../../db/batch';
import { prefixedColumns, unprefix } from '../../db/columns';
import type { Session, User } from '../../../generated/prisma/client';

/**
 * Server-side sessions behind an httpOnly cookie, shared by tRPC and Socket.IO.
 * The cookie holds a random token; the table keeps only its hash, so a database leak does not
 * hand out live sessions.
 */
export const SESSION_COOKIE = 'atende_sid';
export const SESSION_TTL_MS = 30 * 24 * 3_600_000;
/** lastSeenAt is refreshed at most this often, so reads do not turn into writes. */
export const TOUCH_INTERVAL_MS = 5 * 60_000;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export function readCookie(header: string | undefined, name: string): string | undefined {
  return header ? parseCookies(header)[name] : undefined;
}

/**
 * The session token of a request: the cookie, or, for the embeddable widget (an iframe on
 * another site, where browsers withhold our SameSite=Lax cookie), an `Authorization: Bearer`
 * header its script adds. A header is never sent by the browser on its own, so it cannot be
 * ridden by a forged cross-site request; when both are present the header wins, because only
 * the widget sends it.
 */
export function requestToken(headers: { cookie?: string; authorization?: string }, handshakeToken?: unknown): string | undefined {
  const bearer = /^Bearer ([\w-]{1,128})$/.exec(headers.authorization ?? '')?.[1];
  if (bearer) return bearer;
  if (typeof handshakeToken === 'string' && /^[\w-]{1,128}$/.test(handshakeToken)) return handshakeToken;
  return readCookie(headers.cookie, SESSION_COOKIE);
}

export async function createSession(
  db: Db,
  userId: string,
  meta: { userAgent?: string; ip?: string } = {},
  now: Date = new Date(),
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  await db.session.create({
    data: { id: hashToken(token), userId, userAgent: meta.userAgent?.slice(0, 512), ip: meta.ip, createdAt: now, lastSeenAt: now, expiresAt },
  });
  return { token, expiresAt };
}

const SESSION_USER_COLUMNS = Prisma.sql`${prefixedColumns(Prisma.SessionScalarFieldEnum, 's', 's_')}, ${prefixedColumns(Prisma.UserScalarFieldEnum, 'u', 'u_')}`;

/**
 * The session and its user, or null when unknown, expired, or its guest account is past 24 h.
 * Every request pays this, so it is one raw join (an ORM call with an include costs ~3x the CPU
 * in Prisma's query compiler); nothing is cached, so an ended session is refused at once.
 */
/** Session + user rows by token hash; requests arriving together are read in one statement (db/batch.ts). */
const sessionRow = perDb((db: Db) =>
  batched(async (ids: string[]) => {
    const rows = await hotQuery(db, Prisma.sql`
      SELECT ${SESSION_USER_COLUMNS} FROM "Session" s JOIN "User" u ON u."id" = s."userId" WHERE s."id" = ANY(${ids}::text[])`, { prepared: true });
    return new Map(rows.map((r) => [r.s_id as string, r]));
  }, (id: string) => id),
);

export async function resolveSession(db: Db, token: string, at: Date): Promise<{ session: Session; user: User } | null> {
  if (token.length > 128) return null;
  const row = await sessionRow(db, hashToken(token));
  const session = row && unprefix<Session>(row, Prisma.SessionScalarFieldEnum, 's_');
  const user = row && unprefix<User>(row, Prisma.UserScalarFieldEnum, 'u_');
  if (!session || !user) return null;
  const now = at.getTime();
  if (session.expiresAt.getTime() <= now || (user.guestExpiresAt && user.guestExpiresAt.getTime() <= now)) {
    return null;
  }
  await touchSession(db, session, at);
  return { session, user };
}

/**
 * Moves a session's "last seen" when it is older than TOUCH_INTERVAL_MS (so reads do not turn into
 * writes): requests and socket events alike. The sessions of one event-loop turn are written by
 * one statement, without the ORM's runtime (a burst after a quiet spell touches many at once).
 */
export async function touchSession(db: Db, session: Pick<Session, 'id' | 'lastSeenAt'>, at: Date): Promise<void> {
  if (at.getTime() - session.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) await touch(db, { id: session.id, at });
}

const touch = perDb((db: Db) =>
  batched(async (keys: { id: string; at: Date }[]) => {
    // "lastSeenAt" is `timestamp` (no zone) holding UTC, as Prisma writes it: casting the ISO text
    // to timestamp drops its trailing "Z" without shifting the time.
    await hotQuery(db, Prisma.sql`
      UPDATE "Session" s SET "lastSeenAt" = k."at"
      FROM unnest(${keys.map((k) => k.id)}::text[], ${keys.map((k) => k.at.toISOString())}::timestamp[]) AS k("id", "at") WHERE s."id" = k."id"`);
    return new Map<string, never>();
  }, (k: { id: string }) => k.id),
);

export function sessionCookieOptions(expiresAt: Date, secure: boolean) {
  return { httpOnly: true, sameSite: 'lax' as const, secure, path: '/', expires: expiresAt };
}
