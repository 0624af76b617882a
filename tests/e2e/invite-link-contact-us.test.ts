/**
 * Two admin-side screens of issue 20 in Chromium: the invitation link (/i/optionsList/inviteLink)
 * with its QR code and copy button, also on a page without the Clipboard API (a server reached
 * over plain http on its LAN address has none); and the Contact Us settings screen, whose changes
 * the public /{emp}/faleconosco follows. Real server, database and Chromium.
 */
import fs from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_QUEUE } from '../../src/shared/constants';
import { launchBrowser } from '../helpers/browser';
import { budget } from '../helpers/time';
import { createCompany, createUser, signIn } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/server';

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

async function context(userId: string | null, opts: { clipboard?: boolean } = {}): Promise<BrowserContext> {
  const ctx = await browser.newContext({ locale: 'en-US', ...(opts.clipboard && { permissions: ['clipboard-read', 'clipboard-write'] }) });
  contexts.push(ctx);
  if (userId) {
    const [name, value] = (await signIn(server.db, userId)).split('=') as [string, string];
    await ctx.addCookies([{ name, value, url: server.url }]);
  }
  return ctx;
}

async function owner(name: string) {
  const user = await createUser(server.db, { name });
  const company = await createCompany(server.db, user.id, { name: `Padaria ${Date.now().toString(36)}` });
  await server.db.user.update({ where: { id: user.id }, data: { defaultCompanyId: company.id } });
  return { user, company };
}

const readClipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());

describe('the invitation link screen', () => {
  it('shows the link and its QR code, and copies it, with or without the Clipboard API', async () => {
    const { user, company } = await owner('Dona Rosa');
    const member = await server.db.member.findFirstOrThrow({ where: { companyId: company.id, userId: user.id } });
    const longUrl = `${server.url}/${company.domain}/newc/${member.id}`;

    const ctx = await context(user.id, { clipboard: true });
    const page = await ctx.newPage();
    await page.goto(`${server.url}/i/optionsList/inviteLink`);
    const field = page.getByLabel('Invitation link', { exact: true });
    await field.waitFor();
    // No shortener configured: the long link.
    expect(await field.inputValue()).toBe(longUrl);
    const qr = page.getByRole('img', { name: 'QR code of the invitation link' });
    expect(await qr.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    expect(await qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

    await page.getByRole('button', { name: 'Copy link' }).click();
    await page.getByRole('status').getByText('Link copied').waitFor();
    expect(await readClipboard(page)).toBe(longUrl);

    // The same screen where the page has no Clipboard API (not a secure origin): still copied.
    const bare = await ctx.newPage();
    await bare.addInitScript(() => Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined, configurable: true }));
    await bare.goto(`${server.url}/i/optionsList/inviteLink`);
    await page.evaluate(() => navigator.clipboard.writeText('something else'));
    await bare.getByRole('button', { name: 'Copy link' }).click();
    await bare.getByRole('status').getByText('Link copied').waitFor();
    expect(await readClipboard(page)).toBe(longUrl);
  }, budget(120_000));
});

describe('the Contact Us settings screen', () => {
  it("an admin's page title, sizes and blocking reach the public Contact Us page", async () => {
    const { user, company } = await owner('Dona Rosa');
    // A registered company has its default queue (company.create); the fixture company needs it.
    await server.db.queue.create({ data: { companyId: company.id, key: DEFAULT_QUEUE.id, name: 'Atendimento' } });
    const admin = await (await context(user.id)).newPage();
    await admin.goto(`${server.url}/i/settings/configCompany/contactUs`);
    await admin.getByLabel('Page title', { exact: true }).fill('Fale com a padaria');
    // The fourth field is the message (name, e-mail, phone, message): at least 20 characters.
    await admin.getByLabel('Minimum size', { exact: true }).nth(3).fill('20');
    await admin.getByRole('button', { name: 'Save', exact: true }).click();
    await admin.getByText('Changes saved successfully!').waitFor();

    const visitor = await (await context(null)).newPage();
    await visitor.goto(`${server.url}/${company.domain}/faleconosco`);
    await visitor.getByText('Fale com a padaria').waitFor();
    await visitor.getByLabel('Nome *', { exact: true }).fill('Carla Dias');
    await visitor.getByLabel('E-mail *', { exact: true }).fill('carla@example.com');
    await visitor.getByLabel('Mensagem *', { exact: true }).fill('Pão amanhã?');
    await visitor.getByRole('button', { name: 'Send', exact: true }).click();
    await visitor.getByRole('alert').getByText('At least 20 characters').waitFor();

    await admin.getByLabel('Block access (customers cannot send the form)').check();
    await admin.getByRole('button', { name: 'Save', exact: true }).click();
    await admin.getByText('Changes saved successfully!').waitFor();
    await visitor.reload();
    await visitor.getByText('Contact Us is not available at the moment').waitFor();
    expect(await visitor.getByRole('button', { name: 'Send', exact: true }).count()).toBe(0);
  }, budget(120_000));
});
