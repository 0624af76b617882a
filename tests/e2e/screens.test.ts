/**
 * The main screens as people see them, at a desktop (1366×768) and a phone (390×844) size:
 * no serious or critical accessibility violation (axe-core), every control reachable by the
 * keyboard, and a screenshot of each written to docs/screenshots/ (the README shows some).
 */
import fs from 'node:fs';
import path from 'node:path';
import { seriousViolations as violations } from '../helpers/axe';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../helpers/browser';
import { addMember, createUser, signIn } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/server';
import { callProcedure } from '../helpers/trpc';

const SIZES = { desktop: { width: 1366, height: 768 }, phone: { width: 390, height: 844 } } as const;
type Size = keyof typeof SIZES;
const SHOTS = path.resolve('docs/screenshots');
/** axe and a Tab walk over a whole screen take a while on a busy 2-core machine. */
const SLOW = 240_000;

let server: TestServer;
let browser: Browser;
let world: Awaited<ReturnType<typeof makeWorld>>;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  world = await makeWorld();
  fs.mkdirSync(SHOTS, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function cookieOf(userId: string) {
  return signIn(server.db, userId);
}

/** A company registered as a real admin would (default queue, greeting, Contact Us), a colleague, a chat and a waiting customer. */
async function makeWorld() {
  const ana = await createUser(server.db, { name: 'Ana Souza' });
  const anaCookie = await cookieOf(ana.id);
  const domain = `acme${Date.now().toString(36).slice(-5)}`;
  const registered = await callProcedure(server.url, 'company.register', { domain, name: 'Acme Support' }, { cookie: anaCookie, type: 'mutation' });
  expect(registered.error).toBeUndefined();
  const company = await server.db.company.findUniqueOrThrow({ where: { domain } });
  await server.db.user.update({ where: { id: ana.id }, data: { defaultCompanyId: company.id } });
  const bruno = await createUser(server.db, { name: 'Bruno Lima' });
  await addMember(server.db, company.id, bruno.id);
  const direct = await callProcedure(server.url, 'chat.startDirect', { domain, userId: bruno.id }, { cookie: anaCookie, type: 'mutation' });
  expect(direct.error).toBeUndefined();
  const conversationId = (direct.data as { conversationId: string }).conversationId;
  const sent = await callProcedure(
    server.url,
    'chat.send',
    { domain, conversationId, clientId: crypto.randomUUID(), text: 'Bom dia, Bruno! Você pode ver o pedido 4411?' },
    { cookie: anaCookie, type: 'mutation' },
  );
  expect(sent.error).toBeUndefined();
  return { domain, company, ana, anaCookie, bruno, conversationId };
}

async function open(size: Size, cookie?: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ locale: 'en-US', viewport: SIZES[size] });
  if (cookie) {
    const [name, value] = cookie.split('=') as [string, string];
    await context.addCookies([{ name, value, url: server.url }]);
  }
  return { context, page: await context.newPage() };
}

/** axe-core over the page: the serious and critical violations, described well enough to fix. */
/**
 * Tabs through the page and collects what got focus: every interactive element that is visible
 * must be among them (nothing only a mouse can reach).
 */
async function unreachableByKeyboard(page: Page): Promise<string[]> {
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    (window as unknown as { __focused: Set<Element> }).__focused = new Set();
    document.addEventListener('focusin', (e) => (window as unknown as { __focused: Set<Element> }).__focused.add(e.target as Element), true);
  });
  const stops = await page.evaluate(
    () => [...document.querySelectorAll('a[href], button, input, select, textarea, [tabindex]:not([tabindex="-1"])')].filter((el) => el.getBoundingClientRect().width > 0).length,
  );
  for (let i = 0; i < Math.min(stops + 3, 80); i++) await page.keyboard.press('Tab');
  return page.evaluate(() => {
    const focused = (window as unknown as { __focused: Set<Element> }).__focused;
    const visible = (el: Element) => {
      const r = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      return r.width > 0 && r.height > 0 && style.visibility !== 'hidden' && !el.closest('[inert], [aria-hidden="true"]');
    };
    const candidates = [...document.querySelectorAll('a[href], button:not([disabled]), input:not([disabled]):not([type=hidden]), select:not([disabled]), textarea:not([disabled])')];
    // A control inside a composite widget (grid, menu, listbox, tablist, radiogroup) is reached with the arrow keys from its one tab stop.
    const composite = (el: Element) => el.closest('[role=grid], [role=menu], [role=listbox], [role=tablist], [role=radiogroup], [role=toolbar]');
    return candidates
      .filter((el) => visible(el) && !focused.has(el) && !(composite(el) && [...focused].some((f) => composite(el)!.contains(f))))
      // RAC's checkbox/radio/switch inputs are visually hidden but focusable: count them as the label.
      .map((el) => el.outerHTML.slice(0, 160));
  });
}

async function check(page: Page, name: string, size: Size) {
  expect(await violations(page), `${name} at ${size}`).toEqual([]);
  await page.screenshot({ path: path.join(SHOTS, `${name}-${size}.png`) });
  expect(await unreachableByKeyboard(page), `${name} at ${size}: not reachable with Tab`).toEqual([]);
}

describe.each(Object.keys(SIZES) as Size[])('main screens at %s size', (size) => {
  it('login', async () => {
    const { context, page } = await open(size);
    try {
      await page.goto(`${server.url}/i/login`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await check(page, 'login', size);
    } finally {
      await context.close();
    }
  }, SLOW);

  it('recent chats and a conversation with its details panel', async () => {
    const { context, page } = await open(size, world.anaCookie);
    try {
      await page.goto(`${server.url}/i/recent`);
      await page.getByRole('link', { name: /Bruno Lima/ }).waitFor();
      await check(page, 'recents', size);
      await page.goto(`${server.url}/i/recent/chat/${world.conversationId}`);
      await page.getByRole('log', { name: 'Messages' }).getByText('pedido 4411').waitFor();
      await check(page, 'conversation', size);
      await page.goto(`${server.url}/i/recent/chat/${world.conversationId}/details`);
      await page.getByRole('heading', { name: 'Service details' }).waitFor();
      await check(page, 'details', size);
    } finally {
      await context.close();
    }
  }, SLOW);

  it('the queue', async () => {
    const { context, page } = await open(size, world.anaCookie);
    try {
      await page.goto(`${server.url}/i/recent/queue/all`);
      await page.getByRole('heading', { name: 'Queue' }).waitFor();
      await check(page, 'queue', size);
    } finally {
      await context.close();
    }
  }, SLOW);

  it('settings and the members list', async () => {
    const { context, page } = await open(size, world.anaCookie);
    try {
      await page.goto(`${server.url}/i/settings`);
      await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
      await check(page, 'settings', size);
      await page.goto(`${server.url}/i/settings/members`);
      await page.getByRole('row').filter({ hasText: 'Bruno Lima' }).waitFor();
      await check(page, 'members', size);
    } finally {
      await context.close();
    }
  }, SLOW);

  it("the company's public page", async () => {
    const { context, page } = await open(size);
    try {
      await page.goto(`${server.url}/${world.domain}`);
      await page.getByRole('heading', { name: 'Acme Support' }).waitFor();
      await check(page, 'public-page', size);
    } finally {
      await context.close();
    }
  }, SLOW);
});
