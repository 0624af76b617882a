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
  signInPerAccount: { max: 10, windowMs: 15 * 60_000 },
  // An office behind one NAT address signs up many people; anonymous visitors of a public
  // company page come in larger numbers still, so each has its own counter.
  signUpPerIp: { max: 30, windowMs: 60 * 60_000 },
  guestPerIp: { max: 60, windowMs: 60 * 60_000 },
  anonymousPerIp: { max: 600, windowMs: 60 * 60_000 },
  codePerIp: { max: 10, windowMs: 60 * 60_000 },
  codePerPhone: { max: 5, windowMs: 60 * 60_000 },
  recoveryPerAccount: { max: 5, windowMs: 60 * 60_000 },
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
