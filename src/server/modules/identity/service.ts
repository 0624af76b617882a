import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { TRPCError } from '@trpc/server';
import argon2 from 'argon2';
import type { z } from 'zod';
import type { User } from '../../../generated/prisma/client';
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
import { hit, LIMITS, RateLimitedError } from './rate-limit';
import { createSession } from './sessions';

export interface IdentityDeps {
  db: Db;
  clock: Clock;
  mailer: Mailer;
  sms: SmsSender;
  publicUrl: string;
  /** Ends the sockets of sessions that end here (sign-out, revocation, password reset). */
  realtime: Pick<Realtime, 'endSessions' | 'endUserSockets'>;
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
const hashPassword = (password: string) => argon2.hash(password, { type: argon2.argon2id });

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
  const user = caller?.anonymous
    ? await deps.db.user.update({ where: { id: caller.id }, data: { anonymous: false, name, guestExpiresAt } })
    : await deps.db.user.create({ data: { name, guestExpiresAt } });
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

/** Signs in; an anonymous caller's conversations and participations move to the account. */
export async function signIn(deps: IdentityDeps, caller: User | null, input: z.output<typeof signInInput>, meta: RequestMeta): Promise<SignedIn> {
  const now = deps.clock.now();
  await hit(deps.db, `signin:ip:${meta.ip}`, LIMITS.signInPerIp, now);
  await hit(deps.db, `signin:account:${input.email}`, LIMITS.signInPerAccount, now);
  const user = await deps.db.user.findUnique({ where: { email: input.email } });
  if (!user) throw new TRPCError({ code: 'NOT_FOUND', message: M.userNotFound });
  if (!user.passwordHash || !(await argon2.verify(user.passwordHash, input.password))) {
    throw new TRPCError({ code: 'UNAUTHORIZED', message: M.invalidPassword });
  }
  if (caller?.anonymous && caller.id !== user.id) await mergeAnonymousUser(deps.db, caller.id, user.id);
  return startSession(deps, user, meta);
}

/** The session ends on every channel: its next HTTP call and its open sockets, on every instance. */
export async function signOut(deps: Pick<IdentityDeps, 'db' | 'realtime'>, sessionId: string): Promise<void> {
  await deps.db.session.deleteMany({ where: { id: sessionId } });
  deps.realtime.endSessions([sessionId]);
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

async function issueToken(deps: IdentityDeps, userId: string, purpose: 'passwordReset' | 'emailVerification', ttlMs: number) {
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

export async function requestPasswordReset(deps: IdentityDeps, email: string, meta: RequestMeta): Promise<void> {
  const now = deps.clock.now();
  await hit(deps.db, `recovery:ip:${meta.ip}`, LIMITS.signInPerIp, now);
  await hit(deps.db, `recovery:account:${email}`, LIMITS.recoveryPerAccount, now);
  const user = await deps.db.user.findUnique({ where: { email } });
  if (!user) throw new TRPCError({ code: 'NOT_FOUND', message: M.userNotFound });
  const token = await issueToken(deps, user.id, 'passwordReset', RESET_TTL_MS);
  await deps.mailer.send(passwordResetMail({ to: email, name: user.name, link: `${deps.publicUrl}/i/login/mail/recovery?token=${token}` }));
}

/** Sets the new password, ends every old session, and signs this browser in. */
export async function resetPassword(deps: IdentityDeps, input: z.output<typeof resetPasswordInput>, meta: RequestMeta): Promise<SignedIn> {
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

export async function sendVerificationEmail(deps: IdentityDeps, user: User, redirect = '/i/recent'): Promise<void> {
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

/** Signs in (or up) with the code; an anonymous caller becomes, or merges into, that account. */
export async function verifyPhoneCode(deps: IdentityDeps, caller: User | null, input: z.output<typeof phoneCodeVerifyInput>, meta: RequestMeta): Promise<SignedIn> {
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

  let user = await deps.db.user.findUnique({ where: { phone: input.phone } });
  if (user) {
    if (caller?.anonymous && caller.id !== user.id) await mergeAnonymousUser(deps.db, caller.id, user.id);
  } else if (caller?.anonymous) {
    user = await deps.db.user.update({ where: { id: caller.id }, data: { phone: input.phone, anonymous: false } });
    await deps.db.session.deleteMany({ where: { userId: user.id } });
  } else {
    user = await deps.db.user.create({ data: { phone: input.phone } });
  }
  return startSession(deps, user, meta);
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

export async function revokeSession(deps: Pick<IdentityDeps, 'db' | 'realtime'>, userId: string, sessionId: string): Promise<void> {
  // Scoped by user: a session id of someone else revokes nothing, and closes none of its sockets.
  const { count } = await deps.db.session.deleteMany({ where: { id: sessionId, userId } });
  if (count) deps.realtime.endSessions([sessionId]);
}

export async function updateAccount(db: Db, user: User, input: z.output<typeof accountUpdateInput>): Promise<User> {
  const settings = input.settings ? { ...(user.settings as Record<string, unknown>), ...input.settings } : undefined;
  try {
    return await db.user.update({
      where: { id: user.id },
      data: {
        name: input.name,
        phone: input.phone === '' ? null : input.phone,
        language: input.language,
        presence: input.presence,
        settings,
      },
    });
  } catch (err) {
    if ((err as { code?: string }).code === 'P2002') throw new TRPCError({ code: 'CONFLICT', message: 'This phone number is already in use' });
    throw err;
  }
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
