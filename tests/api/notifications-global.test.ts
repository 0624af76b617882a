/**
 * Global notifications (spec Notification.isGlobal): only the installation's operator sends them;
 * one row reaches every user of every company (or every admin) in their notifications list, read
 * per person, and is pushed to their subscribed browsers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, signIn } from '../helpers/fixtures';
import { startPushService } from '../helpers/push';
import { startTestServer, type TestServer } from '../helpers/server';
import { personFor, serviceCompany, until, type ClientSocket } from '../helpers/service';

const OPERATOR = 'root@global.test';
let server: TestServer;
let pushService: Awaited<ReturnType<typeof startPushService>>;
const sockets: ClientSocket[] = [];
beforeAll(async () => {
  pushService = await startPushService();
  server = await startTestServer({ env: { OPERATOR_EMAILS: OPERATOR, CHANNEL_POLL_MS: '50' } });
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await server?.close();
  await pushService?.close();
});

const listOf = async (who: { call: (p: string, i?: Record<string, unknown>, t?: 'query' | 'mutation') => Promise<any> }) =>
  (await who.call('notifications.list', {}, 'query')) as { items: { id: string; title: string; read: boolean; isGlobal: boolean }[]; unread: number };

describe('global notifications', () => {
  it('the operator reaches every user of every company once stored; read per person; pushed; admins-only reaches admins', async () => {
    const c1 = await serviceCompany(server, sockets);
    const c2 = await serviceCompany(server, sockets);
    const bia = await c1.attendant('Bia Global', { groupIds: [c1.group('member')] });
    const sub = pushService.subscription();
    await bia.call('channels.pushSubscribe', sub);
    const root = await createUser(server.db, { name: 'Root', email: OPERATOR });
    const operator = personFor(server, root.id, await signIn(server.db, root.id), sockets);

    const input = { title: 'Maintenance tonight at 22:00', subtitle: 'About 10 minutes', audience: 'all' };
    expect((await c1.admin.attempt('notifications.sendGlobal', input)).error).toMatchObject({ code: 'FORBIDDEN' });
    expect((await operator.attempt('notifications.sendGlobal', { ...input, title: ' ' })).error).toMatchObject({ code: 'BAD_REQUEST' });
    const sent = await operator.call('notifications.sendGlobal', input);
    expect(await server.db.notification.count({ where: { isGlobal: true } })).toBe(1);
    expect(sent.recipients).toBeGreaterThanOrEqual(3);

    for (const who of [bia, c1.admin, c2.admin]) {
      const list = await listOf(who);
      expect(list.items.find((n) => n.id === sent.id)).toMatchObject({ title: input.title, read: false, isGlobal: true });
      expect(list.unread).toBeGreaterThanOrEqual(1);
    }
    await until(() => pushService.received.some((p) => p.endpoint === sub.endpoint && (p.payload as { id?: string }).id === sent.id));
    expect(pushService.received.find((p) => (p.payload as { id?: string }).id === sent.id)!.payload).toMatchObject({ title: input.title, body: 'About 10 minutes', type: 'global' });

    // Read by one person, unread for the others.
    const before = (await listOf(bia)).unread;
    await bia.call('notifications.markRead', { ids: [sent.id] });
    expect((await listOf(bia)).items.find((n) => n.id === sent.id)!.read).toBe(true);
    expect((await listOf(bia)).unread).toBe(before - 1);
    expect((await listOf(c2.admin)).items.find((n) => n.id === sent.id)!.read).toBe(false);
    await c2.admin.call('notifications.markAllRead');
    expect((await listOf(c2.admin)).items.find((n) => n.id === sent.id)!.read).toBe(true);

    // To admins only: the attendant does not see it.
    const admins = await operator.call('notifications.sendGlobal', { title: 'New billing rules', audience: 'admins' });
    expect((await listOf(c1.admin)).items.some((n) => n.id === admins.id)).toBe(true);
    expect((await listOf(bia)).items.some((n) => n.id === admins.id)).toBe(false);
    expect((await bia.attempt('notifications.markRead', { ids: [admins.id] })).error).toMatchObject({ code: 'NOT_FOUND' });
  });
});
