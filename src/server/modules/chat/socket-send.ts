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
import { TRPCError } from '@trpc/server';
import type { Socket } from 'socket.io';
import type { ChatSendAck, ClientToServerEvents, InterServerEvents, ServerToClientEvents, SocketData } from '../../../shared/realtime';
import { sendInput } from '../../../shared/schemas/chat';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { Logger } from '../../logger';
import type { Realtime } from '../../realtime';
import { refusalAck, socketCaller } from '../../realtime/caller';
import type { ObjectStore } from '../../storage';
import { findUnstorable } from '../../trpc';
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
