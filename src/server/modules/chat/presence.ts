/**
 * Presence: what each person chose (User.presence) and whether any tab of theirs is connected.
 * "Connected" is asked of Socket.IO (`fetchSockets`), which answers for every instance through
 * the adapter, so no process keeps presence in its own memory. Connects and disconnects of one
 * person are serialised by a per-user advisory lock and compared with the last announced state
 * (PresenceAnnouncement), so the first tab to open announces "online" and the last to close
 * announces "offline", once each, whichever instances they are on.
 */
import type { Socket } from 'socket.io';
import type { Prisma } from '../../../generated/prisma/client';
import type { PresenceEvent } from '../../../shared/chat-events';
import { visiblePresence, type PresenceChoice } from '../../../shared/domain/presence';
import { rooms, type ClientToServerEvents, type InterServerEvents, type ServerToClientEvents, type SocketData } from '../../../shared/realtime';
import type { Db } from '../../db/client';
import type { Logger } from '../../logger';
import type { Realtime } from '../../realtime';
import type { ChatContext } from './context';

type AppSocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
interface PresenceDeps {
  db: Db;
  realtime: Realtime;
}

const lockName = (userId: string) => `presence:${userId}`;

type Queryable = Pick<Prisma.TransactionClient, '$queryRaw' | 'user'>;

/**
 * Who may see a person's presence: active members of the companies they are an active member of,
 * and the people they share a conversation with (customers and visitors included).
 */
async function audience(db: Queryable, userId: string): Promise<string[]> {
  const rows = await db.$queryRaw<{ userId: string }[]>`
    SELECT m2."userId" FROM "Member" m1
    JOIN "Member" m2 ON m2."companyId" = m1."companyId"
    WHERE m1."userId" = ${userId}::uuid AND m1."inviteAccepted" AND NOT m1."blocked" AND NOT m1."removed"
      AND m2."inviteAccepted" AND NOT m2."blocked" AND NOT m2."removed" AND m2."userId" <> ${userId}::uuid
    UNION
    SELECT p2."userId" FROM "Participant" p1
    JOIN "Participant" p2 ON p2."conversationId" = p1."conversationId"
    WHERE p1."userId" = ${userId}::uuid AND NOT p1."removed" AND NOT p2."removed" AND p2."userId" <> ${userId}::uuid`;
  return rows.map((r) => r.userId);
}

/** Tells the audience what they may see, and the person's own tabs what they chose. */
async function pushPresence(db: Queryable, realtime: Realtime, userId: string, connected: boolean) {
  const user = await db.user.findUnique({ where: { id: userId }, select: { presence: true } });
  if (!user) return;
  const status = visiblePresence(user.presence, connected);
  realtime.toUsers(await audience(db, userId), 'presence:update', { userId, status });
  const own: PresenceEvent = { userId, status: ownStatus(user.presence, connected), choice: user.presence };
  realtime.toUser(userId, 'presence:update', own);
}

/** In my own tabs, invisible still shows that I am connected. */
const ownStatus = (choice: string, connected: boolean) => visiblePresence(choice === 'invisible' ? 'online' : choice, connected);

/**
 * Per server: the presence work of each user, one after the other, so this instance's tabs of one
 * person wait in memory rather than each holding a database connection while they wait.
 */
const queues = new WeakMap<object, Map<string, Promise<void>>>();

function serialised(scope: object, userId: string, fn: () => Promise<void>): Promise<void> {
  let byUser = queues.get(scope);
  if (!byUser) queues.set(scope, (byUser = new Map()));
  const run = (byUser.get(userId) ?? Promise.resolve()).then(fn, fn);
  const tail = run.catch(() => undefined);
  byUser.set(userId, tail);
  void tail.then(() => {
    if (byUser.get(userId) === tail) byUser.delete(userId);
  });
  return run;
}

/** Resolves once the presence work under way on this server is done (before the database closes). */
export async function presenceSettled(server: { of(name: string): object }) {
  const byUser = queues.get(server.of('/'));
  if (byUser) await Promise.all(byUser.values());
}

/**
 * Runs `fn` holding the user's presence lock: transaction-scoped (a crash releases it), and `fn`
 * queries through the same transaction, so holding the lock never needs a second connection.
 */
function withUserLock(db: Db, userId: string, fn: (tx: Prisma.TransactionClient) => Promise<void>) {
  return db.$transaction(
    async (tx) => {
      await tx.$queryRaw`SELECT count(pg_advisory_xact_lock(hashtextextended(${lockName(userId)}, 0)))::int AS n`;
      await fn(tx);
    },
    { timeout: 15_000, maxWait: 15_000 },
  );
}

/**
 * Compares whether the person has any tab open (on any instance) with what was last announced,
 * and announces the difference. Every connect and disconnect calls it under the person's lock, so
 * ten tabs closing at once announce "offline" once.
 */
async function reconcile(socket: AppSocket, deps: PresenceDeps, userId: string) {
  await withUserLock(deps.db, userId, async (tx) => {
    const connected = (await socket.nsp.in(rooms.user(userId)).fetchSockets()).length > 0;
    const last = await tx.presenceAnnouncement.findUnique({ where: { userId } });
    if (last?.connected === connected) return;
    await tx.presenceAnnouncement.upsert({
      where: { userId },
      create: { userId, connected, at: new Date() },
      update: { connected, at: new Date() },
    });
    await pushPresence(tx, deps.realtime, userId, connected);
  });
}

/** Presence bookkeeping of one socket: the person's first tab announces online, the last offline. */
export function trackPresence(socket: AppSocket, deps: PresenceDeps & { logger: Logger }) {
  const userId = socket.data.userId;
  const fail = (err: unknown) => deps.logger.warn({ err, userId }, 'presence update failed');

  void serialised(socket.nsp, userId, () => reconcile(socket, deps, userId)).catch(fail);

  socket.on('disconnect', (reason) => {
    // This instance is stopping: its tabs reconnect to another one (or the whole app is down), so
    // announcing "offline" now would only make everyone's dots flicker.
    if (reason === 'server shutting down') return;
    void serialised(socket.nsp, userId, () => reconcile(socket, deps, userId)).catch(fail);
  });
}

/** Sets what the person chose (Disponível, Ocupado, Volto logo, invisível) and tells who may see it. */
export async function setPresence(deps: PresenceDeps, userId: string, choice: PresenceChoice) {
  await deps.db.user.update({ where: { id: userId }, data: { presence: choice } });
  const connected = (await deps.realtime.connectedUsers([userId])).has(userId);
  await pushPresence(deps.db, deps.realtime, userId, connected);
  return { choice, status: ownStatus(choice, connected) };
}

/**
 * The presence of people the caller may see in this company: its active members and the people
 * of the caller's conversations here. Anyone else is left out of the answer.
 */
export async function presenceOf(ctx: ChatContext, userIds: string[]) {
  const ids = [...new Set(userIds)];
  const visible = await ctx.db.$queryRaw<{ id: string; presence: string }[]>`
    SELECT u."id", u."presence" FROM "User" u
    WHERE u."id" = ANY(${ids}::uuid[]) AND (
      u."id" = ${ctx.userId}::uuid
      OR EXISTS (SELECT 1 FROM "Member" m WHERE m."userId" = u."id" AND m."companyId" = ${ctx.company.id}::uuid
                 AND m."inviteAccepted" AND NOT m."blocked" AND NOT m."removed")
      OR EXISTS (SELECT 1 FROM "Participant" mine
                 JOIN "Conversation" c ON c."id" = mine."conversationId" AND c."companyId" = ${ctx.company.id}::uuid
                 JOIN "Participant" them ON them."conversationId" = mine."conversationId" AND them."userId" = u."id"
                 WHERE mine."userId" = ${ctx.userId}::uuid AND NOT mine."removed"))`;
  const connected = await ctx.realtime.connectedUsers(visible.map((v) => v.id));
  return visible.map((v) => {
    const isMe = v.id === ctx.userId;
    const status = isMe ? ownStatus(v.presence, connected.has(v.id)) : visiblePresence(v.presence, connected.has(v.id));
    return { userId: v.id, status, ...(isMe && { choice: v.presence }) };
  });
}
