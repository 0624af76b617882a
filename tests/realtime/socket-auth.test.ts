import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOCKET_UNAUTHENTICATED, type ClientToServerEvents, type ServerToClientEvents } from '../../src/shared/realtime';
import { createUser, signIn } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/server';

type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
let server: TestServer;
const sockets: ClientSocket[] = [];

function open(cookie?: string): ClientSocket {
  const socket: ClientSocket = connect(server.url, {
    path: '/socket.io',
    transports: ['websocket'],
    extraHeaders: cookie ? { cookie } : {},
    reconnection: false,
  });
  sockets.push(socket);
  return socket;
}

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await server?.close();
});

describe('Socket.IO handshake', () => {
  it('accepts a socket with a valid session and delivers what is sent to its user room', async () => {
    const user = await createUser(server.db);
    const socket = open(await signIn(server.db, user.id));
    const ready = await new Promise<{ userId: string }>((resolve, reject) => {
      socket.once('session:ready', resolve);
      socket.once('connect_error', reject);
    });
    expect(ready.userId).toBe(user.id);

    const received = new Promise((resolve) => socket.once('notification:new', resolve));
    server.server.deps.realtime.toUser(user.id, 'notification:new', { id: 'n1', title: 'Hello' });
    expect(await received).toEqual({ id: 'n1', title: 'Hello' });

    const pong = await socket.timeout(2000).emitWithAck('ping');
    expect(pong.serverTime).toBeGreaterThan(0);
  });

  it('reaches every tab of the same user and nobody else', async () => {
    const [alice, bob] = [await createUser(server.db), await createUser(server.db)];
    // Sign in first, then open: a socket opened before an await could get its session:ready
    // before anyone listens for it.
    const cookies = [await signIn(server.db, alice.id), await signIn(server.db, alice.id), await signIn(server.db, bob.id)];
    const [tabs, other] = [[open(cookies[0]), open(cookies[1])], open(cookies[2])];
    await Promise.all([...tabs, other].map((s) => new Promise((r) => s.once('session:ready', r))));
    let leaked = false;
    other.on('notification:new', () => (leaked = true));
    const got = Promise.all(tabs.map((s) => new Promise((r) => s.once('notification:new', r))));
    server.server.deps.realtime.toUser(alice.id, 'notification:new', { id: 'n2', title: 'Both tabs' });
    await got;
    await new Promise((r) => setTimeout(r, 100));
    expect(leaked).toBe(false);
  });

  it.each([
    ['no cookie', undefined],
    ['an unknown session', 'atende_sid=not-a-real-session'],
  ])('refuses a socket with %s, saying why', async (_label, cookie) => {
    const socket = open(cookie);
    const err = await new Promise<Error>((resolve) => socket.once('connect_error', resolve));
    expect(err.message).toBe(SOCKET_UNAUTHENTICATED);
    expect(socket.connected).toBe(false);
  });

  it('refuses a socket whose session has expired', async () => {
    const user = await createUser(server.db);
    const cookie = await signIn(server.db, user.id);
    await server.db.session.updateMany({ where: { userId: user.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const socket = open(cookie);
    const err = await new Promise<Error>((resolve) => socket.once('connect_error', resolve));
    expect(err.message).toBe(SOCKET_UNAUTHENTICATED);
  });
});
