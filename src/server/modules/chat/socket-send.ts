/**
 * `chat:send` over the tab's already-open Socket.IO connection, acknowledged with the message:
 * the same `sendMessage` as the `chat.send` procedure (same checks, same result), without an HTTP
 * request, tRPC and superjson around it. The browser uses it while its socket is connected and
 * falls back to `chat.send` otherwise; a retry of either with the same clientId lands once.
 *
 * Nothing about the caller is cached: every send reads the socket's session, the company's
 * membership and the participation from the database, as the procedure's levels do, so a session
 * ended or a member blocked a moment ago is refused on their next send, on every instance.
 */
import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import type { Socket } from 'socket.io';
import type { Company, Member, Session, User } from '../../../generated/prisma/client';
import { mayAct } from '../../../shared/domain/membership';
import type { ChatSendAck, ClientToServerEvents, InterServerEvents, ServerToClientEvents, SocketData } from '../../../shared/realtime';
import { sendInput } from '../../../shared/schemas/chat';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import { hotQuery, Prisma, type Db } from '../../db/client';
import { prefixedColumns, unprefix } from '../../db/columns';
import type { Logger } from '../../logger';
import type { Realtime } from '../../realtime';
import { TOUCH_INTERVAL_MS } from '../identity/sessions';
import type { ObjectStore } from '../../storage';
import { AccessError, findUnstorable, publicMessage } from '../../trpc';
import { UNSTORABLE_TEXT_MESSAGE } from '../../../shared/limits';
import { sendMessage } from './messages';

type AppSocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

export interface SocketSendDeps {
  db: Db;
  clock: Clock;
  realtime: Realtime;
  storage: ObjectStore;
  config: Pick<Config, 'maxUploadBytes'>;
  logger: Logger;
}

const CALLER_COLUMNS = Prisma.sql`${prefixedColumns(Prisma.SessionScalarFieldEnum, 's', 's_')}, ${prefixedColumns(Prisma.UserScalarFieldEnum, 'u', 'u_')},
  ${prefixedColumns(Prisma.CompanyScalarFieldEnum, 'c', 'c_')}, ${prefixedColumns(Prisma.MemberScalarFieldEnum, 'm', 'm_')}`;

/**
 * The socket's session (still there, not expired, its guest account not past its end), its user,
 * the company named by domain and the user's membership, in one statement: what `authedProcedure`
 * and `memberProcedure` read in two (resolveSession, decideAccess), with the same rules after.
 */
async function socketCaller(db: Db, sessionId: string, domain: string, now: Date) {
  const [row] = await hotQuery(db, Prisma.sql`
    SELECT ${CALLER_COLUMNS}, (SELECT "verifyEmail" FROM "AppConfig" WHERE "id" = 1) AS "verifyEmail"
    FROM "Session" s JOIN "User" u ON u."id" = s."userId"
      LEFT JOIN "Company" c ON c."domain" = ${domain}
      LEFT JOIN "Member" m ON m."companyId" = c."id" AND m."userId" = u."id"
    WHERE s."id" = ${sessionId}`);
  const session = row && unprefix<Session>(row, Prisma.SessionScalarFieldEnum, 's_');
  const user = row && unprefix<User>(row, Prisma.UserScalarFieldEnum, 'u_');
  const t = now.getTime();
  if (!session || !user || session.expiresAt.getTime() <= t || (user.guestExpiresAt && user.guestExpiresAt.getTime() <= t)) {
    throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Sign in to continue' });
  }
  // As resolveSession does: "last seen" moves while someone only chats over their socket too.
  if (t - session.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) await db.session.updateMany({ where: { id: session.id }, data: { lastSeenAt: now } });
  const company = unprefix<Company>(row, Prisma.CompanyScalarFieldEnum, 'c_');
  if (!company) throw new TRPCError({ code: 'NOT_FOUND', message: 'Domain not found' });
  const member = unprefix<Member>(row, Prisma.MemberScalarFieldEnum, 'm_');
  const mustVerifyEmail = row.verifyEmail === true && !!user.email && !user.emailVerifiedAt;
  const refusal = mayAct('member', member, { mustVerifyEmail });
  if (refusal) throw new AccessError(refusal);
  return { user, company, member: member! };
}

/** The answer to a failed send, in the procedure's words and HTTP status (the client's retry policy reads both). */
export function refusalAck(err: unknown): ChatSendAck {
  const error = err instanceof TRPCError ? err : new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: err });
  return {
    ok: false,
    error: publicMessage(error),
    httpStatus: getHTTPStatusCodeFromError(error),
    ...(error instanceof AccessError && { access: error.refusal.reason }),
  };
}

export function registerSocketSend(socket: AppSocket, deps: SocketSendDeps) {
  socket.on('chat:send', (raw, ack) => {
    if (typeof ack !== 'function') return;
    handle(raw).then(ack, (err: unknown) => {
      if (!(err instanceof TRPCError) || err.code === 'INTERNAL_SERVER_ERROR') deps.logger.error({ err, userId: socket.data.userId }, 'chat:send failed');
      ack(refusalAck(err));
    });
  });

  async function handle(raw: unknown): Promise<ChatSendAck> {
    const where = findUnstorable(raw);
    if (where) throw new TRPCError({ code: 'BAD_REQUEST', message: `${where}: ${UNSTORABLE_TEXT_MESSAGE}` });
    const parsed = sendInput.safeParse(raw);
    if (!parsed.success) throw new TRPCError({ code: 'BAD_REQUEST', message: parsed.error.message, cause: parsed.error });
    const input = parsed.data;
    const caller = await socketCaller(deps.db, socket.data.sessionId, input.domain, deps.clock.now());
    const message = await sendMessage(
      { db: deps.db, clock: deps.clock, realtime: deps.realtime, storage: deps.storage, config: deps.config, company: caller.company, member: caller.member, userId: caller.user.id },
      input,
    );
    return { ok: true, message };
  }
}
