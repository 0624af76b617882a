import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '../shared/realtime';
import { widgetToken } from './embed';

export type AppSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

let socket: AppSocket | undefined;

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
        if (event.persisted && !created.connected) created.connect();
      });
    }
    socket = created;
  }
  return socket;
}
