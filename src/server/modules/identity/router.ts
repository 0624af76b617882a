import type { Request, Response } from 'express';
import { z } from 'zod';
import {
  accountUpdateInput,
  guestInput,
  redirectSchema,
  phoneChangeConfirmInput,
  phoneChangeRequestInput,
  phoneCodeRequestInput,
  phoneCodeVerifyInput,
  recoveryRequestInput,
  resetPasswordInput,
  signInInput,
  signUpInput,
  tokenSchema,
} from '../../../shared/schemas/identity';
import type { AppDeps } from '../../deps';
import { authedProcedure, publicProcedure, router } from '../../trpc';
import { callsDepsOf, endRingsOf } from '../calls/service';
import * as identity from './service';
import { SESSION_COOKIE, sessionCookieOptions } from './sessions';

type Ctx = AppDeps & { req: Request; res: Response };

const deps = (ctx: Ctx): identity.IdentityDeps => ({
  db: ctx.db,
  clock: ctx.clock,
  mailer: ctx.mailer,
  sms: ctx.sms,
  publicUrl: ctx.config.publicUrl,
  log: ctx.logger,
  realtime: ctx.realtime,
  endRings: (userId) => endRingsOf(callsDepsOf(ctx), userId),
});
const meta = (ctx: Ctx): identity.RequestMeta => ({ ip: ctx.req.ip ?? 'unknown', userAgent: ctx.req.get('user-agent') });

/**
 * Sets the session cookie and answers what the client needs to know about the user. The session
 * the browser came with ends: no token outlives a change of identity (a fixed or stolen
 * anonymous or guest token must not follow its holder into the account).
 */
async function signedIn(ctx: Ctx & { session: { id: string } | null }, result: identity.SignedIn) {
  if (ctx.session) await identity.signOut(ctx, ctx.session.id);
  ctx.res.cookie(SESSION_COOKIE, result.token, sessionCookieOptions(result.expiresAt, ctx.config.publicUrl.startsWith('https:')));
  return identity.describeMe(ctx.db, result.user);
}

export const authRouter = router({
  me: publicProcedure.query(({ ctx }) => identity.describeMe(ctx.db, ctx.user)),
  anonymous: publicProcedure.mutation(async ({ ctx }) =>
    ctx.user ? identity.describeMe(ctx.db, ctx.user) : signedIn(ctx, await identity.signInAnonymously(deps(ctx), meta(ctx))),
  ),
  /**
   * The embeddable widget's visitor: an anonymous session whose token goes back in the answer
   * instead of a cookie (the iframe sits on another site, where browsers withhold our cookie);
   * the widget sends it as a Bearer header. See docs/decisions.md, "Embeddable widget".
   */
  embedSession: publicProcedure.mutation(async ({ ctx }) => {
    const result = await identity.signInAnonymously(deps(ctx), meta(ctx));
    return { token: result.token, me: await identity.describeMe(ctx.db, result.user) };
  }),
  guest: publicProcedure.input(guestInput).mutation(async ({ ctx, input }) => signedIn(ctx, await identity.signInAsGuest(deps(ctx), ctx.user, input.name, meta(ctx)))),
  signUp: publicProcedure.input(signUpInput).mutation(async ({ ctx, input }) => signedIn(ctx, await identity.signUp(deps(ctx), ctx.user, input, meta(ctx)))),
  signIn: publicProcedure.input(signInInput).mutation(async ({ ctx, input }) => signedIn(ctx, await identity.signIn(deps(ctx), ctx.user, input, meta(ctx)))),
  signOut: authedProcedure.mutation(async ({ ctx }) => {
    await identity.signOut(deps(ctx), ctx.session.id);
    ctx.res.clearCookie(SESSION_COOKIE, { path: '/' });
    return { ok: true };
  }),
  requestPasswordReset: publicProcedure.input(recoveryRequestInput).mutation(async ({ ctx, input }) => {
    await identity.requestPasswordReset(deps(ctx), input.email, meta(ctx));
    return { sentTo: input.email };
  }),
  resetPassword: publicProcedure.input(resetPasswordInput).mutation(async ({ ctx, input }) => signedIn(ctx, await identity.resetPassword(deps(ctx), input, meta(ctx)))),
  sendVerificationEmail: authedProcedure
    .input(z.object({ redirect: redirectSchema.optional() }))
    .mutation(async ({ ctx, input }) => {
      await identity.sendVerificationEmail(deps(ctx), ctx.user, input.redirect);
      return { sentTo: ctx.user.email };
    }),
  verifyEmail: publicProcedure.input(z.object({ token: tokenSchema })).mutation(async ({ ctx, input }) => {
    const user = await identity.verifyEmail(deps(ctx), input.token);
    return { email: user.email };
  }),
  requestPhoneCode: publicProcedure.input(phoneCodeRequestInput).mutation(({ ctx, input }) => identity.requestPhoneCode(deps(ctx), input.phone, meta(ctx))),
  verifyPhoneCode: publicProcedure.input(phoneCodeVerifyInput).mutation(async ({ ctx, input }) => signedIn(ctx, await identity.verifyPhoneCode(deps(ctx), ctx.user, input, meta(ctx)))),
});

export const accountRouter = router({
  sessions: authedProcedure.query(({ ctx }) => identity.listSessions(ctx.db, ctx.user.id, ctx.session.id)),
  revokeSession: authedProcedure.input(z.object({ id: z.string().max(128) })).mutation(async ({ ctx, input }) => {
    await identity.revokeSession(deps(ctx), ctx.user.id, input.id);
    if (input.id === ctx.session.id) ctx.res.clearCookie(SESSION_COOKIE, { path: '/' });
    return { ok: true };
  }),
  /** Sends the code to a number to be added or to replace the current one. */
  requestPhoneChange: authedProcedure.input(phoneChangeRequestInput).mutation(({ ctx, input }) => identity.requestPhoneCode(deps(ctx), input.phone, meta(ctx))),
  confirmPhoneChange: authedProcedure
    .input(phoneChangeConfirmInput)
    .mutation(async ({ ctx, input }) => identity.describeMe(ctx.db, await identity.confirmPhoneChange(deps(ctx), ctx.user, input, meta(ctx)))),
  update: authedProcedure.input(accountUpdateInput).mutation(async ({ ctx, input }) => identity.describeMe(ctx.db, await identity.updateAccount(ctx.db, ctx.user, input))),
});
