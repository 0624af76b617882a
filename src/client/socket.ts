import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '../shared/realtime';

export type AppSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

let socket: AppSocket | undefined;

/**
 * The one Socket.IO connection of this tab, created on first use. It does not connect by itself:
 * the handshake needs the session cookie, so whoever knows the user is signed in calls connect().
 */
export function getSocket(): AppSocket {
  socket ??= io({ path: '/socket.io', withCredentials: true, autoConnect: false });
  return socket;
}
