/**
 * Two app instances on loopback, one database, one Socket.IO adapter between them (PostgreSQL
 * LISTEN/NOTIFY always; Redis too when a Redis server answers on 127.0.0.1:6379): what is written
 * through A reaches the tabs connected to B — messages, presence, the queue, a call's ringing —
 * and "who is online" is answered for both instances' sockets.
 */
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { io as connect } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveWorkerBin } from '../../src/server/media';
import type { PresenceEvent } from '../../src/shared/chat-events';
import { SOCKET_TOO_MANY } from '../../src/shared/realtime';
import { collect, messagesOf, settle, team, until, type ClientSocket, type Person } from '../helpers/chat';
import { createTestDatabase } from '../helpers/db';
import { startTestServer, type TestServer } from '../helpers/server';
import { anonymousVisitor, personFor, record, serviceCompany } from '../helpers/service';

const { bin } = resolveWorkerBin(process.env.MEDIASOUP_WORKER_BIN);

function redisAnswers(): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(6379, '127.0.0.1');
    s.setTimeout(500);
    s.once('connect', () => (s.end(), resolve(true)));
    s.once('error', () => resolve(false));
    s.once('timeout', () => (s.destroy(), resolve(false)));
  });
}
const hasRedis = await redisAnswers();

const adapters = [
  { kind: 'postgres', available: true },
  { kind: 'redis', available: hasRedis },
] as const;

/** Opens a tab of a person on the given instance (the load balancer sent them there). */
async function tabOn(server: TestServer, sockets: ClientSocket[], cookie: string): Promise<ClientSocket> {
  const socket: ClientSocket = connect(server.url, { transports: ['websocket'], extraHeaders: { cookie }, reconnection: false });
  sockets.push(socket);
  await new Promise((resolve, reject) => {
    socket.once('session:ready', resolve);
    socket.once('connect_error', reject);
  });
  return socket;
}

for (const adapter of adapters) {
  describe.skipIf(!adapter.available)(`two instances over the ${adapter.kind} adapter${adapter.available ? '' : ' [skipped: no Redis on 127.0.0.1:6379]'}`, () => {
    let a: TestServer;
    let b: TestServer;
    const sockets: ClientSocket[] = [];

    beforeAll(async () => {
      const databaseUrl = await createTestDatabase();
      // A key of its own: test files running at the same time never hear each other's emits.
      const key = `test-${randomBytes(4).toString('hex')}`;
      const env = (instance: string) => ({
        SOCKET_ADAPTER: adapter.kind,
        SOCKET_ADAPTER_KEY: key,
        ...(adapter.kind === 'redis' && { REDIS_URL: 'redis://127.0.0.1:6379' }),
        INSTANCE_ID: instance,
        MAX_SOCKETS_PER_USER: '3',
        // Both can host calls when a worker binary is there; Ana's call is hosted by A, where she starts it.
        ...(bin && { MEDIASOUP_NUM_WORKERS: '1', MEDIASOUP_WORKER_BIN: bin, RTC_LISTEN_IP: '127.0.0.1' }),
      });
      a = await startTestServer({ databaseUrl, env: env('a') });
      b = await startTestServer({ databaseUrl, env: env('b') });
    });
    afterAll(async () => {
      for (const s of sockets) s.disconnect();
      await b?.close();
      await a?.close();
    });

    it('a message sent through A reaches a tab on B, in order, once each', async () => {
      const { people } = await team(a, sockets, 2, ['Ana', 'Bruno']);
      const [ana, bruno] = people;
      const { conversationId } = await ana.call('chat.startDirect', { userId: bruno.userId });
      const onB = messagesOf(await tabOn(b, sockets, bruno.cookie));
      const onA = messagesOf(await tabOn(a, sockets, ana.cookie));
      for (let i = 1; i <= 5; i++) await ana.call('chat.send', { conversationId, clientId: `x${i}`, text: `olá ${i}` });
      await until(() => onB.length === 5 && onA.length === 5);
      expect(onB.map((m) => [m.seq, m.text])).toEqual([1, 2, 3, 4, 5].map((i) => [i, `olá ${i}`]));
      await settle();
      expect(onB).toHaveLength(5);
    });

    it('presence: a tab on B shows online to a watcher on A, and offline when closed; A answers for B', async () => {
      const { people } = await team(a, sockets, 2, ['Ana', 'Bruno']);
      const [ana, bruno] = people;
      const seen = collect(await tabOn(a, sockets, ana.cookie), 'presence:update');
      const about = (events: PresenceEvent[]) => events.filter((e) => e.userId === bruno.userId).map((e) => e.status);

      const tab1 = await tabOn(b, sockets, bruno.cookie);
      const tab2 = await tabOn(a, sockets, bruno.cookie);
      await until(() => about(seen).length === 1);
      expect(await ana.query('chat.presence', { userIds: [bruno.userId] })).toEqual([{ userId: bruno.userId, status: 'online' }]);

      // One tab on each instance: closing the one on A leaves him online (his B tab is still open).
      tab2.disconnect();
      await settle();
      expect(about(seen)).toEqual(['online']);
      expect(await ana.query('chat.presence', { userIds: [bruno.userId] })).toEqual([{ userId: bruno.userId, status: 'online' }]);

      tab1.disconnect();
      await until(() => about(seen).length === 2);
      expect(about(seen)).toEqual(['online', 'offline']);
      expect(await ana.query('chat.presence', { userIds: [bruno.userId] })).toEqual([{ userId: bruno.userId, status: 'offline' }]);
    });

    it('the queue: a request made through A appears on B, and a take through A removes it there', async () => {
      const c = await serviceCompany(a, sockets);
      const attendant = await c.attendant('Sônia', { groupIds: [c.group('member')] });
      const onB = await tabOn(b, sockets, attendant.cookie);
      const [added, removed] = [record(onB, 'queue:added'), record(onB, 'queue:removed')];

      const v = await anonymousVisitor(a, sockets);
      const { conversationId } = await v.call('customer.request', { domain: c.domain, queueKey: 'faleconosco', name: 'Vítor', text: 'Oi' });
      await until(() => added.length === 1);
      expect(added[0]).toMatchObject({ domain: c.domain, request: expect.objectContaining({ conversationId, customerName: 'Vítor' }) });

      const taker = personFor(a, attendant.userId, attendant.cookie, sockets);
      await taker.call('service.take', { domain: c.domain, conversationId });
      await until(() => removed.length === 1);
      expect(removed[0]).toEqual({ domain: c.domain, conversationIds: [conversationId] });
    });

    it('sockets per user are counted over both instances: the extra tab is refused with the reason', async () => {
      const { people } = await team(a, sockets, 1, ['Ana']);
      const ana: Person = people[0];
      await tabOn(a, sockets, ana.cookie);
      await tabOn(b, sockets, ana.cookie);
      await tabOn(b, sockets, ana.cookie);
      await expect(tabOn(a, sockets, ana.cookie)).rejects.toMatchObject({ message: SOCKET_TOO_MANY, data: { code: 'TOO_MANY_CONNECTIONS', limit: 3 } });
    });

    it.skipIf(!bin)('a call started through A rings the callee on B; accepting through B tells the caller on A', async () => {
      const { people } = await team(a, sockets, 2, ['Ana', 'Bruno']);
      const [ana, bruno] = people;
      const anaOnA = record(await tabOn(a, sockets, ana.cookie), 'call:signal');
      const brunoOnB = record(await tabOn(b, sockets, bruno.cookie), 'call:signal');
      const { conversationId } = await ana.call('chat.startDirect', { userId: bruno.userId });
      const { callId, hostInstance } = await ana.call('calls.start', { conversationId, type: 1 });
      expect(hostInstance).toBe('a');
      await until(() => brunoOnB.length === 1);
      expect(brunoOnB[0]).toMatchObject({ cmd: 'create', callId, from: { id: ana.userId }, to: { id: bruno.userId } });

      await personFor(b, bruno.userId, bruno.cookie, sockets).call('calls.accept', { callId });
      await until(() => anaOnA.some((s) => s.cmd === 'accepted'));
    });
  });
}
