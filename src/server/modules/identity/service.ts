import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { TRPCError } from '@trpc/server';
import type { z } from 'zod';
import type { Prisma, User } from '../../../generated/prisma/client';
import { GUEST_ACCOUNT_TTL_MS } from '../../../shared/constants';
import { resendWaitMs } from '../../../shared/domain/countdown';
import {
  IDENTITY_MESSAGES as M,
  type accountUpdateInput,
  type phoneCodeVerifyInput,
  type resetPasswordInput,
  type signInInput,
  type signUpInput,
} from '../../../shared/schemas/identity';
import type { Realtime } from '../../realtime';
import type { Clock } from '../../clock';
import type { Db } from '../../db/client';
import type { Mailer } from '../../mail';
import { passwordResetMail, verificationMail } from '../../mail/templates';
import type { SmsSender } from '../../sms';
import { moveCallRows } from '../calls/service';
import { moveChatRows } from '../chat/service';
import { assertAcceptablePassword, hashPassword, verifyPassword } from './passwords';
import { clearSignInAttempts, hit, LIMITS, RateLimitedError, SIGN_IN_PAIR_PREFIX, takeSignInAttempt } from './rate-limit';
import { createSession } from './sessions';

export interface IdentityDeps {
  db: Db;
  clock: Clock;
  mailer: Mailer;
  sms: SmsSender;
  publicUrl: string;
  /** Where a mail sent in the background reports its failure. */
  log?: { error(obj: object, msg: string): void };
  /** Ends the sockets of sessions that end here (sign-out, revocation, password reset). */
  realtime: Pick<Realtime, 'endSessions' | 'endUserSockets'>;
  /**
   * Stops the calls ringing for or to a person no session of whom is left (the calls module's
   * endRingsOf): nobody could answer those rings or hear them answered. Unset: nothing rings here.
   */
  endRings?: (userId: string) => Promise<void>;
}
/** Who is asking and from where: the rate limits and the session list need it. */
export interface RequestMeta {
  ip: string;
  userAgent?: string;
}
export interface SignedIn {
  user: User;
  token: string;
  expiresAt: Date;
}

const RESET_TTL_MS = 60 * 60_000;
const VERIFY_TTL_MS = 24 * 3_600_000;
const PHONE_CODE_TTL_MS = 10 * 60_000;
const PHONE_CODE_MAX_FAILURES = 5;
/** Codes sent to one phone within this window count as attempts 1, 2, 3...: the wait grows. */
const PHONE_ATTEMPT_WINDOW_MS = 60 * 60_000;

const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');

async function startSession(deps: IdentityDeps, user: User, meta: RequestMeta): Promise<SignedIn> {
  const { token, expiresAt } = await createSession(deps.db, user.id, meta, deps.clock.now());
  return { user, token, expiresAt };
}

// ---- anonymous users and guests ---------------------------------------------------------------

export async function signInAnonymously(deps: IdentityDeps, meta: RequestMeta): Promise<SignedIn> {
  await hit(deps.db, `anonymous:ip:${meta.ip}`, LIMITS.anonymousPerIp, deps.clock.now());
  const user = await deps.db.user.create({ data: { anonymous: true } });
  return startSession(deps, user, meta);
}

/** A guest account expires 24 h after creation; an anonymous caller becomes the guest in place. */
export async function signInAsGuest(deps: IdentityDeps, caller: User | null, name: string, meta: RequestMeta): Promise<SignedIn> {
  await hit(deps.db, `guest:ip:${meta.ip}`, LIMITS.guestPerIp, deps.clock.now());
  const guestExpiresAt = new Date(deps.clock.now().getTime() + GUEST_ACCOUNT_TTL_MS);
  if (!caller?.anonymous) return startSession(deps, await deps.db.user.create({ data: { name, guestExpiresAt } }), meta);
  // A new identity gets a new token: the anonymous one must not open the guest account.
  const [user] = await deps.db.$transaction([
    deps.db.user.update({ where: { id: caller.id }, data: { anonymous: false, name, guestExpiresAt } }),
    deps.db.session.deleteMany({ where: { userId: caller.id } }),
  ]);
  return startSession(deps, user, meta);
}

/** Removes guests whose 24 hours are over, with their sessions (cascade). Run by a cron job. */
export async function purgeExpiredGuests(deps: Pick<IdentityDeps, 'db' | 'clock'>): Promise<number> {
  const { count } = await deps.db.user.deleteMany({ where: { guestExpiresAt: { lte: deps.clock.now() } } });
  return count;
}

// ---- e-mail and password ----------------------------------------------------------------------

/**
 * Signs up with e-mail and password. An anonymous caller keeps everything it did: its own user
 * row becomes the account. An e-mail already in use is refused ('Email is already in use!'); an
 * anonymous caller's client then offers to link ('Vincular Contas') by signing in.
 */
export async function signUp(deps: IdentityDeps, caller: User | null, input: z.output<typeof signUpInput>, meta: RequestMeta): Promise<SignedIn> {
  await hit(deps.db, `signup:ip:${meta.ip}`, LIMITS.signUpPerIp, deps.clock.now());
  assertAcceptablePassword(input.password, input.email);
  const passwordHash = await hashPassword(input.password);
  const data = { name: input.name, email: input.email, passwordHash, anonymous: false, guestExpiresAt: null };
  let user: User;
  try {
    user = caller?.anonymous
      ? await deps.db.user.update({ where: { id: caller.id }, data })
      : await deps.db.user.create({ data });
  } catch (err) {
    if ((err as { code?: string }).code === 'P2002') throw new TRPCError({ code: 'CONFLICT', message: M.emailInUse });
    throw err;
  }
  if (caller?.anonymous) await deps.db.session.deleteMany({ where: { userId: user.id } });
  const config = await deps.db.appConfig.findUnique({ where: { id: 1 } });
  if (config?.verifyEmail) await sendVerificationEmail(deps, user, input.redirect);
  return startSession(deps, user, meta);
}

/**
 * Signs in; an anonymous caller's conversations and participations move to the account.
 * An unknown e-mail and a wrong password get the same answer after the same work (a password
 * hash is checked either way), and the same throttle: the answer never says whether the account
 * exists (docs/decisions.md).
 */
export async function signIn(deps: IdentityDeps, caller: User | null, input: z.output<typeof signInInput>, meta: RequestMeta): Promise<SignedIn> {
  const now = deps.clock.now();
  await hit(deps.db, `signin:ip:${meta.ip}`, LIMITS.signInPerIp, now);
  const throttleKey = `${SIGN_IN_PAIR_PREFIX}${input.email}:${meta.ip}`;
  await takeSignInAttempt(deps.db, throttleKey, now);
  const user = await deps.db.user.findUnique({ where: { email: input.email } });
  if (!(await verifyPassword(user?.passwordHash, input.password)) || !user) {
    throw new TRPCError({ code: 'UNAUTHORIZED', message: M.invalidPassword });
  }
  await clearSignInAttempts(deps.db, throttleKey);
  if (caller?.anonymous && caller.id !== user.id) await mergeAnonymousUser(deps.db, caller.id, user.id);
  return startSession(deps, user, meta);
}

/** The session ends on every channel: its next HTTP call and its open sockets, on every instance. */
export async function signOut(deps: Pick<IdentityDeps, 'db' | 'clock' | 'realtime' | 'endRings'>, sessionId: string): Promise<void> {
  const session = await deps.db.session.findUnique({ where: { id: sessionId }, select: { userId: true } });
  await deps.db.session.deleteMany({ where: { id: sessionId } });
  deps.realtime.endSessions([sessionId]);
  if (session) await afterSessionEnded(deps, session.userId);
}

/** The last session of the person ended: what rings for them or to them stops (endRings). */
async function afterSessionEnded(deps: Pick<IdentityDeps, 'db' | 'clock' | 'endRings'>, userId: string) {
  if (!deps.endRings) return;
  // An expired row that nobody swept yet is no way to answer either.
  if ((await deps.db.session.count({ where: { userId, expiresAt: { gt: deps.clock.now() } } })) > 0) return;
  await deps.endRings(userId);
}

/**
 * What an anonymous user did moves to the account it signs in to, then the anonymous user is
 * deleted (spec: credential already in use). Each module that owns per-user rows adds its step.
 */
export async function mergeAnonymousUser(db: Db, fromId: string, toId: string): Promise<void> {
  await db.$transaction(async (tx) => {
    const targetCompanies = new Set((await tx.member.findMany({ where: { userId: toId }, select: { companyId: true } })).map((m) => m.companyId));
    await tx.member.updateMany({ where: { userId: fromId, companyId: { notIn: [...targetCompanies] } }, data: { userId: toId } });
    const targetInvites = new Set((await tx.invite.findMany({ where: { userId: toId }, select: { companyId: true } })).map((i) => i.companyId));
    await tx.invite.updateMany({ where: { userId: fromId, companyId: { notIn: [...targetInvites] } }, data: { userId: toId } });
    await moveChatRows(tx, fromId, toId);
    await moveCallRows(tx, fromId, toId);
    await tx.user.delete({ where: { id: fromId } });
  });
}

// ---- single-use links by e-mail ---------------------------------------------------------------

type MailDeps = Pick<IdentityDeps, 'db' | 'clock' | 'mailer' | 'publicUrl'>;

async function issueToken(deps: MailDeps, userId: string, purpose: 'passwordReset' | 'emailVerification', ttlMs: number) {
  const token = randomBytes(32).toString('base64url');
  await deps.db.authToken.create({
    data: { id: sha256(token), userId, purpose, createdAt: deps.clock.now(), expiresAt: new Date(deps.clock.now().getTime() + ttlMs) },
  });
  return token;
}

/** Marks the token used and returns its user, or refuses when it is unknown, used or expired. */
async function consumeToken(deps: IdentityDeps, token: string, purpose: 'passwordReset' | 'emailVerification') {
  const now = deps.clock.now();
  // The update's conditions make "use once" hold under concurrency: only one caller gets count 1.
  const { count } = await deps.db.authToken.updateMany({
    where: { id: sha256(token), purpose, usedAt: null, expiresAt: { gt: now } },
    data: { usedAt: now },
  });
  if (count !== 1) throw new TRPCError({ code: 'BAD_REQUEST', message: M.linkExpired });
  const row = await deps.db.authToken.findUniqueOrThrow({ where: { id: sha256(token) }, include: { user: true } });
  return row.user;
}

/**
 * Mails a reset link when the address has an account. The answer is the same either way, and the
 * mail leaves in the background, so neither the text nor the time tells whether it exists.
 */
export async function requestPasswordReset(deps: IdentityDeps, email: string, meta: RequestMeta): Promise<void> {
  const now = deps.clock.now();
  await hit(deps.db, `recovery:ip:${meta.ip}`, LIMITS.signInPerIp, now);
  await hit(deps.db, `recovery:account:${email}`, LIMITS.recoveryPerAccount, now);
  const user = await deps.db.user.findUnique({ where: { email } });
  if (!user) return;
  const token = await issueToken(deps, user.id, 'passwordReset', RESET_TTL_MS);
  deps.mailer
    .send(passwordResetMail({ to: email, name: user.name, link: `${deps.publicUrl}/i/login/mail/recovery?token=${token}` }))
    .catch((err: unknown) => deps.log?.error({ err }, 'password reset mail failed'));
}

/** Sets the new password, ends every old session, and signs this browser in. */
export async function resetPassword(deps: IdentityDeps, input: z.output<typeof resetPasswordInput>, meta: RequestMeta): Promise<SignedIn> {
  // Checked before the link is spent, so a refused password does not cost the link.
  const pending = await deps.db.authToken.findUnique({ where: { id: sha256(input.token) }, select: { purpose: true, user: { select: { email: true } } } });
  if (pending?.purpose === 'passwordReset') assertAcceptablePassword(input.password, pending.user.email);
  const user = await consumeToken(deps, input.token, 'passwordReset');
  const passwordHash = await hashPassword(input.password);
  const [updated] = await deps.db.$transaction([
    deps.db.user.update({ where: { id: user.id }, data: { passwordHash } }),
    deps.db.session.deleteMany({ where: { userId: user.id } }),
  ]);
  // Whoever held the old password may hold a session: every one ends, sockets included.
  deps.realtime.endUserSockets(user.id);
  return startSession(deps, updated, meta);
}

export async function sendVerificationEmail(deps: MailDeps, user: User, redirect = '/i/recent'): Promise<void> {
  if (!user.email) throw new TRPCError({ code: 'BAD_REQUEST', message: M.invalidEmail });
  const token = await issueToken(deps, user.id, 'emailVerification', VERIFY_TTL_MS);
  const link = `${deps.publicUrl}/i/emailVerification?token=${token}&redirect=${encodeURIComponent(redirect)}`;
  await deps.mailer.send(verificationMail({ to: user.email, name: user.name, link }));
}

export async function verifyEmail(deps: IdentityDeps, token: string): Promise<User> {
  const user = await consumeToken(deps, token, 'emailVerification');
  return deps.db.user.update({ where: { id: user.id }, data: { emailVerifiedAt: deps.clock.now() } });
}

// ---- phone ------------------------------------------------------------------------------------

/** Sends a 6-digit code. The next one may be asked for after 90 s times this attempt's number. */
export async function requestPhoneCode(deps: IdentityDeps, phone: string, meta: RequestMeta): Promise<{ attempt: number; resendInMs: number }> {
  const now = deps.clock.now();
  const last = await deps.db.phoneCode.findFirst({ where: { phone }, orderBy: { createdAt: 'desc' } });
  if (last) {
    const wait = last.createdAt.getTime() + resendWaitMs(last.attempt) - now.getTime();
    if (wait > 0) {
      throw new RateLimitedError(`Wait ${Math.ceil(wait / 1000)} seconds before asking for a new code.`, wait);
    }
  }
  await hit(deps.db, `code:ip:${meta.ip}`, LIMITS.codePerIp, now);
  await hit(deps.db, `code:phone:${phone}`, LIMITS.codePerPhone, now);
  const attempt = last && now.getTime() - last.createdAt.getTime() < PHONE_ATTEMPT_WINDOW_MS ? last.attempt + 1 : 1;
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await deps.db.phoneCode.create({
    data: { phone, codeHash: sha256(`${phone}:${code}`), attempt, createdAt: now, expiresAt: new Date(now.getTime() + PHONE_CODE_TTL_MS) },
  });
  await deps.sms.send(phone, `Atende: your code is ${code}`);
  return { attempt, resendInMs: resendWaitMs(attempt) };
}

/** Spends the newest pending code of `phone` when `code` matches it; the SMS proof of the number. */
async function consumePhoneCode(deps: IdentityDeps, input: z.output<typeof phoneCodeVerifyInput>, meta: RequestMeta): Promise<void> {
  const now = deps.clock.now();
  await hit(deps.db, `signin:ip:${meta.ip}`, LIMITS.signInPerIp, now);
  const pending = await deps.db.phoneCode.findFirst({ where: { phone: input.phone, usedAt: null }, orderBy: { createdAt: 'desc' } });
  if (!pending || pending.expiresAt <= now || pending.failures >= PHONE_CODE_MAX_FAILURES) {
    throw new TRPCError({ code: 'BAD_REQUEST', message: M.codeExpired });
  }
  const expected = Buffer.from(pending.codeHash);
  const given = Buffer.from(sha256(`${input.phone}:${input.code}`));
  if (!timingSafeEqual(expected, given)) {
    await deps.db.phoneCode.update({ where: { id: pending.id }, data: { failures: { increment: 1 } } });
    throw new TRPCError({ code: 'BAD_REQUEST', message: M.invalidCode });
  }
  const { count } = await deps.db.phoneCode.updateMany({ where: { id: pending.id, usedAt: null }, data: { usedAt: now } });
  if (count !== 1) throw new TRPCError({ code: 'BAD_REQUEST', message: M.codeExpired });
}

/**
 * The account that proved `phone`, if any. A number only typed on some account (never proven)
 * is taken off it: the number belongs to whoever proves it, and that account must never be
 * reachable by phone sign-in.
 */
async function provenPhoneOwner(tx: Prisma.TransactionClient, phone: string): Promise<User | null> {
  const holder = await tx.user.findUnique({ where: { phone } });
  if (!holder || holder.phoneVerifiedAt) return holder;
  await tx.user.update({ where: { id: holder.id }, data: { phone: null, phoneVerifiedAt: null } });
  return null;
}

/** Signs in (or up) with the code; an anonymous caller becomes, or merges into, that account. */
export async function verifyPhoneCode(deps: IdentityDeps, caller: User | null, input: z.output<typeof phoneCodeVerifyInput>, meta: RequestMeta): Promise<SignedIn> {
  await consumePhoneCode(deps, input, meta);
  const now = deps.clock.now();
  const { user, merge } = await deps.db.$transaction(async (tx) => {
    const owner = await provenPhoneOwner(tx, input.phone);
    if (owner) return { user: owner, merge: caller?.anonymous && caller.id !== owner.id };
    if (caller?.anonymous) {
      const user = await tx.user.update({ where: { id: caller.id }, data: { phone: input.phone, phoneVerifiedAt: now, anonymous: false } });
      await tx.session.deleteMany({ where: { userId: user.id } });
      return { user, merge: false };
    }
    return { user: await tx.user.create({ data: { phone: input.phone, phoneVerifiedAt: now } }), merge: false };
  });
  if (merge) await mergeAnonymousUser(deps.db, caller!.id, user.id);
  return startSession(deps, user, meta);
}

/** Adding or changing the account's phone: the number is attached only once its code comes back. */
export async function confirmPhoneChange(deps: IdentityDeps, user: User, input: z.output<typeof phoneCodeVerifyInput>, meta: RequestMeta): Promise<User> {
  await consumePhoneCode(deps, input, meta);
  return deps.db.$transaction(async (tx) => {
    const owner = await provenPhoneOwner(tx, input.phone);
    // Proven by another account too: that account signs in with it; it is not taken from it.
    if (owner && owner.id !== user.id) throw new TRPCError({ code: 'CONFLICT', message: M.phoneInUse });
    return tx.user.update({ where: { id: user.id }, data: { phone: input.phone, phoneVerifiedAt: deps.clock.now() } });
  });
}

// ---- the account page -------------------------------------------------------------------------

export async function listSessions(db: Db, userId: string, currentSessionId: string) {
  const sessions = await db.session.findMany({ where: { userId }, orderBy: { lastSeenAt: 'desc' } });
  return sessions.map((s) => ({
    id: s.id,
    userAgent: s.userAgent,
    ip: s.ip,
    createdAt: s.createdAt,
    lastSeenAt: s.lastSeenAt,
    current: s.id === currentSessionId,
  }));
}

export async function revokeSession(deps: Pick<IdentityDeps, 'db' | 'clock' | 'realtime' | 'endRings'>, userId: string, sessionId: string): Promise<void> {
  // Scoped by user: a session id of someone else revokes nothing, and closes none of its sockets.
  const { count } = await deps.db.session.deleteMany({ where: { id: sessionId, userId } });
  if (count) {
    deps.realtime.endSessions([sessionId]);
    await afterSessionEnded(deps, userId);
  }
}

/**
 * The account page. The phone can be removed here or sent back unchanged; a new number goes
 * through requestPhoneCode + confirmPhoneChange, so no one attaches a number they do not hold.
 */
export async function updateAccount(db: Db, user: User, input: z.output<typeof accountUpdateInput>): Promise<User> {
  const settings = input.settings ? { ...(user.settings as Record<string, unknown>), ...input.settings } : undefined;
  if (input.phone && input.phone !== user.phone) throw new TRPCError({ code: 'BAD_REQUEST', message: M.phoneNeedsCode });
  return db.user.update({
    where: { id: user.id },
    data: {
      name: input.name,
      ...(input.phone === '' ? { phone: null, phoneVerifiedAt: null } : {}),
      language: input.language,
      presence: input.presence,
      settings,
    },
  });
}

/** The signed-in user as the client sees it: never the password hash. */
export async function describeMe(db: Db, user: User | null) {
  const config = await db.appConfig.findUnique({ where: { id: 1 } });
  const app = { minimalVersion: config?.minimalVersion ?? '0.0.0', verifyEmail: config?.verifyEmail ?? false };
  if (!user) return { user: null, app };
  const settings = user.settings as Record<string, boolean | undefined>;
  return {
    app,
    user: {
      id: user.id,
      name: user.name,
      email: user.email,
      phone: user.phone,
      phoneVerified: user.phoneVerifiedAt !== null,
      anonymous: user.anonymous,
      guest: user.guestExpiresAt !== null,
      guestExpiresAt: user.guestExpiresAt,
      emailVerified: user.emailVerifiedAt !== null,
      needsEmailVerification: app.verifyEmail && !!user.email && !user.emailVerifiedAt,
      hasAvatar: user.avatarKey !== null,
      language: user.language,
      presence: user.presence,
      // Sounds and pushes are allowed while unset (spec 6).
      settings: {
        playMessagensReceive: settings.playMessagensReceive ?? true,
        playFila: settings.playFila ?? true,
        playNotificationFila: settings.playNotificationFila ?? true,
      },
    },
  };
}

/**
 * A person who reaches a company only through a relay (WhatsApp, Telegram): an account with a
 * name and no way to sign in. The channels module keeps how to reach them.
 */
export function createRelayUser(db: Db | Prisma.TransactionClient, name: string, now: Date): Promise<User> {
  return db.user.create({ data: { name: name.trim().slice(0, 100) || '?', createdAt: now } });
}
