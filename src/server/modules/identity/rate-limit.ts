import { TRPCError } from '@trpc/server';
import type { Db } from '../../db/client';

/** 429 with how long to wait in `data.retryAfterMs`, so clients count down without parsing text. */
export class RateLimitedError extends TRPCError {
  constructor(message: string, readonly retryAfterMs: number) {
    super({ code: 'TOO_MANY_REQUESTS', message });
  }
}

export interface Limit {
  /** Attempts allowed per window. */
  max: number;
  windowMs: number;
}

/** Limits of the ways in (per IP and per account), per spec: sign-in, sign-up and code requests. */
export const LIMITS = {
  signInPerIp: { max: 30, windowMs: 15 * 60_000 },
  // An office behind one NAT address signs up many people; anonymous visitors of a public
  // company page come in larger numbers still, so each has its own counter.
  signUpPerIp: { max: 30, windowMs: 60 * 60_000 },
  guestPerIp: { max: 60, windowMs: 60 * 60_000 },
  anonymousPerIp: { max: 600, windowMs: 60 * 60_000 },
  codePerIp: { max: 10, windowMs: 60 * 60_000 },
  codePerPhone: { max: 5, windowMs: 60 * 60_000 },
  recoveryPerAccount: { max: 5, windowMs: 60 * 60_000 },
  // Verification mails sent on the spot (accepting an e-mail invitation): a few per hour.
  verificationPerUser: { max: 5, windowMs: 60 * 60_000 },
} satisfies Record<string, Limit>;

/**
 * Counts one attempt against `key` in a fixed window and refuses with 429 past the limit.
 * One statement, so concurrent attempts on several instances never under-count.
 */
export async function hit(db: Db, key: string, limit: Limit, now: Date): Promise<void> {
  const resetAt = new Date(now.getTime() + limit.windowMs);
  const rows = await db.$queryRaw<{ hits: number; resetAt: Date }[]>`
    INSERT INTO "RateLimit" ("key", "hits", "resetAt") VALUES (${key}, 1, ${resetAt})
    ON CONFLICT ("key") DO UPDATE SET
      "hits" = CASE WHEN "RateLimit"."resetAt" <= ${now} THEN 1 ELSE "RateLimit"."hits" + 1 END,
      "resetAt" = CASE WHEN "RateLimit"."resetAt" <= ${now} THEN ${resetAt} ELSE "RateLimit"."resetAt" END
    RETURNING "hits", "resetAt"`;
  const row = rows[0]!;
  if (row.hits > limit.max) {
    const retryAfterMs = row.resetAt.getTime() - now.getTime();
    const minutes = Math.max(1, Math.ceil(retryAfterMs / 60_000));
    throw new RateLimitedError(`Too many attempts. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`, retryAfterMs);
  }
}

/**
 * Failed sign-ins are throttled per account + client address, not per account: a stranger who
 * types wrong passwords for someone else's e-mail slows down only himself, and the owner signing
 * in from his own address is never locked out. The first FREE_FAILURES are free; after that each
 * failure makes the next try wait twice as long (1, 2, 4, 8 minutes...) up to MAX_DELAY_MS. The
 * count is forgotten a day after the last failure, and at once on a successful sign-in.
 */
export const SIGN_IN_PAIR_PREFIX = 'signin:pair:';
export const SIGN_IN_THROTTLE = { freeFailures: 5, firstDelayMs: 60_000, maxDelayMs: 15 * 60_000, forgetAfterMs: 24 * 3_600_000 };

export function signInDelayMs(failures: number): number {
  const { freeFailures, firstDelayMs, maxDelayMs } = SIGN_IN_THROTTLE;
  if (failures < freeFailures) return 0;
  return Math.min(maxDelayMs, firstDelayMs * 2 ** (failures - freeFailures));
}

const tooManyAttempts = (retryAfterMs: number) => {
  const minutes = Math.max(1, Math.ceil(retryAfterMs / 60_000));
  return new RateLimitedError(`Too many attempts. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`, retryAfterMs);
};

/**
 * Takes the right to one sign-in attempt for `key` (account + address), counted as a failure
 * until `clear` says otherwise: concurrent guesses cannot all slip in before the first failure is
 * written. The row is locked for the decision, so instances agree. Refuses with 429 while waiting.
 */
export async function takeSignInAttempt(db: Db, key: string, now: Date): Promise<void> {
  const retryAfterMs = await db.$transaction(async (tx) => {
    await tx.$executeRaw`INSERT INTO "RateLimit" ("key", "hits", "resetAt") VALUES (${key}, 0, ${now}) ON CONFLICT ("key") DO NOTHING`;
    const [row] = await tx.$queryRaw<{ hits: number; resetAt: Date }[]>`SELECT "hits", "resetAt" FROM "RateLimit" WHERE "key" = ${key} FOR UPDATE`;
    // resetAt is when the next attempt is allowed; a day past it, the failures are forgotten.
    const stale = row!.resetAt.getTime() + SIGN_IN_THROTTLE.forgetAfterMs <= now.getTime();
    const failures = stale ? 0 : row!.hits;
    const wait = stale ? 0 : row!.resetAt.getTime() - now.getTime();
    if (wait > 0) return wait;
    const next = failures + 1;
    await tx.$executeRaw`UPDATE "RateLimit" SET "hits" = ${next}, "resetAt" = ${new Date(now.getTime() + signInDelayMs(next))} WHERE "key" = ${key}`;
    return 0;
  });
  if (retryAfterMs > 0) throw tooManyAttempts(retryAfterMs);
}

/** A successful sign-in forgets the failures of this account + address. */
export async function clearSignInAttempts(db: Db, key: string): Promise<void> {
  await db.$executeRaw`DELETE FROM "RateLimit" WHERE "key" = ${key}`;
}
