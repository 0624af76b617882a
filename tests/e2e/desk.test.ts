/**
 * The attendant's desk: the navigation says where attention is needed, live, on any screen
 * (conversations with unread messages, customers waiting in the queues they serve, unread
 * notifications; desktop and the phone's bottom bar); the conversation list filters and moves
 * with the keyboard; a chat between colleagues is a plain chat. Real server, database, sockets
 * and Chromium. (When a message makes a toast is tests/unit/message-toast.test.ts: a toast lives
 * five seconds, too short a window to assert in a loaded browser run.)
 */
import fs from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../helpers/browser';
import { startTestServer, type TestServer } from '../helpers/server';
import { anonymousVisitor, serviceCompany, type ClientSocket, type Person } from '../helpers/service';

let server: TestServer;
let browser: Browser;
const contexts: BrowserContext[] = [];
const sockets: ClientSocket[] = [];

beforeAll(async () => {
  if (!fs.existsSync('dist/client/index.html')) {
    throw new Error('dist/client is missing: build the browser app first (npm run build)');
  }
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  for (const c of contexts) await c.close().catch(() => {});
  await browser?.close();
  await server?.close();
});

async function pageOf(person: Person, companyId: string, viewport?: { width: number; height: number }): Promise<Page> {
  await server.db.user.update({ where: { id: person.userId }, data: { defaultCompanyId: companyId } });
  const [name, value] = person.cookie.split('=') as [string, string];
  const context = await browser.newContext({ locale: 'en-US', viewport });
  contexts.push(context);
  await context.addCookies([{ name, value, url: server.url }]);
  return context.newPage();
}

const navLink = (page: Page, name: RegExp) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name });

describe('navigation badges', () => {
  for (const size of [undefined, { width: 390, height: 844 }]) {
    it(`unread conversations, customers waiting and notifications, live (${size ? 'phone' : 'desktop'})`, async () => {
      const c = await serviceCompany(server, sockets);
      const bia = await c.attendant('Bia Costa');
      const page = await pageOf(c.admin, c.company.id, size);
      // Somewhere that is neither the chat, the queue nor the notifications.
      await page.goto(`${server.url}/i/notes`);
      await navLink(page, /^Recent chats/).waitFor();
      // The chat (its own chunk, loaded after the shell) hears pushes from here on: a message sent
      // before it listens would only show at the recents' next refresh.
      await page.locator('html[data-chat="live"]').waitFor({ state: 'attached' });

      // A colleague writes: the chat's link counts the conversation.
      const { conversationId } = await bia.call('chat.startDirect', { domain: c.domain, userId: c.admin.userId });
      await bia.call('chat.send', { domain: c.domain, conversationId, clientId: 'b1', text: 'Can you look at this?' });
      await navLink(page, /1 conversation with unread messages/).waitFor();

      // A visitor asks for service: the queue counts them, and the attendants are notified.
      const visitor = await anonymousVisitor(server, sockets);
      const request = await visitor.call('customer.request', { domain: c.domain, queueKey: 'faleconosco', name: 'Vera Visitante', text: 'Help' });
      await navLink(page, /1 customer waiting/).waitFor();
      await navLink(page, /1 unread notification/).waitFor();

      // Taken (here, from another tab): the queue's count goes away everywhere.
      await c.admin.call('service.take', { domain: c.domain, conversationId: request.conversationId });
      await navLink(page, /customer waiting/).waitFor({ state: 'detached' });

      // Reading the notifications and the conversation clears their counts.
      await c.admin.call('notifications.markAllRead');
      await navLink(page, /unread notification/).waitFor({ state: 'detached' });
      await page.goto(`${server.url}/i/recent/chat/${conversationId}`);
      await page.getByRole('log', { name: 'Messages' }).getByText('Can you look at this?').waitFor();
      // The request she took is hers to read too.
      await page.goto(`${server.url}/i/recent/chat/${request.conversationId}`);
      await page.getByRole('log', { name: 'Messages' }).getByText('Help').waitFor();
      await navLink(page, /unread messages/).waitFor({ state: 'detached' });
    });
  }
});

describe('the conversation list', () => {
  it('filters (open requests, colleagues, unread) kept in the address, arrow keys, plain colleague chats', async () => {
    const c = await serviceCompany(server, sockets);
    const bia = await c.attendant('Bia Costa');
    const direct = await bia.call('chat.startDirect', { domain: c.domain, userId: c.admin.userId });
    await bia.call('chat.send', { domain: c.domain, conversationId: direct.conversationId, clientId: 'b1', text: 'Lunch?' });
    const visitor = await anonymousVisitor(server, sockets);
    const request = await visitor.call('customer.request', { domain: c.domain, queueKey: 'faleconosco', name: 'Vera Visitante', text: 'Help' });
    await c.admin.call('service.take', { domain: c.domain, conversationId: request.conversationId });
    const page = await pageOf(c.admin, c.company.id);

    await page.goto(`${server.url}/i/recent`);
    const list = page.getByRole('list', { name: 'Conversations' });
    const filters = page.getByRole('group', { name: 'Show' });
    await list.getByRole('link', { name: /Bia Costa/ }).waitFor();
    await list.getByRole('link', { name: /Vera Visitante/ }).waitFor();

    await filters.getByRole('button', { name: 'Open requests' }).click();
    await list.getByRole('link', { name: /Bia Costa/ }).waitFor({ state: 'detached' });
    await list.getByRole('link', { name: /Vera Visitante/ }).waitFor();
    expect(new URL(page.url()).searchParams.get('show')).toBe('open');
    await filters.getByRole('button', { name: 'Colleagues' }).click();
    await list.getByRole('link', { name: /Vera Visitante/ }).waitFor({ state: 'detached' });
    await list.getByRole('link', { name: /Bia Costa/ }).waitFor();

    // Live while filtered: a new colleague chat with a message shows up without a reload.
    const carla = await c.attendant('Carla Dias');
    const another = await carla.call('chat.startDirect', { domain: c.domain, userId: c.admin.userId });
    await carla.call('chat.send', { domain: c.domain, conversationId: another.conversationId, clientId: 'c1', text: 'Hello' });
    await list.getByRole('link', { name: /Carla Dias/ }).waitFor();

    // Arrow keys walk the list.
    await filters.getByRole('button', { name: 'All' }).click();
    await list.getByRole('link', { name: /Vera Visitante/ }).waitFor();
    const links = list.getByRole('link');
    await links.first().focus();
    await page.keyboard.press('ArrowDown');
    const focused = await page.evaluate(() => document.activeElement?.getAttribute('href'));
    expect(focused).toBe(await links.nth(1).getAttribute('href'));

    // A colleague chat has no protocol line, state or service panel; a request has them.
    await page.goto(`${server.url}/i/recent/chat/${direct.conversationId}`);
    await page.getByRole('log', { name: 'Messages' }).getByText('Lunch?').waitFor();
    await page.getByRole('link', { name: 'Details' }).waitFor();
    expect(await page.getByText(/^Protocol /).count()).toBe(0);
    expect(await page.getByRole('complementary', { name: 'Service' }).count()).toBe(0);
    await page.goto(`${server.url}/i/recent/chat/${request.conversationId}`);
    await page.getByText(/^Protocol /).waitFor();
    const panel = page.getByRole('complementary', { name: 'Service' });
    await panel.getByRole('region', { name: 'About the customer' }).getByText('This is their first request.').waitFor();
  });
});

describe('keyboard shortcuts', () => {
  it('help with ?, J/K and Alt+arrows between conversations, Q to the queue, T takes, C concludes, / searches', async () => {
    const c = await serviceCompany(server, sockets);
    const bia = await c.attendant('Bia Costa');
    const carla = await c.attendant('Carla Dias');
    for (const [who, text] of [[bia, 'From Bia'], [carla, 'From Carla']] as const) {
      const { conversationId } = await who.call('chat.startDirect', { domain: c.domain, userId: c.admin.userId });
      await who.call('chat.send', { domain: c.domain, conversationId, clientId: text, text });
    }
    const page = await pageOf(c.admin, c.company.id);
    await page.goto(`${server.url}/i/recent`);
    const list = page.getByRole('list', { name: 'Conversations' });
    await list.getByRole('link', { name: /Bia Costa/ }).waitFor();
    await list.getByRole('link', { name: /Carla Dias/ }).waitFor();

    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.getByText('Conclude this service').waitFor();
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'detached' });

    // Newest first: Carla, then Bia.
    const log = page.getByRole('log', { name: 'Messages' });
    await page.keyboard.press('j');
    await log.getByText('From Carla').waitFor();
    await page.keyboard.press('j');
    await log.getByText('From Bia').waitFor();
    // Alt+arrows work from inside the composer too; a letter typed there stays text.
    const composer = page.getByRole('combobox', { name: 'Message' });
    await composer.click();
    await page.keyboard.press('k');
    expect(await composer.inputValue()).toBe('k');
    await page.keyboard.press('Alt+ArrowUp');
    await log.getByText('From Carla').waitFor();

    // A customer waits: Q opens the queue, T takes the first request, C asks to conclude it.
    const visitor = await anonymousVisitor(server, sockets);
    const request = await visitor.call('customer.request', { domain: c.domain, queueKey: 'faleconosco', name: 'Vera Visitante', text: 'Help' });
    await page.locator('body').click({ position: { x: 1, y: 1 } });
    await page.keyboard.press('q');
    await page.getByRole('button', { name: 'Take the request of Vera Visitante' }).waitFor();
    await page.keyboard.press('t');
    await page.waitForURL(`**/i/recent/chat/${request.conversationId}`);
    await page.getByRole('complementary', { name: 'Service' }).getByRole('button', { name: 'Conclude service' }).waitFor();
    await page.locator('body').click({ position: { x: 1, y: 1 } });
    await page.keyboard.press('c');
    await page.getByRole('alertdialog', { name: 'Conclude this service?' }).or(page.getByRole('dialog', { name: 'Conclude this service?' })).waitFor();
    await page.keyboard.press('Escape');
    expect((await server.db.conversation.findUniqueOrThrow({ where: { id: request.conversationId } })).state).toBe(1);

    // / goes to the list's search box (here beside the conversation; elsewhere it opens the list).
    await page.locator('body').click({ position: { x: 1, y: 1 } });
    await page.keyboard.press('/');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('type'))).toBe('search');
    await page.goto(`${server.url}/i/notes`);
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await page.locator('body').click({ position: { x: 1, y: 1 } });
    await page.keyboard.press('/');
    await page.waitForURL('**/i/recent');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('type'))).toBe('search');
  });
});

