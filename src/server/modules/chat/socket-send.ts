/**
 * `chat:send` over the tab's already-open Socket.IO connection, acknowledged with the message:
 * the same `sendMessage` as the `chat.send` procedure (same checks, same result), without an HTTP
 * request, tRPC and superjson around it. The browser uses it while its socket is connected and
 * falls back to `chat.send` otherwise; a retry of either with the same clientId lands once.
 *
 * Nothing about the caller is cached: every send reads the socket's session, the company's
 * membership (realtime/caller.ts) and the participation from the database, as the procedure's
 * levels do, so a session ended or a member blocked a moment ago is refused on their next send,
 * on every instance.
 */
import type { Socket } from 'socket.io';
import type { ChatSendAck, ClientToServerEvents, InterServerEvents, ServerToClientEvents, SocketData } from '../../../shared/realtime';
import { sendInput } from '../../../shared/schemas/chat';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import { batched, perDb } from '../../db/batch';
import { hotQuery, Prisma, type Db } from '../../db/client';
import type { Logger } from '../../logger';
import type { Realtime } from '../../realtime';
import { answerEvent, CALLER_COLUMNS, callerFromRow, eventInput, type EventObserver } from '../../realtime/caller';
import type { ObjectStore } from '../../storage';
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
  observe?: EventObserver;
}

const SEND_COLUMNS = Prisma.sql`${CALLER_COLUMNS}, ${PARTICIPATION_COLUMNS}`;

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
      // (a plain join of the key list could be planned as scans of whole tables). Prepared: parsing
      // and analysing six tables' columns cost the database more than the lookups (read p50 9 -> 3
      // ms at 100 sends/s, docs/performance.md section 23).
      const rows = await hotQuery(db, Prisma.sql`
        SELECT k.i, x.* FROM unnest(${keys.map((k) => k.sessionId)}::text[], ${keys.map((k) => k.domain)}::text[], ${keys.map((k) => k.conversationId)}::uuid[],
            ${keys.map((k) => k.clientId)}::text[]) WITH ORDINALITY AS k(sid, domain, conv, client, i)
        LEFT JOIN LATERAL (
          SELECT ${SEND_COLUMNS},
            (SELECT e."id" FROM "Message" e WHERE e."conversationId" = c."id" AND e."authorId" = u."id" AND e."clientId" = k.client) AS "earlierId"
          FROM "Session" s JOIN "User" u ON u."id" = s."userId"
            LEFT JOIN "Company" co ON co."domain" = k.domain
            LEFT JOIN "Member" m ON m."companyId" = co."id" AND m."userId" = u."id"
            LEFT JOIN "Conversation" c ON c."id" = k.conv AND c."companyId" = co."id"
            LEFT JOIN "Participant" p ON p."conversationId" = c."id" AND p."userId" = u."id"
          WHERE s."id" = k.sid) x ON true`, { prepared: true });
      return new Map(rows.map((r) => [sendKey(keys[Number(r.i) - 1]!), r]));
    },
    (k: SendKey) => sendKey(k),
  ),
);
const sendKey = (k: SendKey) => `${k.sessionId}\n${k.domain}\n${k.conversationId}\n${k.clientId}`;



export function registerSocketSend(socket: AppSocket, deps: SocketSendDeps) {
  socket.on('chat:send', answerEvent('chat:send', socket.data.userId, deps, handle));

  async function handle(raw: unknown): Promise<ChatSendAck> {
    const input = eventInput(sendInput, raw);
    const row = await readSends(deps.db, { sessionId: socket.data.sessionId, domain: input.domain, conversationId: input.conversationId, clientId: input.clientId });
    const caller = await callerFromRow(deps.db, row, deps.clock.now());
    const message = await sendMessage(
      { db: deps.db, clock: deps.clock, realtime: deps.realtime, storage: deps.storage, config: deps.config, company: caller.company, member: caller.member, userId: caller.user.id },
      input,
      // The participation was read with the caller; the append is group-committed.
      { participation: async () => participationOf(row), append: appendGrouped },
    );
    return { ok: true, message };
  }
}
