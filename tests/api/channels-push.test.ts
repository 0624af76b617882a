/**
 * Web Push against a local push service: a session subscribes; a notification of its user is
 * delivered through the outbox, VAPID-signed and encrypted for that browser; a subscription the
 * service reports gone is removed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNotifications } from '../../src/server/modules/notifications/service';
import { settle, until } from '../helpers/chat';
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

  it('follows the person\'s settings: with queue notifications off the request is only in the list; forcePush goes out anyway', async () => {
    const c = await serviceCompany(server, sockets);
    const bia = await c.attendant('Bia Quieta', { groupIds: [c.group('member')] });
    const sub = pushService.subscription();
    await bia.call('channels.pushSubscribe', sub);
    await bia.call('account.update', { settings: { playNotificationFila: false } });

    const visitor = await anonymousVisitor(server, sockets);
    await visitor.call('customer.request', { domain: c.domain, queueKey: 'faleconosco', name: 'Vera', text: 'Oi' });
    // The in-app list keeps what happened; the settings decide what interrupts her.
    await expect.poll(() => server.db.notification.count({ where: { userId: bia.userId, type: 'queueRequest' } })).toBe(1);
    await settle();
    expect(await server.db.channelOutbox.count({ where: { channel: 'push', to: sub.endpoint } })).toBe(0);
    expect(pushService.received.filter((p) => p.endpoint === sub.endpoint)).toEqual([]);

    // A notification sent with forcePush is pushed whatever the settings say.
    await server.db.$transaction((tx) =>
      createNotifications(tx, [{ companyId: c.company.id, userId: bia.userId, type: 'queueRequest', title: 'Urgent', forcePush: true }]),
    );
    await until(() => pushService.received.some((p) => p.endpoint === sub.endpoint));
    expect(pushService.received.find((p) => p.endpoint === sub.endpoint)!.payload).toMatchObject({ title: 'Urgent', type: 'queueRequest' });
  });
});
