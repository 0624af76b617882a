/**
 * Web Push against a local push service: a session subscribes; a notification of its user is
 * delivered through the outbox, VAPID-signed and encrypted for that browser; a subscription the
 * service reports gone is removed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../helpers/chat';
import { startPushService } from '../helpers/push';
import { startTestServer, type TestServer } from '../helpers/server';
import { anonymousVisitor, serviceCompany, type ClientSocket } from '../helpers/service';

let server: TestServer;
let pushService: Awaited<ReturnType<typeof startPushService>>;
const sockets: ClientSocket[] = [];
beforeAll(async () => {
  pushService = await startPushService();
  server = await startTestServer({ env: { CHANNEL_POLL_MS: '50', CHANNEL_RETRY_BASE_MS: '50', CHANNEL_MAX_ATTEMPTS: '3' } });
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await server?.close();
  await pushService?.close();
});

describe('Web Push', () => {
  it("delivers a user's notifications to their subscribed browsers, signed and encrypted; drops a gone subscription", async () => {
    const c = await serviceCompany(server, sockets);
    const bia = await c.attendant('Bia Atendente', { groupIds: [c.group('member')] });
    const { publicKey } = await bia.call('channels.pushKey', {}, 'query');
    expect(Buffer.from(publicKey, 'base64url')).toHaveLength(65);
    const sub = pushService.subscription();
    await bia.call('channels.pushSubscribe', sub);
    expect((await bia.attempt('channels.pushSubscribe', { endpoint: 'not a url', keys: sub.keys })).error?.code).toBe('BAD_REQUEST');

    const visitor = await anonymousVisitor(server, sockets);
    await visitor.call('customer.request', { domain: c.domain, queueKey: 'faleconosco', name: 'Vera', text: 'Oi' });
    await until(() => pushService.received.some((p) => p.endpoint === sub.endpoint));
    const push = pushService.received.find((p) => p.endpoint === sub.endpoint)!;
    expect(push.payload).toMatchObject({ title: 'New request in the queue', body: 'Vera · Fale Conosco', type: 'queueRequest' });
    expect(push.audience).toBe(new URL(sub.endpoint).origin);
    expect(Number(push.ttl)).toBeGreaterThan(0);

    pushService.expire(sub.endpoint);
    const other = await anonymousVisitor(server, sockets);
    await other.call('customer.request', { domain: c.domain, queueKey: 'faleconosco', name: 'Rui', text: 'Olá' });
    await expect.poll(() => server.db.pushSubscription.count({ where: { endpoint: sub.endpoint } })).toBe(0);
    await bia.call('channels.pushUnsubscribe', { endpoint: sub.endpoint });
  });
});
