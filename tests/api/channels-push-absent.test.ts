/**
 * Web Push for people with no tab open, against the local push service: a new message in one of
 * their conversations and a call ringing for them are pushed, with a click target; nothing is
 * pushed to someone with a socket open, nor for messages when their "sounds and push" setting
 * for received messages is off.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveWorkerBin } from '../../src/server/media';
import { settle } from '../helpers/chat';
import { startPushService } from '../helpers/push';
import { startTestServer, type TestServer } from '../helpers/server';
import { anonymousVisitor, serviceCompany, until, type ClientSocket } from '../helpers/service';

const { bin } = resolveWorkerBin(process.env.MEDIASOUP_WORKER_BIN);

let server: TestServer;
let pushService: Awaited<ReturnType<typeof startPushService>>;
const sockets: ClientSocket[] = [];
beforeAll(async () => {
  pushService = await startPushService();
  const media: Record<string, string> = bin ? { MEDIASOUP_NUM_WORKERS: '1', MEDIASOUP_WORKER_BIN: bin, RTC_LISTEN_IP: '127.0.0.1', APP_ENV: 'dev' } : {};
  server = await startTestServer({ env: { CHANNEL_POLL_MS: '50', CHANNEL_RETRY_BASE_MS: '50', CHANNEL_MAX_ATTEMPTS: '3', ...media } });
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await server?.close();
  await pushService?.close();
});

const pushesTo = (endpoint: string, type: string) => pushService.received.filter((p) => p.endpoint === endpoint && (p.payload as { type?: string }).type === type);

describe('Web Push for absent people', () => {
  it('a new message reaches an attendant with no tab open, opening the conversation; none with a tab open or with the setting off', async () => {
    const c = await serviceCompany(server, sockets);
    const bia = await c.attendant('Bia Ausente', { groupIds: [c.group('member')] });
    const sub = pushService.subscription();
    await bia.call('channels.pushSubscribe', sub);
    const visitor = await anonymousVisitor(server, sockets);
    const { conversationId } = await visitor.call('customer.request', { domain: c.domain, queueKey: 'faleconosco', name: 'Vera', text: 'Oi' });
    await bia.call('service.take', { domain: c.domain, conversationId });

    // Messages within one batch make one push (counted, the latest text); never more than one each.
    for (const [i, text] of ['Tem alguém aí?', 'Preciso de ajuda', 'Com o boleto'].entries()) await visitor.call('customer.send', { conversationId, clientId: `v${i}`, text });
    await until(() => pushesTo(sub.endpoint, 'message').some((p) => JSON.stringify(p.payload).includes('Com o boleto')));
    const pushes = pushesTo(sub.endpoint, 'message');
    expect(pushes.length).toBeLessThanOrEqual(3);
    expect(pushes.at(-1)!.payload).toMatchObject({ title: expect.stringContaining('Vera'), body: expect.stringContaining('Com o boleto'), action: `/i/recent/chat/${conversationId}`, id: `conversation:${conversationId}` });
    // Her own messages never push to her.
    await bia.call('chat.send', { domain: c.domain, conversationId, clientId: 'b1', text: 'Olá Vera' });

    // With a tab open she reads it there: no push.
    const socket = await bia.open();
    const before = pushesTo(sub.endpoint, 'message').length;
    await visitor.call('customer.send', { conversationId, clientId: 'v9', text: 'Obrigada' });
    await settle();
    expect(pushesTo(sub.endpoint, 'message')).toHaveLength(before);
    socket.disconnect();
    await until(async () => !(await server.server.deps.realtime.onlineUsers([bia.userId])).has(bia.userId));

    // "Sounds and push" for received messages off: no push either.
    await bia.call('account.update', { settings: { playMessagensReceive: false } });
    await visitor.call('customer.send', { conversationId, clientId: 'v10', text: 'Mais uma coisa' });
    await settle();
    expect(pushesTo(sub.endpoint, 'message')).toHaveLength(before);
    expect(await server.db.channelOutbox.count({ where: { channel: 'push', to: sub.endpoint, body: { contains: 'Mais uma coisa' } } })).toBe(0);
  });

  it("a message sent over a colleague's open socket (chat:send) is pushed too", async () => {
    const c = await serviceCompany(server, sockets);
    const bia = await c.attendant('Bia Socket', { groupIds: [c.group('member')] });
    const sub = pushService.subscription();
    await bia.call('channels.pushSubscribe', sub);
    const { conversationId } = await c.admin.call('chat.startDirect', { domain: c.domain, userId: bia.userId });
    const admin = await c.admin.open();
    const ack = await admin.timeout(10_000).emitWithAck('chat:send', { domain: c.domain, conversationId, clientId: 's1', text: 'Pelo socket' });
    expect(ack).toMatchObject({ ok: true });
    await until(() => pushesTo(sub.endpoint, 'message').some((p) => JSON.stringify(p.payload).includes('Pelo socket')));
    expect(pushesTo(sub.endpoint, 'message').at(-1)!.payload).toMatchObject({ action: `/i/recent/chat/${conversationId}` });
  });

  it.skipIf(!bin)('a call ringing for someone with no tab open is pushed, opening the call', async () => {
    const c = await serviceCompany(server, sockets, { plan: { calls: 1 } });
    const bia = await c.attendant('Bia Chamada', { groupIds: [c.group('member')] });
    const sub = pushService.subscription();
    await bia.call('channels.pushSubscribe', sub);
    const { conversationId } = await c.admin.call('chat.startDirect', { domain: c.domain, userId: bia.userId });
    const { callId } = await c.admin.call('calls.start', { domain: c.domain, conversationId, type: 2 });
    await until(() => pushesTo(sub.endpoint, 'call').length === 1);
    expect(pushesTo(sub.endpoint, 'call')[0]!.payload).toMatchObject({ id: `call:${callId}`, title: 'Incoming video call', action: `/${c.domain}/call/${callId}` });
    expect((pushesTo(sub.endpoint, 'call')[0]!.payload as { body: string }).body).toMatch(/is calling you$/);
  });
});
