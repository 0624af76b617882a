import { io, type Socket } from 'socket.io-client';
import { SOCKET_TOO_MANY, type ClientToServerEvents, type ServerToClientEvents } from '../shared/realtime';
import { widgetToken } from './embed';

export type AppSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

let socket: AppSocket | undefined;

/** How long a tab refused for too many tabs waits before its one retry (see getSocket). */
const RETRY_REFUSED_MS = 1000;

/** The server refused the handshake because the user has too many live tabs. */
export function isTooMany(err: Error & { data?: { code?: string } }): boolean {
  return err.data?.code === 'TOO_MANY_CONNECTIONS' || err.message === SOCKET_TOO_MANY;
}

/**
 * WebSocket first, long-polling only when WebSocket cannot connect (a proxy that blocks it).
 * Socket.IO's default starts on polling and upgrades: under load that upgrade sometimes dropped
 * the connection a moment after its probe, and a push sent in that gap was lost until the next
 * catch-up. Starting on WebSocket has no upgrade to drop, and needs no sticky sessions.
 */
export const SOCKET_TRANSPORTS: { transports: string[]; tryAllTransports: boolean } = { transports: ['websocket', 'polling'], tryAllTransports: true };

/**
 * The one Socket.IO connection of this tab, created on first use. It does not connect by itself:
 * the handshake needs the session cookie, so whoever knows the user is signed in calls connect().
 */
export function getSocket(): AppSocket {
  if (!socket) {
    const created: AppSocket = io({
      path: '/socket.io',
      withCredentials: true,
      autoConnect: false,
      ...SOCKET_TRANSPORTS,
      // Read at every (re)connection: the embedded widget's token (see embed.ts), else the cookie.
      auth: (cb) => {
        const token = widgetToken();
        cb(token ? { token } : {});
      },
    });
    // The server closes the sockets of a session that ends. When the tab itself changed identity
    // (signed in, became a guest) it now holds a new session cookie: connect again with it. A
    // session ended elsewhere has no successor, and the handshake refuses that one attempt.
    created.on('disconnect', (reason) => {
      if (reason === 'io server disconnect') setTimeout(() => created.connect(), 0);
    });
    // A reloaded tab's new handshake can reach the server before its old connection's goodbye:
    // refused as one tab too many by itself. The first refusal is tried again a moment later and
    // marked `retrying` (the banner waits for a second refusal); a connection resets it.
    let refusedOnce = false;
    created.on('connect', () => (refusedOnce = false));
    created.on('connect_error', (err: Error & { data?: { code?: string; retrying?: boolean } }) => {
      if (!isTooMany(err) || refusedOnce) return;
      refusedOnce = true;
      err.data = { ...err.data, retrying: true };
      setTimeout(() => connectSocket(), RETRY_REFUSED_MS);
    });
    // A reloaded or closed tab says goodbye at once. Without it a connection still on long-polling
    // lingers on the server until its ping times out (45 s): the reloaded tab counts twice against
    // MAX_SOCKETS_PER_USER and the person looks online after leaving. `pagehide`, not
    // `beforeunload`: a leave cancelled at the unsaved-changes prompt keeps its connection.
    if (typeof window !== 'undefined') {
      window.addEventListener('pagehide', () => {
        if (created.connected) created.disconnect();
      });
      // Back from the browser's page cache: live again.
      window.addEventListener('pageshow', (event) => {
        if (event.persisted) connectSocket();
      });
    }
    socket = created;
  }
  return socket;
}

/**
 * Connects the tab's socket unless it is connected or already connecting. Never call
 * `socket.connect()` directly: while the transport is open and the namespace's handshake is on its
 * way, a second connect() sends a second handshake, and the server then holds two sockets for
 * one tab (one too many for MAX_SOCKETS_PER_USER).
 */
export function connectSocket(): AppSocket {
  const s = getSocket();
  if (!s.active) s.connect();
  return s;
}
