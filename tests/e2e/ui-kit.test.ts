/**
 * The UI kit in the real app: a screen looks the same on a first visit as after other areas were
 * opened (the conversation details panel was unstyled, and avatars changed colour, until Settings
 * had been visited), the theme toggle (dark mode) is remembered, the kit's modals and menus work
 * from the keyboard.
 */
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
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Ana (admin) and Bruno in a company, a chat between them, and Ana's fresh browser profile. */
async function anaWithChat() {
  const ana = await createUser(server.db, { name: 'Ana Souza' });
  const company = await createCompany(server.db, ana.id);
  await server.db.user.update({ where: { id: ana.id }, data: { defaultCompanyId: company.id } });
  const bruno = await createUser(server.db, { name: 'Bruno Lima' });
  await addMember(server.db, company.id, bruno.id);
  const cookie = await signIn(server.db, ana.id);
  const res = await callProcedure(server.url, 'chat.startDirect', { domain: company.domain, userId: bruno.id }, { cookie, type: 'mutation' });
  expect(res.error).toBeUndefined();
  const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1366, height: 768 } });
  contexts.push(context);
  const [name, value] = cookie.split('=') as [string, string];
  await context.addCookies([{ name, value, url: server.url }]);
  const page = await context.newPage();
  return { page, conversationId: (res.data as { conversationId: string }).conversationId, bruno };
}

const style = (page: Page, selector: string, property: string) =>
  page.locator(selector).first().evaluate((el, p) => getComputedStyle(el).getPropertyValue(p), property);

describe('styles travel with the kit', () => {
  it('styles the details panel and keeps avatar colours on a first visit, before any other area loaded', async () => {
    const { page, conversationId } = await anaWithChat();
    const scripts: string[] = [];
    page.on('request', (r) => r.resourceType() === 'script' && scripts.push(new URL(r.url()).pathname));
    // Straight to the details panel in a new tab: Settings has never been opened.
    await page.goto(`${server.url}/i/recent/chat/${conversationId}/details`);
    const panel = page.locator('.chat-panel');
    await panel.getByRole('heading', { name: 'Service details' }).waitFor();
    expect(scripts.some((s) => /\/settings-[\w-]+\.js$/.test(s))).toBe(false);

    // The facts list is a two-column grid (it was unstyled: a plain block list).
    expect(await style(page, '.chat-panel .facts', 'display')).toBe('grid');
    expect((await style(page, '.chat-panel .facts', 'grid-template-columns')).split(' ')).toHaveLength(2);
    // Buttons have the kit's look: the danger action is red, the others are not.
    const danger = panel.getByRole('button', { name: 'Delete conversation' });
    expect(await danger.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(185, 28, 28)');
    // Bruno's initials sit on his colour, the same in the panel and in the recent list.
    const bruno = page.locator('.chat-panel .people-list .avatar').filter({ hasText: 'BL' });
    const inPanel = await bruno.evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(inPanel).toMatch(/^rgb\(/);
    expect(inPanel).not.toBe('rgba(0, 0, 0, 0)');
    const inList = await page.getByRole('list', { name: 'Conversations' }).locator('.avatar').filter({ hasText: 'BL' }).evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(inList).toBe(inPanel);

    // Opening Settings (its chunk loads) changes nothing on the panel.
    await page.goto(`${server.url}/i/settings`);
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    await page.goBack();
    await panel.getByRole('heading', { name: 'Service details' }).waitFor();
    expect(await page.locator('.chat-panel .people-list .avatar').filter({ hasText: 'BL' }).evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(inPanel);
    expect(await style(page, '.chat-panel .facts', 'display')).toBe('grid');
  });
});

describe('theme', () => {
  it('switches to dark from the header menu with the keyboard, and remembers it like the language', async () => {
    const context = await browser.newContext({ locale: 'en-US', colorScheme: 'light' });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(`${server.url}/i/login`);
    const background = () => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    const light = await background();

    const trigger = page.getByRole('button', { name: 'Theme' });
    await trigger.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu', { name: 'Theme' });
    await menu.waitFor();
    expect(await menu.getByRole('menuitemradio', { name: 'As the device' }).getAttribute('aria-checked')).toBe('true');
    await menu.getByRole('menuitemradio', { name: 'Dark' }).focus();
    await page.keyboard.press('Enter');
    await menu.waitFor({ state: 'detached' });
    expect(await page.locator('html').getAttribute('data-theme')).toBe('dark');
    expect(await background()).not.toBe(light);
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');
    // Focus comes back to the button that opened the menu.
    expect(await trigger.evaluate((el) => el === document.activeElement)).toBe(true);

    await page.reload();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await page.locator('html').getAttribute('data-theme')).toBe('dark');
    const dark = await background();
    expect(dark).not.toBe(light);

    // Back to the device's setting: a dark device shows dark, a light one light.
    await trigger.click();
    await page.getByRole('menuitemradio', { name: 'As the device' }).click();
    expect(await page.locator('html').getAttribute('data-theme')).toBeNull();
    expect(await background()).toBe(light);
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await background()).toBe(dark);
  });
});

describe('modals', () => {
  it('a confirmation traps focus, closes on Escape and gives focus back', async () => {
    const { page, conversationId } = await anaWithChat();
    await page.goto(`${server.url}/i/recent/chat/${conversationId}/details`);
    const leave = page.getByRole('button', { name: 'Leave' });
    await leave.click();
    const dialog = page.getByRole('dialog', { name: 'Do you want to leave?' });
    await dialog.waitFor();
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press('Tab');
      expect(await dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    }
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => leave.evaluate((el) => el === document.activeElement)).toBe(true);
  });
});
