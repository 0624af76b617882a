/**
 * The browser app's shell, served by the real server from dist/client (`npm test` builds it
 * first): landing, not-found, deep links through the history fallback, the language picker.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CONVERSATION_PREFETCH_MARK } from '../../src/client/features/recent/prefetch';
import type { TestServer } from '../helpers/server';
import { e2eSuite, ownerContext } from '../helpers/suite';

let server: TestServer;
let browser: Browser;
const contexts = e2eSuite((started) => ({ server, browser } = started));

/** A fresh profile (no stored language) whose browser prefers US English. */
async function openPage(path: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ locale: 'en-US' });
  contexts.push(context);
  const page = await context.newPage();
  await page.goto(server.url + path);
  return { context, page };
}

/** A new company's owner signed in, with the scripts their page requests. */
async function signedInPage(userName: string) {
  const { context } = await ownerContext({ server, browser }, contexts, userName);
  const page = await context.newPage();
  const scripts: string[] = [];
  page.on('request', (r) => r.resourceType() === 'script' && scripts.push(new URL(r.url()).pathname));
  return { context, page, scripts };
}

/** The scripts the page asked for before and after it began fetching ahead for opening a conversation (its performance mark). */
async function requestedAroundPrefetch(page: Page) {
  return page.evaluate((mark) => {
    const at = performance.getEntriesByName(mark)[0]?.startTime ?? Infinity;
    const scripts = performance.getEntriesByType('resource').filter((e) => e.name.endsWith('.js'));
    return {
      before: scripts.filter((e) => e.startTime < at).map((e) => new URL(e.name).pathname),
      after: scripts.filter((e) => e.startTime >= at).map((e) => new URL(e.name).pathname),
    };
  }, CONVERSATION_PREFETCH_MARK);
}

describe('app shell', () => {
  it('shows the landing page at /', async () => {
    const { context, page } = await openPage('/');
    try {
      await page.getByRole('heading', { level: 1, name: 'Atende' }).waitFor();
      expect(await page.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/i/login');
      expect(await page.getByRole('link', { name: 'Register company' }).isVisible()).toBe(true);
      expect(await page.locator('html').getAttribute('lang')).toBe('en');
      expect(await page.title()).toBe('Atende · Atende');
    } finally {
      await context.close();
    }
  });

  it('shows the not-found page for any unknown path', async () => {
    const { context, page } = await openPage('/anything/that/does/not/exist/x');
    try {
      await page.getByText('Sorry, page not found').waitFor();
      // 'i' can never be a company domain, so /i/<x> is not taken for a company page either.
      await page.goto(server.url + '/i/direct');
      await page.getByText('Sorry, page not found').waitFor();
    } finally {
      await context.close();
    }
  });

  it('names the code chunks after the area they hold (/i/recent loads recent-*.js)', async () => {
    const context = await browser.newContext({ locale: 'en-US' });
    const page = await context.newPage();
    const scripts: string[] = [];
    page.on('request', (r) => r.resourceType() === 'script' && scripts.push(new URL(r.url()).pathname));
    try {
      await page.goto(server.url + '/i/recent');
      await page.getByRole('heading', { name: 'Recent chats' }).waitFor();
      expect(scripts.some((s) => /^\/assets\/recent-[\w-]+\.js$/.test(s)), scripts.join(' ')).toBe(true);
      expect(scripts.filter((s) => /^\/assets\/pages-/.test(s))).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('does not load the call code (mediasoup-client) for a signed-in page with no call going on', async () => {
    const { context, page, scripts } = await signedInPage('Ana Souza');
    const bodies: Promise<string>[] = [];
    page.on('response', (r) => r.request().resourceType() === 'script' && bodies.push(r.text().catch(() => '')));
    try {
      // networkidle: every lazy chunk the page asks for by itself has been fetched.
      await page.goto(server.url + '/i/recent', { waitUntil: 'networkidle' });
      await page.getByRole('heading', { name: 'Recent chats' }).waitFor();
      expect(scripts.some((s) => /^\/assets\/recent-[\w-]+\.js$/.test(s)), scripts.join(' ')).toBe(true);
      // By content, not chunk name: mediasoup-client's debug namespace is in its code.
      const withMediasoup = (await Promise.all(bodies)).filter((b) => b.includes('mediasoup-client')).length;
      expect(withMediasoup, scripts.join(' ')).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('opens deep links directly (history-mode fallback)', async () => {
    const { context, page } = await openPage('/i/settings/members');
    try {
      await page.getByRole('heading', { name: 'Members' }).waitFor();
      expect(await page.title()).toBe('Members · Atende');
      await page.goto(server.url + '/i/recent/chat/abc123/details');
      await page.getByRole('heading', { name: 'Service details' }).waitFor();
      // A company's queue page, for a company that does not exist: the page itself says so.
      await page.goto(server.url + '/acme/direct/queue/sales');
      await page.getByRole('heading', { name: 'Domain not found' }).waitFor();
    } finally {
      await context.close();
    }
  });

  it('shows /i/recent with its own messages only, switches language there, and has the whole catalogue for the next screen', async () => {
    const { context, page, scripts } = await signedInPage('Bia Lima');
    try {
      // The chat area's own chunk (chat-<hash>.js), not the shell's chat-ChatShell-<hash>.js.
      const chatArea = /\/assets\/chat-[\w-]{8}\.js$/;
      const chatCode = page.waitForResponse(chatArea);
      await page.goto(server.url + '/i/recent');
      await page.getByRole('heading', { name: 'Recent chats' }).waitFor();
      // The first download has the subset of the catalogue its code uses, not the whole one. The
      // whole one comes after, with the code for opening a conversation, once the list showed and
      // the browser was idle (features/recent/prefetch.ts).
      await chatCode;
      const asked = await requestedAroundPrefetch(page);
      expect(asked.before.filter((s) => /\/messages-shell-en-/.test(s)), asked.before.join(' ')).toHaveLength(1);
      expect(asked.before.filter((s) => /\/messages-en-/.test(s) || chatArea.test(s)), asked.before.join(' ')).toEqual([]);
      expect(asked.after.filter((s) => /\/messages-en-/.test(s)), asked.after.join(' ')).toHaveLength(1);

      await page.getByRole('combobox', { name: 'Language' }).selectOption('pt');
      await page.getByRole('heading', { name: 'Conversas recentes' }).waitFor();
      expect(await page.getByRole('searchbox', { name: 'Buscar conversas' }).getAttribute('placeholder')).toBe('Busque por nome, mensagem, protocolo ou DD/MM/AAAA');

      // Another area's code waits for the whole Portuguese catalogue: its texts are translated.
      await page.getByRole('link', { name: 'Minha conta' }).first().click();
      await page.waitForURL('**/i/myAccount');
      await page.getByRole('heading', { name: 'Minha conta' }).waitFor();
      expect(scripts.some((s) => /\/messages-pt-/.test(s)), scripts.join(' ')).toBe(true);
    } finally {
      await context.close();
    }
  });

  it('a language picked while its first-page subset is still loading gets the whole catalogue when another screen was opened meanwhile', async () => {
    const { context, page } = await signedInPage('Caio Reis');
    // A browser saving data: nothing is fetched ahead (prefetch.ts), so the language is picked
    // while only the first download's subset of the catalogue is here.
    await page.addInitScript(() => Object.defineProperty(navigator, 'connection', { value: { saveData: true } }));
    try {
      await page.goto(server.url + '/i/recent', { waitUntil: 'networkidle' });
      await page.getByRole('heading', { name: 'Recent chats' }).waitFor();
      expect(await page.evaluate((mark) => performance.getEntriesByName(mark).length, CONVERSATION_PREFETCH_MARK)).toBe(0);
      // The Portuguese subset is held on the wire until another screen has asked for the whole
      // catalogue (of English, the language active at that moment).
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      await page.route(/\/messages-shell-pt-/, async (route) => {
        await released;
        await route.continue();
      });
      const wholeEnglish = page.waitForResponse(/\/messages-en-/);
      await page.getByRole('combobox', { name: 'Language' }).selectOption('pt');
      await page.getByRole('link', { name: 'My account' }).first().click();
      await page.waitForURL('**/i/myAccount');
      await wholeEnglish;
      release();
      // The account screen's own texts (not the menu's, which the subset has), in Portuguese: not
      // their message ids, not English.
      await page.getByRole('heading', { name: 'Minha conta' }).waitFor();
      await page.getByText('Onde você está conectado').waitFor();
      expect(await page.locator('html').getAttribute('lang')).toBe('pt');
    } finally {
      await context.close();
    }
  });

  it('switches to Portuguese from the picker and keeps it after a reload', async () => {
    const { context, page } = await openPage('/');
    try {
      const picker = page.getByRole('combobox', { name: 'Language' });
      await picker.waitFor();
      expect(await picker.locator('option').allTextContents()).toEqual(['English', 'Português', 'Español', 'Italiano', 'Deutsch']);

      await picker.selectOption('pt');
      await page.getByRole('link', { name: 'Entrar' }).waitFor();
      expect(await page.getByRole('link', { name: 'Sign in' }).count()).toBe(0);
      expect(await page.locator('html').getAttribute('lang')).toBe('pt');

      await page.reload();
      await page.getByRole('link', { name: 'Entrar' }).waitFor();
      expect(await page.getByRole('combobox', { name: 'Idioma' }).inputValue()).toBe('pt');
      expect(await page.evaluate(() => localStorage.getItem('lang'))).toBe('pt');
    } finally {
      await context.close();
    }
  });

  it('says in the footer when calls are unavailable, and why', async () => {
    // The test server runs without media workers (MEDIASOUP_NUM_WORKERS=0).
    const { context, page } = await openPage('/');
    try {
      const badge = page.getByText('Calls unavailable');
      await badge.waitFor();
      expect(await badge.getAttribute('title')).toContain('MEDIASOUP_NUM_WORKERS=0');
      expect(await page.getByText('Online').isVisible()).toBe(true);
    } finally {
      await context.close();
    }
  });
});
