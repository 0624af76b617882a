import type { Socket } from 'socket.io';
import { rooms, type ClientToServerEvents, type InterServerEvents, type ServerToClientEvents, type SocketData } from '../../../shared/realtime';
import type { Db } from '../../db/client';
import type { Logger } from '../../logger';
import type { Realtime, UserRateLimiter } from '../../realtime';
import { decideAccess } from '../company/access';
import { notRefusedBy } from './context';
import { trackPresence } from './presence';

type AppSocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** How long a socket's "is a participant" answer is trusted before asking the database again. */
const PARTICIPATION_TTL_MS = 60_000;

/**
 * What the chat does on each socket: presence (the first tab online, the last one offline), and
 * typing, relayed to the other participants only.
 */
export function registerChatSocketHandlers(socket: AppSocket, deps: { db: Db; realtime: Realtime; logger: Logger; typingLimiter?: UserRateLimiter }) {
  const checked = new Map<string, number>();
  const conversationCompany = new Map<string, string>();
  /** Conversations whose company this socket serves as a member: blocking them takes the room away. */
  const asMember = new Set<string>();
  const userId = socket.data.userId;
  trackPresence(socket, deps);

  socket.on('typing', (payload) => {
    // Per person over all their tabs: twenty tabs typing at once relay no more than one would.
    if (deps.typingLimiter && !deps.typingLimiter.take(userId)) return;
    // A socket event has nobody to answer: a failure is logged, never left unhandled.
    relayTyping(payload).catch((err) => deps.logger.warn({ err, userId }, 'typing relay failed'));
  });

  async function relayTyping(payload: { conversationId: string } | undefined) {
    const conversationId = payload?.conversationId;
    if (typeof conversationId !== 'string' || !UUID.test(conversationId)) return;
    // A member blocked or removed since the last check has left the company's room (on every
    // instance, at once): the cached answer goes with it.
    const companyId = conversationCompany.get(conversationId);
    if (companyId && asMember.has(conversationId) && !socket.rooms.has(rooms.company(companyId))) checked.delete(conversationId);
    // Typing comes every 1.5 s while someone writes: one participation check a minute is enough.
    if ((checked.get(conversationId) ?? 0) < Date.now()) {
      const me = await deps.db.participant.findUnique({
        where: { conversationId_userId: { conversationId, userId } },
        select: { removed: true, conversation: { select: { companyId: true } } },
      });
      if (!me || me.removed) return;
      const access = await decideAccess(deps.db, { companyId: me.conversation.companyId }, { id: userId }, 'participant');
      if (access?.refusal) return;
      checked.set(conversationId, Date.now() + PARTICIPATION_TTL_MS);
      conversationCompany.set(conversationId, me.conversation.companyId);
      if (socket.rooms.has(rooms.company(me.conversation.companyId))) asMember.add(conversationId);
      else asMember.delete(conversationId);
    }
    const others = await deps.db.participant.findMany({
      where: { conversationId, removed: false, NOT: { userId }, user: notRefusedBy(conversationCompany.get(conversationId)!) },
      select: { userId: true },
    });
    for (const other of others) deps.realtime.toUser(other.userId, 'typing', { conversationId, userId });
  }
}
