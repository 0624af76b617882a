/**
 * tRPC in three parts: the context every procedure receives, the setup (transformer and the error
 * formatter that turns zod issues into readable messages), and the procedure levels.
 * A level is one line: each adds one middleware to the level below it.
 */
import { initTRPC, TRPCError } from '@trpc/server';
import type { CreateExpressContextOptions } from '@trpc/server/adapters/express';
import superjson from 'superjson';
import { z, ZodError } from 'zod';
import { REQUEST_TOO_LARGE_MESSAGE, UNSTORABLE_TEXT_MESSAGE } from '../shared/limits';
import { domainSchema } from '../shared/schemas/company';
import type { PlanFeature } from '../shared/domain/company';
import type { AccessRefusal } from '../shared/domain/membership';
import type { Permission } from '../shared/domain/profiles';
import type { AppDeps } from './deps';
import { doorMessage } from './doors';
import { companyOfSubject, decideAccess } from './modules/company/access';
import { requirePlan } from './modules/company/plan';
import { hit, RateLimitedError, type Limit } from './modules/identity/rate-limit';
import { requirePermission } from './modules/profiles/permissions';
import { requestToken, resolveSession } from './modules/identity/sessions';

// ---------------------------------------------------------------------------------------------
// 1. Context
// ---------------------------------------------------------------------------------------------

export async function createContext(deps: AppDeps, { req, res }: CreateExpressContextOptions) {
  const token = requestToken(req.headers);
  const auth = token ? await resolveSession(deps.db, token, deps.clock.now()) : null;
  return { ...deps, req, res, log: req.log ?? deps.logger, user: auth?.user ?? null, session: auth?.session ?? null };
}
export type Context = Awaited<ReturnType<typeof createContext>>;

/** Procedure levels, recorded in meta so the isolation test can check every procedure has one. */
export type ProcedureLevel = 'public' | 'authed' | 'participant' | 'member' | 'admin';
export interface Meta {
  level?: ProcedureLevel;
  /**
   * On a member or admin procedure: the profile permission it needs (admins have every one).
   * Declared as `memberProcedure.meta({ permission: 'viewReports' })`; checked after membership.
   */
  permission?: Permission;
  /** On a member or admin procedure: the plan flag its feature lives behind (`meta({ plan: 'forms' })`). */
  plan?: PlanFeature;
  /**
   * On an authed (or higher) procedure: the per-person rate it counts against (RATE_* settings),
   * for acts that create rows or fan out to other people. Counted in the database, so the limit
   * holds over every instance.
   */
  rate?: UserRate;
}

export type UserRate = 'conversations' | 'invites' | 'joinRequests' | 'presence';

function userRateLimit(config: AppDeps['config'], rate: UserRate): Limit {
  const hour = 60 * 60_000;
  switch (rate) {
    case 'conversations':
      return { max: config.rates.conversationsPerHour, windowMs: hour };
    case 'invites':
      return { max: config.rates.invitesPerHour, windowMs: hour };
    case 'joinRequests':
      return { max: config.rates.joinRequestsPerHour, windowMs: hour };
    case 'presence':
      return { max: config.rates.presencePerMinute, windowMs: 60_000 };
  }
}

// ---------------------------------------------------------------------------------------------
// 2. Setup
// ---------------------------------------------------------------------------------------------

/** Why a member was refused, so the client can route to /{emp}/block or /{emp}/wait. */
export class AccessError extends TRPCError {
  constructor(readonly refusal: AccessRefusal) {
    super({ code: refusal.code, message: refusal.message });
  }
}

export const INTERNAL_ERROR_MESSAGE = 'Something went wrong; try again';
// tRPC's own text for a body over MAX_REQUEST_BYTES is its code; people get a sentence.
export { REQUEST_TOO_LARGE_MESSAGE, UNSTORABLE_TEXT_MESSAGE };

const t = initTRPC
  .context<Context>()
  .meta<Meta>()
  .create({
    transformer: superjson,
    errorFormatter({ shape, error }) {
      const zodError = error.cause instanceof ZodError ? error.cause : null;
      return {
        ...shape,
        // The first issue, readable, is the message the user sees; the rest stay available.
        // An unexpected failure says so in plain words: its own text (SQL, paths) is for the log.
        message: publicMessage(error, shape.message),
        data: {
          code: shape.data.code,
          httpStatus: shape.data.httpStatus,
          path: shape.data.path,
          // Stack traces never leave the server, whatever NODE_ENV says.
          fieldErrors: zodError ? z.flattenError(zodError).fieldErrors : undefined,
          access: error instanceof AccessError ? error.refusal.reason : undefined,
          retryAfterMs: error instanceof RateLimitedError ? error.retryAfterMs : undefined,
        },
      };
    },
  });

/**
 * The text a caller sees for a failed procedure (also what the socket's chat:send answers, so
 * both paths refuse in the same words).
 */
export function publicMessage(error: TRPCError, message = error.message): string {
  const zodError = error.cause instanceof ZodError ? error.cause : null;
  if (zodError) return readableZodMessage(zodError);
  if (isUnexpected(error)) return INTERNAL_ERROR_MESSAGE;
  if (error.code === 'PAYLOAD_TOO_LARGE') return REQUEST_TOO_LARGE_MESSAGE;
  return doorMessage(message) ?? message;
}

/**
 * An exception nobody meant to show: tRPC wraps it as INTERNAL_SERVER_ERROR carrying the original
 * message. A service that throws INTERNAL_SERVER_ERROR itself chose its words, and keeps them.
 */
function isUnexpected(error: TRPCError): boolean {
  return error.code === 'INTERNAL_SERVER_ERROR' && (!error.cause || error.message === error.cause.message || error.message === error.code);
}

function readableZodMessage(error: ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'Invalid input';
  const where = issue.path.length ? `${issue.path.join('.')}: ` : '';
  return `${where}${issue.message}`;
}

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

// ---------------------------------------------------------------------------------------------
// 3. Procedures
// ---------------------------------------------------------------------------------------------

/** U+0000, or half of a surrogate pair without its other half (ill-formed UTF-16). */
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Where the first unstorable character of an input is (a key or a string value), or null. Bounded depth. */
export function findUnstorable(value: unknown, path = '', depth = 0): string | null {
  if (typeof value === 'string') return UNSTORABLE.test(value) ? path || '(input)' : null;
  if (depth > 20 || value === null || typeof value !== 'object') return null;
  for (const [key, inner] of Object.entries(value)) {
    const here = path ? `${path}.${key}` : key;
    if (UNSTORABLE.test(key)) return here;
    const found = findUnstorable(inner, here, depth + 1);
    if (found) return found;
  }
  return null;
}

/**
 * PostgreSQL text cannot hold U+0000, and Prisma's query engine rejects a lone surrogate, so a
 * string carrying either would fail deep in a query as a 500. No keyboard types them: every
 * procedure refuses them up front, as bad input.
 */
const baseProcedure = t.procedure.use(async ({ getRawInput, next }) => {
  const where = findUnstorable(await getRawInput().catch(() => undefined));
  if (where) throw new TRPCError({ code: 'BAD_REQUEST', message: `${where}: ${UNSTORABLE_TEXT_MESSAGE}` });
  return next();
});

export const publicProcedure = baseProcedure.meta({ level: 'public' });

export const authedProcedure = baseProcedure.meta({ level: 'authed' }).use(async ({ ctx, meta, next }) => {
  if (!ctx.user || !ctx.session) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Sign in to continue' });
  if (meta?.rate) await hit(ctx.db, `rate:${meta.rate}:user:${ctx.user.id}`, userRateLimit(ctx.config, meta.rate), ctx.clock.now());
  return next({ ctx: { user: ctx.user, session: ctx.session } });
});

/**
 * Reached through the caller's own participation: the input names a conversation, call, filled
 * form or call recording of some company (a customer's request, a call link). The service checks
 * the participation; this level asks the same question as the member level, by the company that
 * subject belongs to, so a member that company blocked or removed is refused here too.
 */
export const participantProcedure = authedProcedure.meta({ level: 'participant' }).use(async ({ ctx, getRawInput, next }) => {
  const companyId = await companyOfSubject(ctx.db, await getRawInput().catch(() => undefined));
  if (companyId) {
    const access = await decideAccess(ctx.db, { companyId }, ctx.user, 'participant');
    if (access?.refusal) throw new AccessError(access.refusal);
  }
  return next();
});

/**
 * Company-scoped: the input names the company by `domain`. Resolves the caller's membership and
 * refuses non-members, blocked, removed or not-yet-accepted members, and unverified e-mails while
 * AppConfig.verifyEmail is on, with the spec's texts.
 * Every procedure whose input carries a `domain` must be built on this (the isolation test checks).
 */
export const memberProcedure = authedProcedure
  .meta({ level: 'member' })
  .input(z.object({ domain: domainSchema }))
  .use(async ({ ctx, input, next }) => {
    const access = await decideAccess(ctx.db, { domain: input.domain }, ctx.user, 'member');
    if (!access) throw new TRPCError({ code: 'NOT_FOUND', message: 'Domain not found' });
    if (access.refusal) throw new AccessError(access.refusal);
    return next({ ctx: { company: access.company, member: access.member! } });
  })
  // What the procedure declared it needs beyond membership: a plan flag, then a profile permission.
  .use(async ({ ctx, meta, next }) => {
    if (meta?.plan) requirePlan(ctx.company, meta.plan);
    if (meta?.permission) await requirePermission(ctx, meta.permission);
    return next();
  });

export const adminProcedure = memberProcedure.meta({ level: 'admin' }).use(({ ctx, next }) => {
  if (!ctx.member.isAdmin) throw new TRPCError({ code: 'FORBIDDEN', message: 'Only administrators can do this' });
  return next();
});
