/**
 * The typing limit is one budget per person over all their tabs, on every instance (issue 12):
 * a person whose tabs are spread over two instances relays no more typing than with all of them
 * on one. Two instances of the real app over the PostgreSQL adapter.
 */
import { randomBytes } from 'node:crypto';
import { io as connect } from 'socket.io-client';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { collect, settle, team, type ClientSocket } from '../helpers/chat';
import { createTestDatabase } from '../helpers/db';
import { startTestServer, type TestServer } from '../helpers/server';
import { until } from '../helpers/service';

const RATE = 5;
let a: TestServer;
let b: TestServer;
const sockets: ClientSocket[] = [];

beforeAll(async () => {
  const databaseUrl = await createTestDatabase();
  const key = `test-${randomBytes(4).toString('hex')}`;
  const env = (instance: string) => ({ SOCKET_ADAPTER: 'postgres', SOCKET_ADAPTER_KEY: key, INSTANCE_ID: instance, USER_TYPING_PER_SECOND: String(RATE) });
  a = await startTestServer({ databaseUrl, env: env('a') });
  b = await startTestServer({ databaseUrl, env: env('b') });
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await b?.close();
  await a?.close();
});

async function tabOn(server: TestServer, cookie: string): Promise<ClientSocket> {
  const socket: ClientSocket = connect(server.url, { transports: ['websocket'], extraHeaders: { cookie }, reconnection: false, forceNew: true });
  sockets.push(socket);
  await new Promise((resolve, reject) => {
    socket.once('session:ready', resolve);
    socket.once('connect_error', reject);
  });
  return socket;
}

it('tabs on A and B share one typing budget: the relayed typing stays within one bucket plus its refill', async () => {
  const { people } = await team(a, sockets, 2, ['Ana', 'Bruno']);
  const [ana, bruno] = people;
  const { conversationId } = await ana.call('chat.startDirect', { userId: bruno.userId });
  const tabs = [await tabOn(a, ana.cookie), await tabOn(a, ana.cookie), await tabOn(b, ana.cookie), await tabOn(b, ana.cookie)];
  const typing = collect(await tabOn(a, bruno.cookie), 'typing');

  // Every tab types 20 times a second for about four seconds (each tab well under its own socket
  // limit): 160 events a second from one person, half through each instance.
  const started = Date.now();
  for (let round = 0; round < 80; round++) {
    for (const t of tabs) t.emit('typing', { conversationId });
    await new Promise((r) => setTimeout(r, 50));
  }
  const seconds = (Date.now() - started) / 1000;
  await until(() => typing.length >= 1);
  await settle();
  // One bucket (twice the rate) plus its refill over the flood. Until the first report arrives each
  // instance spends its own full bucket, and each report comes up to 100 ms late: at most about
  // one more bucket, whatever the flood's length. Each instance on its own would let through
  // twice the budget (60 for four seconds), a gap that grows with the flood.
  const oneBudget = 2 * RATE + RATE * seconds;
  expect(typing.length).toBeGreaterThan(RATE);
  expect(typing.length).toBeLessThanOrEqual(Math.ceil(oneBudget + 3 * RATE));
});
