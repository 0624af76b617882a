import { createHash, randomBytes } from 'node:crypto';
import { parse as parseCookies } from 'cookie';
import type { Db } from '../../db/client';

/**
 * Server-side sessions behind an httpOnly cookie, shared by tRPC and Socket.IO.
 * The cookie holds a random token; the table keeps only its hash, so a database leak does not
 * hand out live sessions.
 */
export const SESSION_COOKIE = 'atende_sid';
export const SESSION_TTL_MS = 30 * 24 * 3_600_000;
/** lastSeenAt is refreshed at most this often, so reads do not turn into writes. */
const TOUCH_INTERVAL_MS = 5 * 60_000;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export function readCookie(header: string | undefined, name: string): string | undefined {
  return header ? parseCookies(header)[name] : undefined;
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

/** The session and its user, or null when unknown, expired, or its guest account is past 24 h. */
export async function resolveSession(db: Db, token: string, at: Date) {
  if (token.length > 128) return null;
  const session = await db.session.findUnique({ where: { id: hashToken(token) }, include: { user: true } });
  if (!session) return null;
  const now = at.getTime();
  if (session.expiresAt.getTime() <= now || (session.user.guestExpiresAt && session.user.guestExpiresAt.getTime() <= now)) {
    return null;
  }
  if (now - session.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) {
    await db.session.updateMany({ where: { id: session.id }, data: { lastSeenAt: at } });
  }
  const { user, ...rest } = session;
  return { session: rest, user };
}

export function sessionCookieOptions(expiresAt: Date, secure: boolean) {
  return { httpOnly: true, sameSite: 'lax' as const, secure, path: '/', expires: expiresAt };
}
