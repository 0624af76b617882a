/**
 * `service:take` over the attendant's already-open Socket.IO connection, acknowledged: the same
 * `takeRequest` as the `service.take` procedure (one claim statement is the referee, the same
 * refusals in the same words and HTTP status), without an HTTP request, tRPC and superjson around
 * it. The desk takes this way while its socket is connected and through `service.take` otherwise.
 *
 * Nothing about the caller is cached: every take reads the socket's session and the membership
 * in the claim's own statement (takeAsCaller; the rules of realtime/caller.ts), so a member
 * blocked a moment ago is refused on their next take, and an attempt is one round trip.
 */
import type { Socket } from 'socket.io';
import type { ClientToServerEvents, InterServerEvents, ServerToClientEvents, ServiceTakeAck, SocketData } from '../../../shared/realtime';
import { serviceConversationInput } from '../../../shared/schemas/service';
import type { Clock } from '../../clock';
import type { Db } from '../../db/client';
import type { Logger } from '../../logger';
import type { Realtime } from '../../realtime';
import { answerEvent, eventInput, type EventObserver } from '../../realtime/caller';
import { takeAsCaller } from './service';

type AppSocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

export interface SocketTakeDeps {
  db: Db;
  clock: Clock;
  /** The app's (Web Push to the absent), as tRPC's context has it. */
  realtime: Realtime;
  logger: Logger;
  observe?: EventObserver;
}

export function registerSocketTake(socket: AppSocket, deps: SocketTakeDeps) {
  socket.on('service:take', answerEvent('service:take', socket.data.userId, deps, handle));

  async function handle(raw: unknown): Promise<ServiceTakeAck> {
    const input = eventInput(serviceConversationInput, raw);
    const service = { db: deps.db, clock: deps.clock, realtime: deps.realtime, log: deps.logger };
    const taken = await takeAsCaller(service, socket.data.sessionId, input.domain, input.conversationId);
    return { ok: true, ...taken };
  }
}
