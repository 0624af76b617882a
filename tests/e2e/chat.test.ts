/**
 * The chat in the browser (issue 5): two people in two browser profiles talk; the other sees
 * "typing", ticks go to read, a message survives going offline and arrives once, a hostile text
 * stays text. Real server, database, sockets and Chromium.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { addMember, createCompany, createUser, signIn } from '../helpers/fixtures';
import type { TestServer } from '../helpers/server';
import { e2eSuite } from '../helpers/suite';
import { callProcedure } from '../helpers/trpc';
import { RECENTS_REFRESH_MS } from '../../src/shared/constants';

let server: TestServer;
let browser: Browser;
const contexts = e2eSuite((started) => ({ server, browser } = started));

interface Person {
  userId: string;
  name: string;
  cookie: string;
  context: BrowserContext;
  page: Page;
}

/** A member of the company, signed in in their own browser profile, the company selected. */
async function member(companyId: string, name: string, opts: { isAdmin?: boolean; userId?: string } = {}): Promise<Person> {
  const userId = opts.userId ?? (await createUser(server.db, { name })).id;
  if (!opts.userId) await addMember(server.db, companyId, userId, { isAdmin: opts.isAdmin });
  await server.db.user.update({ where: { id: userId }, data: { defaultCompanyId: companyId } });
  const cookie = await signIn(server.db, userId);
  const [cookieName, value] = cookie.split('=') as [string, string];
  const context = await browser.newContext({ locale: 'en-US' });
  contexts.push(context);
  await context.addCookies([{ name: cookieName, value, url: server.url }]);
  return { userId, name, cookie, context, page: await context.newPage() };
}

/** A company with its admin Ana and a member Bruno, each in a browser. */
async function team() {
  const ana = await createUser(server.db, { name: 'Ana Souza' });
  const company = await createCompany(server.db, ana.id);
  const a = await member(company.id, 'Ana Souza', { userId: ana.id });
  const b = await member(company.id, 'Bruno Lima');
  return { company, a, b };
}

async function call<T>(who: Person, path: string, input: Record<string, unknown>, domain: string, type: 'query' | 'mutation' = 'mutation') {
  const res = await callProcedure(server.url, path, { domain, ...input }, { cookie: who.cookie, type });
  if (res.error) throw new Error(res.error.message);
  return res.data as T;
}

const messages = (page: Page) => page.getByRole('log', { name: 'Messages' });
const composer = (page: Page) => page.getByRole('combobox', { name: 'Message' });

async function openChat(p: Person, conversationId: string) {
  await p.page.goto(`${server.url}/i/recent/chat/${conversationId}`);
  await composer(p.page).waitFor();
}

describe('two people chat', () => {
  it('send and receive live, see typing, ticks go from sent to read, the list follows', async () => {
    const { company, a, b } = await team();
    const { conversationId } = await call<{ conversationId: string }>(a, 'chat.startDirect', { userId: b.userId }, company.domain);
    // A connected tab sends over its socket (chat:send), not through chat.send over HTTP.
    const httpSends: string[] = [];
    for (const page of [a.page, b.page]) page.on('request', (r) => void (r.url().includes('/trpc/chat.send') && httpSends.push(r.url())));
    await openChat(a, conversationId);
    await openChat(b, conversationId);
    await a.page.getByRole('heading', { name: 'Bruno Lima' }).waitFor();
    // This server has no media workers: the call buttons say so instead of failing after the device chooser.
    const video = a.page.getByRole('button', { name: 'Video call' });
    await expect.poll(() => video.getAttribute('title')).toBe('Calls unavailable');
    expect(await video.isDisabled()).toBe(true);
    // Typing is ephemeral: it reaches Bruno only once his tab is connected, which Ana sees.
    await a.page.locator('.conversation-head').getByRole('img', { name: 'Available' }).waitFor();

    // Typing reaches the other side.
    await composer(a.page).pressSequentially('Olá Bruno', { delay: 30 });
    await b.page.getByText('Ana Souza is typing…').first().waitFor();
    await composer(a.page).press('Enter');
    await messages(b.page).getByText('Olá Bruno').waitFor();
    await expect.poll(() => composer(a.page).inputValue()).toBe('');

    // Bruno has it open and focused: Ana's message is read.
    const mine = messages(a.page).getByRole('listitem').filter({ hasText: 'Olá Bruno' });
    await mine.getByRole('img', { name: 'Read' }).waitFor();

    // Shift+Enter is a new line; Enter sends both lines as one message.
    await composer(b.page).fill('Oi Ana');
    await composer(b.page).press('Shift+Enter');
    await composer(b.page).pressSequentially('tudo bem?');
    await composer(b.page).press('Enter');
    await messages(a.page).getByText(/Oi Ana\s+tudo bem\?/).waitFor();
    const rows = await server.db.message.findMany({ where: { conversationId }, orderBy: { seq: 'asc' } });
    expect(rows.map((m) => m.text)).toEqual(['Olá Bruno', 'Oi Ana\ntudo bem?']);
    expect(httpSends).toEqual([]);

    // The list shows the last message, and Bruno's list counts unread while he looks elsewhere.
    await b.page.goto(`${server.url}/i/recent`);
    const entry = b.page.getByRole('link', { name: /Ana Souza/ });
    await entry.getByText('Oi Ana').waitFor();
    await call(a, 'chat.send', { conversationId, clientId: crypto.randomUUID(), text: 'Are you there?' }, company.domain);
    await entry.getByText('Are you there?').waitFor();
    await entry.getByText('1 unread message').waitFor();
    await expect.poll(() => b.page.title()).toMatch(/^\(1\) /);
    await entry.click();
    await messages(b.page).getByText('Are you there?').waitFor();
    await expect.poll(() => b.page.title()).not.toMatch(/^\(/);
  });

  it('a press on a conversation in the list asks for it and its messages before the release; its row is then the open one', async () => {
    const { company, a, b } = await team();
    const { conversationId } = await call<{ conversationId: string }>(a, 'chat.startDirect', { userId: b.userId }, company.domain);
    await call(a, 'chat.send', { conversationId, clientId: crypto.randomUUID(), text: 'Pressed before read' }, company.domain);
    await b.page.goto(`${server.url}/i/recent`);
    const entry = b.page.getByRole('link', { name: /Ana Souza/ });
    await entry.getByText('Pressed before read').waitFor();
    expect(await entry.getAttribute('aria-current')).toBeNull();
    const asked: string[] = [];
    b.page.on('request', (r) => void (r.url().includes('/trpc/') && asked.push(decodeURIComponent(r.url()))));
    await entry.hover();
    await b.page.mouse.down();
    await expect.poll(() => asked.some((u) => u.includes('chat.conversation') && u.includes(conversationId))).toBe(true);
    await expect.poll(() => asked.some((u) => u.includes('chat.messages') && u.includes(conversationId))).toBe(true);
    expect(b.page.url()).toBe(`${server.url}/i/recent`);
    await b.page.mouse.up();
    await messages(b.page).getByText('Pressed before read').waitFor();
    await expect.poll(() => entry.getAttribute('aria-current')).toBe('page');
    expect(await b.page.locator('a.recent-link.active').count()).toBe(1);
    // The screen, mounted after the press read the messages, marks them read and asks nothing again:
    // its open would have asked before the read receipt.
    await expect.poll(() => asked.some((u) => u.includes('chat.markRead'))).toBe(true);
    expect(asked.filter((u) => u.includes('chat.messages') && u.includes(conversationId))).toHaveLength(1);
    expect(asked.some((u) => u.includes('chat.changes'))).toBe(false);
  });

  it('shows a hostile message as text, never running it', async () => {
    const { company, a, b } = await team();
    const { conversationId } = await call<{ conversationId: string }>(a, 'chat.startDirect', { userId: b.userId }, company.domain);
    await openChat(a, conversationId);
    await openChat(b, conversationId);
    const hostile = '<img src=x onerror="window.__xss=1">';
    await composer(a.page).fill(hostile);
    await composer(a.page).press('Enter');
    await messages(b.page).getByText(hostile).waitFor();
    expect(await b.page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    expect(await messages(b.page).locator('img[src="x"]').count()).toBe(0);
    expect(await a.page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  });
});

describe('no loss, no duplicates', () => {
  it('a message written offline is sent once when the network is back', async () => {
    const { company, a, b } = await team();
    const { conversationId } = await call<{ conversationId: string }>(a, 'chat.startDirect', { userId: b.userId }, company.domain);
    await openChat(a, conversationId);
    await openChat(b, conversationId);

    await a.context.setOffline(true);
    await composer(a.page).fill('Written offline');
    await composer(a.page).press('Enter');
    // Shown at once, as on its way.
    await messages(a.page).getByRole('listitem').filter({ hasText: 'Written offline' }).getByRole('img', { name: 'Sending' }).waitFor();
    await a.context.setOffline(false);

    await messages(b.page).getByText('Written offline').waitFor();
    const mine = messages(a.page).getByRole('listitem').filter({ hasText: 'Written offline' });
    await mine.getByRole('img', { name: /Delivered|Read/ }).waitFor();
    expect(await mine.count()).toBe(1);
    expect(await messages(b.page).getByText('Written offline').count()).toBe(1);
    expect(await server.db.message.count({ where: { conversationId, text: 'Written offline' } })).toBe(1);
  });

  it('messages sent while the reader was offline arrive once, in order, when they are back', async () => {
    const { company, a, b } = await team();
    const { conversationId } = await call<{ conversationId: string }>(a, 'chat.startDirect', { userId: b.userId }, company.domain);
    await openChat(b, conversationId);
    await b.context.setOffline(true);
    for (let i = 1; i <= 5; i++) await call(a, 'chat.send', { conversationId, clientId: `offline-${i}`, text: `missed ${i}` }, company.domain);
    await b.context.setOffline(false);
    await messages(b.page).getByText('missed 5').waitFor();
    const texts = await messages(b.page).locator('.message-text').allTextContents();
    expect(texts).toEqual(['missed 1', 'missed 2', 'missed 3', 'missed 4', 'missed 5']);
  });
});

describe('tabs, sounds, presence, phones', () => {
  /** Counts the sounds a page plays (by file), without hearing them. */
  const countSounds = (context: BrowserContext) =>
    context.addInitScript(() => {
      const w = window as unknown as { __played: string[] };
      w.__played = [];
      HTMLMediaElement.prototype.play = function play(this: HTMLMediaElement) {
        w.__played.push(this.src);
        return Promise.resolve();
      };
    });
  // The sounds are small enough for Vite to inline; nobody in these pages sends, so every play is a receive.
  /** This tab's chat hears pushes live (ChatProvider marks <html data-chat="live">). */
  const chatLive = (page: Page) => page.locator('html[data-chat="live"]').waitFor({ state: 'attached' });
  const played = (page: Page) => page.evaluate(() => (window as unknown as { __played: string[] }).__played.length);

  it('two tabs of one person: both show a message once, the receive sound plays once, reading in one clears the other', async () => {
    const { company, a, b } = await team();
    await countSounds(b.context);
    const { conversationId } = await call<{ conversationId: string }>(a, 'chat.startDirect', { userId: b.userId }, company.domain);
    const list = b.page;
    const other = await b.context.newPage();
    await list.goto(`${server.url}/i/recent`);
    await other.goto(`${server.url}/i/recent`);
    await list.getByRole('link', { name: /Ana Souza/ }).waitFor();
    await other.getByRole('link', { name: /Ana Souza/ }).waitFor();
    // The sound is for pushes heard live: send once both tabs' chats are connected.
    for (const page of [list, other]) await chatLive(page);
    // The other tab gets the focus, as a person switching tabs would.
    await other.bringToFront();

    await call(a, 'chat.send', { conversationId, clientId: 'tabs-1', text: 'Hello to both tabs' }, company.domain);
    for (const page of [list, other]) await page.getByRole('link', { name: /Ana Souza/ }).getByText('1 unread message').waitFor();
    await expect.poll(async () => (await played(list)) + (await played(other))).toBe(1);

    await other.getByRole('link', { name: /Ana Souza/ }).click();
    await messages(other).getByText('Hello to both tabs').waitFor();
    // Read in one tab: the first tab's list clears its badge too.
    await expect.poll(() => list.getByRole('link', { name: /Ana Souza/ }).getByText('1 unread message').count()).toBe(0);

    // Sent from one tab, shown once in the other.
    await list.goto(`${server.url}/i/recent/chat/${conversationId}`);
    await composer(other).fill('From my second tab');
    await composer(other).press('Enter');
    await messages(list).getByText('From my second tab').waitFor();
    expect(await messages(list).getByText('From my second tab').count()).toBe(1);
    expect(await messages(other).getByText('From my second tab').count()).toBe(1);
  });

  it('counts and sounds a message that arrives while the user is on another screen (settings)', async () => {
    const { company, a, b } = await team();
    await countSounds(b.context);
    const { conversationId } = await call<{ conversationId: string }>(a, 'chat.startDirect', { userId: b.userId }, company.domain);
    await openChat(a, conversationId);
    await b.page.goto(`${server.url}/i/settings`);
    // Bruno's app is connected (Ana sees him available) though no chat screen is open.
    await a.page.locator('.conversation-head').getByRole('img', { name: 'Available' }).waitFor();
    await chatLive(b.page);
    await composer(a.page).fill('Are you there?');
    await composer(a.page).press('Enter');
    await expect.poll(() => b.page.title()).toMatch(/^\(1\) /);
    await expect.poll(() => played(b.page)).toBe(1);
    expect(new URL(b.page.url()).pathname).toBe('/i/settings');
  });

  it('no receive sound for someone who turned message sounds off', async () => {
    const { company, a, b } = await team();
    await server.db.user.update({ where: { id: b.userId }, data: { settings: { playMessagensReceive: false } } });
    await countSounds(b.context);
    const { conversationId } = await call<{ conversationId: string }>(a, 'chat.startDirect', { userId: b.userId }, company.domain);
    await b.page.goto(`${server.url}/i/recent`);
    await b.page.getByRole('link', { name: /Ana Souza/ }).waitFor();
    // Heard live, so silence is the setting's doing and not a missed push.
    await chatLive(b.page);
    await call(a, 'chat.send', { conversationId, clientId: 'quiet-1', text: 'Silently' }, company.domain);
    await b.page.getByRole('link', { name: /Ana Souza/ }).getByText('Silently').waitFor();
    expect(await played(b.page)).toBe(0);
  });

  it('a message pushed while the list is still loading is in the list and the count at once, not at the next refresh', async () => {
    const { company, a, b } = await team();
    const { conversationId } = await call<{ conversationId: string }>(a, 'chat.startDirect', { userId: b.userId }, company.domain);
    // Bruno's first list is answered by the server at once and handed to his tab only after
    // Ana's message was pushed to it: an older snapshot landing after a newer push.
    let snapshotTaken!: () => void;
    const taken = new Promise<void>((resolve) => (snapshotTaken = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let held = false;
    await b.page.route(
      (url) => url.pathname.startsWith('/trpc/') && url.pathname.includes('chat.recents'),
      async (route) => {
        if (held) return route.continue();
        held = true;
        const response = await route.fetch();
        snapshotTaken();
        await released;
        await route.fulfill({ response });
      },
    );
    const text = 'Sent while your list loads';
    const pushed = new Promise<void>((resolve) =>
      b.page.on('websocket', (ws) => ws.on('framereceived', (f) => void (typeof f.payload === 'string' && f.payload.includes('message:new') && f.payload.includes(text) && resolve()))),
    );
    await b.page.goto(`${server.url}/i/recent`);
    await taken;
    await chatLive(b.page);
    await call(a, 'chat.send', { conversationId, clientId: 'while-loading-1', text }, company.domain);
    await pushed;
    release();
    // Well within the safety-net refresh (RECENTS_REFRESH_MS), which would otherwise be what catches up.
    const entry = b.page.getByRole('link', { name: /Ana Souza/ });
    await entry.getByText(text).waitFor({ timeout: RECENTS_REFRESH_MS / 2 });
    await entry.getByText('1 unread message').waitFor({ timeout: RECENTS_REFRESH_MS / 2 });
    await expect.poll(() => b.page.title(), { timeout: RECENTS_REFRESH_MS / 2 }).toMatch(/^\(1\) /);
  });

  it('shows who is online, and on a phone the list or the conversation, never both', async () => {
    const { company, a, b } = await team();
    const { conversationId } = await call<{ conversationId: string }>(a, 'chat.startDirect', { userId: b.userId }, company.domain);
    await b.page.goto(`${server.url}/i/recent`);
    await b.page.getByRole('link', { name: /Ana Souza/ }).waitFor();
    await a.page.setViewportSize({ width: 390, height: 800 });
    await openChat(a, conversationId);
    // Bruno has a tab open: available.
    await a.page.locator('.conversation-head').getByRole('img', { name: 'Available' }).waitFor();

    const list = a.page.getByRole('list', { name: 'Conversations' });
    expect(await list.isVisible()).toBe(false);
    await a.page.getByRole('link', { name: 'Back to the conversations' }).click();
    await list.waitFor();
    expect(await composer(a.page).count()).toBe(0);
    await list.getByRole('link', { name: /Bruno Lima/ }).click();
    await composer(a.page).waitFor();
    expect(await list.isVisible()).toBe(false);
    // The header's actions sit in one menu, the title keeps its room; the side panel takes the screen but 30 px.
    expect(await a.page.getByRole('navigation', { name: 'Conversation options' }).count()).toBe(0);
    expect(await a.page.locator('.conversation-head').evaluate((h) => h.scrollWidth <= h.clientWidth)).toBe(true);
    await a.page.getByRole('button', { name: 'Conversation options' }).click();
    await a.page.getByRole('menuitem', { name: 'Details' }).click();
    const panel = a.page.locator('.chat-panel');
    await panel.getByRole('heading', { name: 'Service details' }).waitFor();
    expect(Math.round((await panel.boundingBox())!.width)).toBe(390 - 30);
  });
});
