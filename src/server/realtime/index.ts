import type { Server as HttpServer } from 'node:http';
import { Server } from 'socket.io';
import {
  rooms,
  SOCKET_UNAUTHENTICATED,
  type ClientToServerEvents,
  type InterServerEvents,
  type ServerToClientEvents,
  type SocketData,
} from '../../shared/realtime';
import type { Clock } from '../clock';
import type { Db } from '../db/client';
import type { Logger } from '../logger';
import type { CallsDeps } from '../modules/calls/service';
import { registerCallSocketHandlers } from '../modules/calls/events';
import { registerChatSocketHandlers } from '../modules/chat/events';
import { readCookie, resolveSession, SESSION_COOKIE } from '../modules/identity/sessions';

export type Io = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

/** What services use to push: typed emits to rooms, after their transaction has committed. */
export interface Realtime {
  /** Every tab of one user, on every instance. */
  toUser<E extends keyof ServerToClientEvents>(userId: string, event: E, ...args: Parameters<ServerToClientEvents[E]>): void;
  toUsers<E extends keyof ServerToClientEvents>(userIds: Iterable<string>, event: E, ...args: Parameters<ServerToClientEvents[E]>): void;
  /** Everyone in a room (see `rooms` in shared/realtime.ts). */
  toRoom<E extends keyof ServerToClientEvents>(room: string, event: E, ...args: Parameters<ServerToClientEvents[E]>): void;
  /** Which of these users have at least one open socket, on any instance (through the adapter). */
  connectedUsers(userIds: string[]): Promise<Set<string>>;
  /** Puts every socket of a user into a room, or takes them out (on every instance). */
  joinUser(userId: string, room: string): void;
  leaveUser(userId: string, room: string): void;
  /** Which of these users have a connected tab right now (on any instance, through the adapter). */
  onlineUsers(userIds: string[]): Promise<Set<string>>;
}

export function createRealtime(
  httpServer: HttpServer,
  deps: { db: Db; logger: Logger; clock: Clock; onSocketCount?: (n: number) => void; calls?: () => CallsDeps },
) {
  const io: Io = new Server(httpServer, {
    path: '/socket.io',
    serveClient: false,
    maxHttpBufferSize: 1_000_000,
    // Same origin only: the app and its API are served by this process.
    cors: undefined,
  });

  // The handshake carries the same httpOnly cookie as tRPC; no cookie, no socket.
  io.use(async (socket, next) => {
    try {
      const token = readCookie(socket.handshake.headers.cookie, SESSION_COOKIE);
      const auth = token ? await resolveSession(deps.db, token, deps.clock.now()) : null;
      if (!auth) return next(new Error(SOCKET_UNAUTHENTICATED));
      socket.data.userId = auth.user.id;
      socket.data.sessionId = auth.session.id;
      next();
    } catch (err) {
      deps.logger.error({ err }, 'socket handshake failed');
      next(new Error('The server could not check your session; try again'));
    }
  });

  const realtime: Realtime = {
    toUser: (userId, event, ...args) => {
      io.to(rooms.user(userId)).emit(event, ...args);
    },
    toUsers: (userIds, event, ...args) => {
      const targets = [...new Set(userIds)].map(rooms.user);
      // One emit to the union of the rooms: a socket in several of them still gets it once.
      if (targets.length) io.to(targets).emit(event, ...args);
    },
    toRoom: (room, event, ...args) => {
      io.to(room).emit(event, ...args);
    },
    connectedUsers: async (userIds) => {
      if (userIds.length === 0) return new Set();
      const sockets = await io.in([...new Set(userIds)].map(rooms.user)).fetchSockets();
      return new Set(sockets.map((s) => s.data.userId));
    },
    joinUser: (userId, room) => io.in(rooms.user(userId)).socketsJoin(room),
    leaveUser: (userId, room) => io.in(rooms.user(userId)).socketsLeave(room),
    onlineUsers: async (userIds) => {
      if (userIds.length === 0) return new Set();
      const sockets = await io.in(userIds.map(rooms.user)).fetchSockets();
      return new Set(sockets.map((s) => s.data.userId));
    },
  };

  io.on('connection', (socket) => {
    deps.onSocketCount?.(io.engine.clientsCount);
    void socket.join(rooms.user(socket.data.userId));
    socket.emit('session:ready', { userId: socket.data.userId, socketId: socket.id });
    socket.on('ping', (ack) => {
      if (typeof ack === 'function') ack({ serverTime: Date.now() });
    });
    socket.on('disconnect', () => deps.onSocketCount?.(io.engine.clientsCount));
    registerChatSocketHandlers(socket, { db: deps.db, realtime, logger: deps.logger });
    if (deps.calls) registerCallSocketHandlers(socket, deps.calls());
  });

  return { io, realtime };
}
