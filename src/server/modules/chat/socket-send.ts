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
import { batched, perDb } from '../../db/batch';
import { hotQuery, Prisma, type Db } from '../../db/client';
import { prefixedColumns, unprefix } from '../../db/columns';
import type { Logger } from '../../logger';
import type { Realtime } from '../../realtime';
import { TOUCH_INTERVAL_MS } from '../identity/sessions';
import type { ObjectStore } from '../../storage';
import { AccessError, findUnstorable, publicMessage } from '../../trpc';
import { UNSTORABLE_TEXT_MESSAGE } from '../../../shared/limits';
import { participationOf, PARTICIPATION_COLUMNS } from './context';
import { appendGrouped } from './group-commit';
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

const SEND_COLUMNS = Prisma.sql`${prefixedColumns(Prisma.SessionScalarFieldEnum, 's', 's_')}, ${prefixedColumns(Prisma.UserScalarFieldEnum, 'u', 'u_')},
  ${prefixedColumns(Prisma.CompanyScalarFieldEnum, 'co', 'co_')}, ${prefixedColumns(Prisma.MemberScalarFieldEnum, 'm', 'm_')}, ${PARTICIPATION_COLUMNS}`;

interface SendKey {
  sessionId: string;
  domain: string;
  conversationId: string;
  clientId: string;
}

/**
 * Everything a send checks, for every send asked in this event-loop turn, in ONE statement: per
 * send, the socket's session and its user, the company named by domain and the user's membership
 * (what `authedProcedure` and `memberProcedure` read), the conversation in that company with the
 * caller's participation, and the caller's earlier message with this clientId (`participation`).
 * Nothing is cached: each send's row is read by a statement that starts after it arrived.
 */
const readSends = perDb((db: Db) =>
  batched(
    async (keys: SendKey[]) => {
      // LATERAL: each send's row is found by the same index lookups as one send's own statement
      // (a plain join of the key list could be planned as scans of whole tables).
      const rows = await hotQuery(db, Prisma.sql`
        SELECT k.i, x.* FROM unnest(${keys.map((k) => k.sessionId)}::text[], ${keys.map((k) => k.domain)}::text[], ${keys.map((k) => k.conversationId)}::uuid[],
            ${keys.map((k) => k.clientId)}::text[]) WITH ORDINALITY AS k(sid, domain, conv, client, i)
        LEFT JOIN LATERAL (
          SELECT ${SEND_COLUMNS}, (SELECT "verifyEmail" FROM "AppConfig" WHERE "id" = 1) AS "verifyEmail",
            (SELECT e."id" FROM "Message" e WHERE e."conversationId" = c."id" AND e."authorId" = u."id" AND e."clientId" = k.client) AS "earlierId"
          FROM "Session" s JOIN "User" u ON u."id" = s."userId"
            LEFT JOIN "Company" co ON co."domain" = k.domain
            LEFT JOIN "Member" m ON m."companyId" = co."id" AND m."userId" = u."id"
            LEFT JOIN "Conversation" c ON c."id" = k.conv AND c."companyId" = co."id"
            LEFT JOIN "Participant" p ON p."conversationId" = c."id" AND p."userId" = u."id"
          WHERE s."id" = k.sid) x ON true`);
      return new Map(rows.map((r) => [sendKey(keys[Number(r.i) - 1]!), r]));
    },
    (k: SendKey) => sendKey(k),
  ),
);
const sendKey = (k: SendKey) => `${k.sessionId}\n${k.domain}\n${k.conversationId}\n${k.clientId}`;

/**
 * The caller of a send, from its row: the session still there, not expired, its guest account
 * not past its end; the company; the membership allowed to act (mayAct). The rules of
 * resolveSession and decideAccess, in their order.
 */
async function callerOf(db: Db, row: Record<string, unknown> | undefined, now: Date) {
  const session = row && unprefix<Session>(row, Prisma.SessionScalarFieldEnum, 's_');
  const user = row && unprefix<User>(row, Prisma.UserScalarFieldEnum, 'u_');
  const t = now.getTime();
  if (!row || !session || !user || session.expiresAt.getTime() <= t || (user.guestExpiresAt && user.guestExpiresAt.getTime() <= t)) {
    throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Sign in to continue' });
  }
  // As resolveSession does: "last seen" moves while someone only chats over their socket too.
  if (t - session.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) await db.session.updateMany({ where: { id: session.id }, data: { lastSeenAt: now } });
  const company = unprefix<Company>(row, Prisma.CompanyScalarFieldEnum, 'co_');
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
    const row = await readSends(deps.db, { sessionId: socket.data.sessionId, domain: input.domain, conversationId: input.conversationId, clientId: input.clientId });
    const caller = await callerOf(deps.db, row, deps.clock.now());
    const message = await sendMessage(
      { db: deps.db, clock: deps.clock, realtime: deps.realtime, storage: deps.storage, config: deps.config, company: caller.company, member: caller.member, userId: caller.user.id },
      input,
      // The participation was read with the caller; the append is group-committed.
      { participation: async () => participationOf(row), append: appendGrouped },
    );
    return { ok: true, message };
  }
}
