import type { Server as HttpServer } from 'node:http';
import { Server, type Socket } from 'socket.io';
import {
  rooms,
  SOCKET_ORIGIN_REFUSED,
  SOCKET_TOO_FAST,
  SOCKET_TOO_MANY,
  SOCKET_UNAUTHENTICATED,
  type ClientToServerEvents,
  type InstanceRequest,
  type InterServerEvents,
  type ServerToClientEvents,
  type SocketData,
} from '../../shared/realtime';
import { mayAct } from '../../shared/domain/membership';
import type { Clock } from '../clock';
import type { Db } from '../db/client';
import type { Logger } from '../logger';
import type { CallsDeps } from '../modules/calls/service';
import { registerCallSocketHandlers } from '../modules/calls/events';
import { registerChatSocketHandlers } from '../modules/chat/events';
import { registerSocketSend, type SocketSendDeps } from '../modules/chat/socket-send';
import { registerSocketTake } from '../modules/service/socket-take';
import { requestToken, resolveSession } from '../modules/identity/sessions';
import type { EventObserver } from './caller';

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
  /** Closes one socket by id, whichever instance it is connected to. */
  disconnectSocket(socketId: string): void;
  /** Closes every socket opened with these sessions (signed out, revoked), on every instance. */
  endSessions(sessionIds: string[]): void;
  /** Closes every socket of a user (password reset: every session ended), on every instance. */
  endUserSockets(userId: string): void;
  /**
   * The user may no longer act for the company: every socket of theirs leaves the company's room
   * and is told why, on every instance. Their calls of that company are the calls module's part.
   */
  revokeCompany(userId: string, company: { id: string; domain: string }, reason: 'blocked' | 'removed'): void;
  /**
   * Asks another instance through the adapter; resolves with its answer, or undefined when no
   * instance of that name answered (one instance, in-memory adapter, or it is gone).
   */
  askInstance(request: InstanceRequest): Promise<unknown>;
  /** Answers the requests of kind `kind` addressed to this instance (one handler per kind). */
  answerInstances(instanceId: string, kind: string, handler: (body: unknown) => Promise<unknown>): void;
}

export interface RealtimeLimits {
  /** Open sockets one user may hold over all instances; the next handshake is refused. */
  maxSocketsPerUser: number;
  /** Sustained events per second one socket may send; a burst of twice that is let through. */
  eventsPerSecond: number;
  /** Typing events one user may send per second over all their sockets, on every instance (shareSpending). */
  typingPerSecond: number;
}
const DEFAULT_LIMITS: RealtimeLimits = { maxSocketsPerUser: 20, eventsPerSecond: 50, typingPerSecond: 5 };

export function createRealtime(
  httpServer: HttpServer,
  deps: {
    db: Db;
    logger: Logger;
    clock: Clock;
    onSocketCount?: (n: number) => void;
    /** An acknowledged event (chat:send, service:take) was answered: for the metrics. */
    observeEvent?: EventObserver;
    /** A socket of this user connected or closed (it has already left its rooms): presence kept elsewhere may change. */
    onUserSocket?: (userId: string) => void;
    calls?: () => CallsDeps;
    /**
     * What chat:send needs beyond the above (the chat's context), asked per connection like
     * `calls`: its `realtime` is the app's, wrapped (Web Push to the absent), not this bare one.
     * service:take uses that `realtime` too. Without it neither event is offered.
     */
    chat?: () => Pick<SocketSendDeps, 'storage' | 'config' | 'realtime'>;
    /** The adapter factory (realtime/adapter.ts); undefined = in-memory, one instance. */
    adapter?: Parameters<Io['adapter']>[0];
    limits?: RealtimeLimits;
    /**
     * Origins whose pages may connect. A browser always sends Origin on a cross-origin handshake,
     * so a page of a sibling origin cannot ride the user's cookie; a handshake without Origin
     * (same-origin polling, non-browser clients) has no cookie to abuse and is let through.
     * Undefined: any origin (tests of the realtime layer alone).
     */
    allowedOrigins?: readonly string[];
  },
) {
  const limits = deps.limits ?? DEFAULT_LIMITS;
  const io: Io = new Server(httpServer, {
    path: '/socket.io',
    serveClient: false,
    maxHttpBufferSize: 1_000_000,
    // Same origin only: the app and its API are served by this process.
    cors: undefined,
    ...(deps.adapter && { adapter: deps.adapter }),
  });

  // The handshake carries the same httpOnly cookie as tRPC; no cookie, no socket.
  io.use(async (socket, next) => {
    const origin = socket.handshake.headers.origin;
    if (deps.allowedOrigins && origin !== undefined && !deps.allowedOrigins.includes(origin)) {
      return next(Object.assign(new Error(SOCKET_ORIGIN_REFUSED), { data: { code: 'ORIGIN_REFUSED' } }));
    }
    try {
      const token = requestToken({ cookie: socket.handshake.headers.cookie }, (socket.handshake.auth as { token?: unknown } | undefined)?.token);
      const auth = token ? await resolveSession(deps.db, token, deps.clock.now()) : null;
      if (!auth) return next(new Error(SOCKET_UNAUTHENTICATED));
      // Counted over every instance through the adapter. Two handshakes of one user at the same
      // instant may both pass: the bound is soft by one, which is fine for what it protects.
      const open = await io.in(rooms.user(auth.user.id)).fetchSockets();
      if (open.length >= limits.maxSocketsPerUser) {
        return next(Object.assign(new Error(SOCKET_TOO_MANY), { data: { code: 'TOO_MANY_CONNECTIONS', limit: limits.maxSocketsPerUser } }));
      }
      socket.data.userId = auth.user.id;
      socket.data.sessionId = auth.session.id;
      // The company rooms this socket may be in: those whose member it may act as now.
      socket.data.companyIds = await companiesActingFor(deps.db, auth.user);
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
    disconnectSocket: (socketId) => io.in(socketId).disconnectSockets(true),
    endSessions: (sessionIds) => {
      if (sessionIds.length) io.in(sessionIds.map(rooms.session)).disconnectSockets(true);
    },
    endUserSockets: (userId) => io.in(rooms.user(userId)).disconnectSockets(true),
    revokeCompany: (userId, company, reason) => {
      io.in(rooms.user(userId)).socketsLeave(rooms.company(company.id));
      io.to(rooms.user(userId)).emit('access:revoked', { domain: company.domain, reason });
    },
    askInstance: (request) =>
      new Promise((resolve) => {
        try {
          // Every other instance answers (null when it is not `to`); a late or gone one only costs the adapter's timeout.
          io.serverSideEmit('instance:request', request, (_err: Error | null, responses: unknown[]) => {
            resolve((responses ?? []).find((r) => r !== null && r !== undefined));
          });
        } catch {
          resolve(undefined); // the in-memory adapter: one instance, nobody to ask
        }
      }),
    answerInstances: (instanceId, kind, handler) => {
      instanceHandlers.set(kind, { instanceId, handler });
    },
  };
  const instanceHandlers = new Map<string, { instanceId: string; handler: (body: unknown) => Promise<unknown> }>();
  io.on('instance:request', (request, answer) => {
    if (typeof answer !== 'function') return;
    const entry = request && instanceHandlers.get(request.kind);
    if (!entry || request.to !== entry.instanceId) return answer(null);
    entry.handler(request.body).then(
      (response) => answer(response ?? { ok: true }),
      (err: unknown) => {
        deps.logger.warn({ err, kind: request.kind }, 'instance request failed');
        answer({ error: err instanceof Error ? err.message : String(err) });
      },
    );
  });

  const typingLimiter = new UserRateLimiter(limits.typingPerSecond, 1000);
  if (deps.adapter) shareSpending(io, typingLimiter, deps.logger);
  io.on('connection', (socket) => {
    deps.onSocketCount?.(io.engine.clientsCount);
    limitEventRate(socket, limits.eventsPerSecond);
    void socket.join([rooms.user(socket.data.userId), rooms.session(socket.data.sessionId), ...socket.data.companyIds.map(rooms.company)]);
    socket.emit('session:ready', { userId: socket.data.userId, socketId: socket.id });
    socket.on('ping', (ack) => {
      if (typeof ack === 'function') ack({ serverTime: Date.now() });
    });
    deps.onUserSocket?.(socket.data.userId);
    socket.on('disconnect', () => {
      deps.onSocketCount?.(io.engine.clientsCount);
      deps.onUserSocket?.(socket.data.userId);
    });
    registerChatSocketHandlers(socket, { db: deps.db, realtime, logger: deps.logger, typingLimiter });
    if (deps.chat) {
      const chat = deps.chat();
      registerSocketSend(socket, { db: deps.db, clock: deps.clock, logger: deps.logger, observe: deps.observeEvent, ...chat });
      registerSocketTake(socket, { db: deps.db, clock: deps.clock, logger: deps.logger, observe: deps.observeEvent, realtime: chat.realtime });
    }
    if (deps.calls) registerCallSocketHandlers(socket, deps.calls());
  });

  return { io, realtime };
}

/** The companies whose rooms a new socket of this user joins: each asked through `mayAct`. */
async function companiesActingFor(db: Db, user: { id: string; email: string | null; emailVerifiedAt: Date | null }): Promise<string[]> {
  const memberships = await db.member.findMany({ where: { userId: user.id }, select: { companyId: true, inviteAccepted: true, blocked: true, removed: true } });
  if (!memberships.length) return [];
  const config = await db.appConfig.findUnique({ where: { id: 1 }, select: { verifyEmail: true } });
  const mustVerifyEmail = !!config?.verifyEmail && !!user.email && !user.emailVerifiedAt;
  return memberships.filter((m) => !mayAct('member', m, { mustVerifyEmail })).map((m) => m.companyId);
}

/**
 * A token bucket per socket: `perSecond` tokens a second, up to twice that saved for a burst (a
 * call negotiating its transports sends a dozen requests at once). An event without a token is
 * dropped (an acknowledged one is answered with the reason), and the socket is warned at most
 * once a second; it is never disconnected for sending too fast.
 */
export function limitEventRate(socket: Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>, perSecond: number) {
  const capacity = perSecond * 2;
  let tokens = capacity;
  let last = Date.now();
  let dropped = 0;
  let warnedAt = 0;
  socket.use((packet, next) => {
    const now = Date.now();
    tokens = Math.min(capacity, tokens + ((now - last) / 1000) * perSecond);
    last = now;
    if (tokens >= 1) {
      tokens -= 1;
      return next();
    }
    dropped += 1;
    const ack = packet[packet.length - 1];
    if (typeof ack === 'function') ack({ ok: false, error: SOCKET_TOO_FAST });
    if (now - warnedAt >= 1000) {
      warnedAt = now;
      socket.emit('limit:warning', { reason: SOCKET_TOO_FAST, dropped });
      dropped = 0;
    }
  });
}

/**
 * A token bucket per user (not per socket): `rate` tokens per `periodMs`, up to twice that saved
 * for a burst, shared by all of that user's sockets on this instance, so twenty tabs get no more
 * than one. Idle buckets are forgotten, so memory follows the active users only.
 */
export class UserRateLimiter {
  private readonly buckets = new Map<string, { tokens: number; last: number }>();
  private sweptAt = Date.now();
  constructor(
    private readonly rate: number,
    private readonly periodMs: number,
  ) {}

  /** Told of every token taken here (shareSpending reports them to the other instances). */
  onTake?: (userId: string) => void;

  /** Takes one token for `userId`; false when none is left. */
  take(userId: string, now = Date.now()): boolean {
    const bucket = this.refill(userId, now);
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    this.onTake?.(userId);
    return true;
  }

  /** Tokens `userId` spent elsewhere (another instance) come out of the same bucket. */
  spend(userId: string, count: number, now = Date.now()): void {
    const bucket = this.refill(userId, now);
    // Below zero is a debt: tokens both instances took in the same instant are paid back by
    // waiting, not forgiven (down to one bucket, so a burst of reports never locks someone out long).
    bucket.tokens = Math.max(-this.rate * 2, bucket.tokens - count);
  }

  private refill(userId: string, now: number) {
    const capacity = this.rate * 2;
    if (now - this.sweptAt > 4 * this.periodMs) this.sweep(now, capacity);
    const bucket = this.buckets.get(userId) ?? { tokens: capacity, last: now };
    bucket.tokens = Math.min(capacity, bucket.tokens + ((now - bucket.last) / this.periodMs) * this.rate);
    bucket.last = now;
    this.buckets.set(userId, bucket);
    return bucket;
  }

  private sweep(now: number, capacity: number) {
    this.sweptAt = now;
    for (const [userId, b] of this.buckets) {
      if (b.tokens + ((now - b.last) / this.periodMs) * this.rate >= capacity) this.buckets.delete(userId);
    }
  }
}

/** How often an instance reports the typing tokens spent on it: the lag the shared budget allows. */
const SPENT_REPORT_MS = 100;

/**
 * One typing budget per person over every instance: each instance sums the tokens taken on it and
 * tells the others through the adapter (one message per 100 ms at most, only while someone types),
 * and takes what they report out of its own buckets. A database hit per keystroke event would
 * cost more than the relay; this costs one adapter message beside the relays it already sends.
 * Between two reports each instance may still let a burst through, so the bound is one bucket
 * plus at most one report interval's worth per instance, not N buckets.
 */
function shareSpending(io: Io, limiter: UserRateLimiter, logger: Logger) {
  const spent = new Map<string, number>();
  let timer: NodeJS.Timeout | null = null;
  const report = () => {
    timer = null;
    const batch = Object.fromEntries(spent);
    spent.clear();
    try {
      io.serverSideEmit('typing:spent', batch);
    } catch (err) {
      logger.warn({ err }, 'could not report typing spent to the other instances');
    }
  };
  limiter.onTake = (userId) => {
    spent.set(userId, (spent.get(userId) ?? 0) + 1);
    if (!timer) {
      timer = setTimeout(report, SPENT_REPORT_MS);
      timer.unref();
    }
  };
  io.on('typing:spent', (batch) => {
    if (!batch || typeof batch !== 'object') return;
    for (const [userId, count] of Object.entries(batch)) if (typeof count === 'number' && count > 0) limiter.spend(userId, count);
  });
}
