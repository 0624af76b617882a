/**
 * Names and message texts are stored and rendered as text, never as HTML: a person whose display
 * name is an `<img onerror>` sends such a message in a team conversation; the other member's
 * recents list, the direct conversation's header and the message all show the characters, and no
 * script runs on either page. Real server, database, sockets and Chromium.
 */
import fs from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../helpers/browser';
import { addMember, createCompany, createUser, signIn } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/server';
import { callProcedure } from '../helpers/trpc';

let server: TestServer;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  if (!fs.existsSync('dist/client/index.html')) throw new Error('dist/client is missing: build the browser app first (npm run build)');
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
});
afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => {});
  await browser?.close();
  await server?.close();
});

const HOSTILE_NAME = '<img src=x onerror="window.__xss=(window.__xss||0)+1">';
const HOSTILE_TEXT = '<img src=y onerror="window.__xss=(window.__xss||0)+1"><script>window.__xss=1</script>';

async function open(userId: string, companyId: string): Promise<{ page: Page; cookie: string; dialogs: string[] }> {
  await server.db.user.update({ where: { id: userId }, data: { defaultCompanyId: companyId } });
  const cookie = await signIn(server.db, userId);
  const [name, value] = cookie.split('=') as [string, string];
  const context = await browser.newContext({ locale: 'en-US' });
  contexts.push(context);
  await context.addCookies([{ name, value, url: server.url }]);
  const page = await context.newPage();
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  return { page, cookie, dialogs };
}

const ran = (page: Page) => page.evaluate(() => (window as unknown as { __xss?: number }).__xss);

describe('hostile names and texts render as text', () => {
  it('a display name and a message that are <img onerror> show their characters and run nothing', async () => {
    const owner = await createUser(server.db, { name: 'Ana Souza' });
    const company = await createCompany(server.db, owner.id);
    const mallory = await createUser(server.db, { name: HOSTILE_NAME });
    await addMember(server.db, company.id, mallory.id);
    const ana = await open(owner.id, company.id);
    const m = await open(mallory.id, company.id);

    const started = await callProcedure(server.url, 'chat.startTeam', { domain: company.domain, title: 'Equipe', userIds: [mallory.id] }, { cookie: ana.cookie, type: 'mutation' });
    const { conversationId } = started.data as { conversationId: string };
    const sent = await callProcedure(server.url, 'chat.send', { domain: company.domain, conversationId, clientId: 'x1', text: HOSTILE_TEXT }, { cookie: m.cookie, type: 'mutation' });
    expect(sent.error).toBeUndefined();
    const direct = await callProcedure(server.url, 'chat.startDirect', { domain: company.domain, userId: mallory.id }, { cookie: ana.cookie, type: 'mutation' });
    const directId = (direct.data as { conversationId: string }).conversationId;

    // Stored as typed, not escaped or stripped.
    expect((await server.db.message.findFirstOrThrow({ where: { conversationId, clientId: 'x1' } })).text).toBe(HOSTILE_TEXT);

    // Ana's recents list names Mallory (the direct conversation) with the characters of the name.
    await ana.page.goto(`${server.url}/i/recent`);
    await ana.page.getByText(HOSTILE_NAME).first().waitFor({ timeout: 8_000 });

    // The team conversation: the text, as text (this screen shows no author names).
    await ana.page.goto(`${server.url}/i/recent/chat/${conversationId}`);
    const log = ana.page.getByRole('log', { name: 'Messages' });
    await log.getByText(HOSTILE_TEXT).waitFor({ timeout: 8_000 });

    // The direct conversation: its header is the name.
    await ana.page.goto(`${server.url}/i/recent/chat/${directId}`);
    await ana.page.getByRole('heading', { name: HOSTILE_NAME }).waitFor({ timeout: 8_000 });

    // Mallory's own pages show their name too.
    await m.page.goto(`${server.url}/i/recent/chat/${conversationId}`);
    await m.page.getByRole('log', { name: 'Messages' }).getByText(HOSTILE_TEXT).waitFor({ timeout: 8_000 });

    for (const p of [ana, m]) {
      expect(await ran(p.page)).toBeUndefined();
      expect(p.dialogs).toEqual([]);
      expect(await p.page.locator('img[src="x"], img[src="y"]').count()).toBe(0);
      expect(await p.page.locator('main script, [role="log"] script').count()).toBe(0);
    }
  });
});
