/**
 * What the browser shows when the server limits its live connection: a banner that stays while
 * the socket is refused for too many tabs (and goes once the user closes one and clicks OK), and
 * a short toast for a `limit:warning`. One socket per user here, so the second tab is refused.
 */
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { rooms, SOCKET_TOO_FAST } from '../../src/shared/realtime';
import type { TestServer } from '../helpers/server';
import { e2eSuite, ownerContext } from '../helpers/suite';
import { budget } from '../helpers/time';

let server: TestServer;
let browser: Browser;
const contexts = e2eSuite((started) => ({ server, browser } = started), { env: { MAX_SOCKETS_PER_USER: '1' } });

/** Waits until the server holds exactly `count` sockets of the user (it notices a closed tab a moment later). */
async function socketsOf(userId: string, count: number) {
  const end = Date.now() + budget(15_000);
  for (;;) {
    const open = await server.server.io.in(rooms.user(userId)).fetchSockets();
    if (open.length === count) return;
    if (Date.now() > end) throw new Error(`expected ${count} sockets, the server has ${open.length}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('live connection notices', () => {
  it('shows a lasting banner in the tab refused for too many tabs, a toast on limit:warning, and recovers with OK', async () => {
    const { user, context } = await ownerContext({ server, browser }, contexts, 'Ana Souza');

    const first = await context.newPage();
    await first.goto(server.url + '/i/recent');
    await first.getByRole('heading', { name: 'Recent chats' }).waitFor();
    await socketsOf(user.id, 1);

    const second = await context.newPage();
    await second.goto(server.url + '/i/recent');
    const banner = second.getByRole('alert').filter({ hasText: 'You have one or more Atende tabs open' });
    await banner.waitFor();
    expect(await banner.textContent()).toContain('please close all the others and click OK to reload the page and start the system.');
    expect(await first.getByRole('alert').filter({ hasText: 'tabs open' }).count()).toBe(0);

    // The connected tab is told some of its events were dropped.
    server.server.io.to(rooms.user(user.id)).emit('limit:warning', { reason: SOCKET_TOO_FAST, dropped: 3 });
    await first.getByRole('status').filter({ hasText: 'Some of your actions came too fast and were not sent' }).waitFor();

    // The banner does not time out: it stays until the user closes a tab and clicks OK.
    expect(await banner.isVisible()).toBe(true);
    await second.evaluate(() => ((window as unknown as { oldDocument: boolean }).oldDocument = true));
    await first.close();
    await socketsOf(user.id, 0);
    // OK reloads the page. The refused tab also tries again whenever one of its screens asks for
    // the connection, so once a tab is closed it may recover by itself first (the banner goes):
    // either way it ends connected, without the banner.
    const pressed = await banner.getByRole('button', { name: 'OK' }).click({ timeout: budget(3000) }).then(() => true, () => false);
    if (pressed) await second.waitForFunction(() => !(window as unknown as { oldDocument?: boolean }).oldDocument);
    await second.getByRole('heading', { name: 'Recent chats' }).waitFor();
    await socketsOf(user.id, 1);
    expect(await second.getByRole('alert').filter({ hasText: 'tabs open' }).count()).toBe(0);
  });
});
