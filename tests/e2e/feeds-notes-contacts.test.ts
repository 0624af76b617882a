/**
 * Feeds, notes, customers and the front door in Chromium: a post with an image appears live in a
 * colleague's tab with the unread badge; a note is written and shared; a CSV of 1,000 contacts with
 * three bad rows shows its progress and the report; from / a domain leads to that company's page.
 * Real server, database, sockets and Chromium.
 */
import fs from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import QRCode from 'qrcode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../helpers/browser';
import { budget } from '../helpers/time';
import { addMember, createCompany, createUser, signIn } from '../helpers/fixtures';
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

interface Person {
  userId: string;
  page: Page;
}

async function person(companyId: string | null, name: string, opts: { isAdmin?: boolean; userId?: string } = {}): Promise<Person> {
  const userId = opts.userId ?? (await createUser(server.db, { name })).id;
  if (companyId && !opts.userId) await addMember(server.db, companyId, userId, { isAdmin: opts.isAdmin });
  if (companyId) await server.db.user.update({ where: { id: userId }, data: { defaultCompanyId: companyId } });
  const [cookieName, value] = (await signIn(server.db, userId)).split('=') as [string, string];
  const context = await browser.newContext({ locale: 'en-US' });
  contexts.push(context);
  await context.addCookies([{ name: cookieName, value, url: server.url }]);
  return { userId, page: await context.newPage() };
}

async function team() {
  const ana = await createUser(server.db, { name: 'Ana Souza' });
  const company = await createCompany(server.db, ana.id, { name: `Loja ${Date.now().toString(36)}` });
  return { company, a: await person(company.id, 'Ana Souza', { userId: ana.id }), b: await person(company.id, 'Bruno Lima') };
}

describe('feed', () => {
  it('a post with an image reaches a colleague live, with the unread badge, which clears when the feed is seen', async () => {
    const { a, b } = await team();
    await a.page.goto(`${server.url}/i/recent/feeds/all`);
    await a.page.getByText('No posts yet. Write the first one.').waitFor();
    await b.page.goto(`${server.url}/i/recent`);
    const feedLink = b.page.getByRole('link', { name: /^Feed/ });
    await feedLink.waitFor();
    await expect.poll(() => b.page.getByTestId('feed-unread').count()).toBe(0);

    await a.page.getByLabel('New post').fill('Nova vitrine! Veja https://example.com/vitrine');
    const png = await QRCode.toBuffer('vitrine', { width: 120 });
    await a.page.locator('.feed-attach input[type=file]').setInputFiles({ name: 'vitrine.png', mimeType: 'image/png', buffer: png });
    const post = a.page.getByRole('button', { name: 'Post', exact: true });
    await expect.poll(() => post.isEnabled()).toBe(true);
    await post.click();
    await a.page.getByRole('article', { name: 'Post by Ana Souza' }).waitFor();

    // Bruno, elsewhere in the app, sees the badge come up by itself.
    await expect.poll(() => b.page.getByTestId('feed-unread').textContent()).toBe('1');
    await feedLink.click();
    const article = b.page.getByRole('article', { name: 'Post by Ana Souza' });
    await article.waitFor();
    await article.getByText('Nova vitrine!').waitFor();
    // The address is a link, the rest plain text.
    expect(await article.getByRole('link', { name: 'https://example.com/vitrine' }).getAttribute('rel')).toContain('noopener');
    const image = article.getByRole('img', { name: 'vitrine.png' });
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await expect.poll(() => b.page.getByTestId('feed-unread').count()).toBe(0);
  }, budget(120_000));
});

describe('notes', () => {
  it('writes a note in the editor, saves it and shares it; the colleague finds and reads it', async () => {
    const { a, b } = await team();
    await a.page.goto(`${server.url}/i/notes`);
    await a.page.getByRole('button', { name: 'New note' }).click();
    await a.page.waitForURL(/\/i\/notes\/[0-9a-f-]{36}$/);
    await a.page.getByLabel('Title').fill('Roteiro de atendimento');
    const editor = a.page.getByRole('textbox', { name: 'Text of the note' });
    await editor.click();
    await a.page.keyboard.type('Cumprimente o cliente pelo nome.');
    await a.page.getByRole('button', { name: 'Bold' }).click();
    await a.page.keyboard.type(' Sempre.');
    await a.page.getByRole('button', { name: 'Save', exact: true }).click();
    await a.page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    const noteId = a.page.url().split('/').pop()!;
    const stored = await server.db.note.findUniqueOrThrow({ where: { id: noteId } });
    expect(stored.text).toBe('Cumprimente o cliente pelo nome. Sempre.');
    expect(JSON.stringify(stored.doc)).toContain('"bold"');

    await a.page.getByRole('button', { name: 'Share', exact: true }).click();
    const dialog = a.page.getByRole('dialog', { name: 'Share the note' });
    await dialog.getByRole('checkbox', { name: 'Bruno Lima' }).check();
    await dialog.getByRole('button', { name: 'Save sharing' }).click();
    await a.page.getByText('Shared with: Bruno Lima').waitFor();

    await b.page.goto(`${server.url}/i/notes`);
    await b.page.getByRole('link', { name: /Roteiro de atendimento/ }).click();
    await b.page.getByText('Shared by Ana Souza: read only.').waitFor();
    const readOnly = b.page.getByRole('textbox', { name: 'Text of the note' });
    await readOnly.getByText('Cumprimente o cliente pelo nome.').waitFor();
    expect(await readOnly.getAttribute('contenteditable')).toBe('false');
    expect(await b.page.getByRole('button', { name: 'Save', exact: true }).count()).toBe(0);
  }, budget(120_000));
});

describe('customers', () => {
  it('imports 1,000 contacts with three bad rows: the progress moves and the report names the bad rows', async () => {
    const { a } = await team();
    await a.page.goto(`${server.url}/i/recent/customers/all`);
    await a.page.getByRole('heading', { name: 'Import from CSV' }).waitFor();
    const rows = ['name,email,phone,company'];
    for (let i = 1; i <= 1000; i++) rows.push(`Cliente ${i},cliente${i}@example.com,+55 11 9${String(10_000_000 + i)},Empresa ${i % 7}`);
    rows.splice(100, 0, 'Sem Email,isto-nao-e-email,,'); // row 101
    rows.splice(500, 0, ',semnome@example.com,,'); // row 501
    rows.splice(900, 0, 'Telefone Ruim,tr@example.com,abc,'); // row 901
    // Every value the progress bar takes, as the browser renders it.
    await a.page.evaluate(() => {
      const seen: number[] = ((window as unknown as { progressSeen: number[] }).progressSeen = []);
      new MutationObserver(() => {
        const bar = document.querySelector('[data-testid=import-progress]');
        const value = Number(bar?.getAttribute('aria-valuenow'));
        if (bar && seen[seen.length - 1] !== value) seen.push(value);
      }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-valuenow'] });
    });
    await a.page.locator('.contacts-import input[type=file]').setInputFiles({ name: 'clientes.csv', mimeType: 'text/csv', buffer: Buffer.from(rows.join('\n')) });
    const report = a.page.getByTestId('import-report');
    await report.getByText('Import finished: 1000 added, 0 updated, 3 refused.').waitFor({ timeout: 60_000 });
    const seen = await a.page.evaluate(() => (window as unknown as { progressSeen: number[] }).progressSeen);
    expect(seen[0]).toBeLessThan(1003);
    expect(seen[seen.length - 1]).toBe(1003);
    const refused = await report.getByRole('row').allTextContents();
    expect(refused.slice(1)).toEqual(['101email: Invalid email', '501name: Name is required', '901phone: Invalid phone number']);
    await a.page.getByRole('status').filter({ hasText: '1000 customers in the directory' }).waitFor();
  }, budget(120_000));
});

describe('customers by profile', () => {
  it('a member whose profile may neither add nor edit contacts reads the directory without those controls', async () => {
    const { company, a, b } = await team();
    const denied = { addContacts: false, editContacts: false };
    await server.db.profile.create({ data: { companyId: company.id, code: 'leitor', name: 'Leitor', permissions: denied } });
    await server.db.member.updateMany({ where: { companyId: company.id, userId: b.userId }, data: { profile: 'leitor' } });
    const contact = await server.db.contact.create({ data: { companyId: company.id, name: 'Marta Cliente', email: 'marta@example.com' } });

    await b.page.goto(`${server.url}/i/recent/customers/all`);
    await b.page.getByRole('link', { name: 'Marta Cliente' }).waitFor();
    for (const name of ['Export CSV', 'Merge the two selected']) expect(await b.page.getByRole('button', { name }).count()).toBe(0);
    expect(await b.page.getByRole('link', { name: 'Add customer' }).count()).toBe(0);
    expect(await b.page.getByRole('heading', { name: 'Import from CSV' }).count()).toBe(0);
    await b.page.getByRole('link', { name: 'Marta Cliente' }).click();
    await b.page.getByText('marta@example.com').first().waitFor();
    expect(await b.page.getByRole('link', { name: 'Edit', exact: true }).count()).toBe(0);
    expect(await b.page.getByRole('button', { name: 'Remove', exact: true }).count()).toBe(0);

    // The admin keeps them.
    await a.page.goto(`${server.url}/i/recent/customers/${contact.id}`);
    await a.page.getByRole('link', { name: 'Edit', exact: true }).waitFor();
  }, budget(120_000));
});

describe('the front door', () => {
  it('from /, a company domain leads to that company page', async () => {
    const owner = await createUser(server.db, { name: 'Dona' });
    const company = await createCompany(server.db, owner.id, { name: 'Padaria Central' });
    const visitor = await browser.newContext({ locale: 'en-US' });
    contexts.push(visitor);
    const page = await visitor.newPage();
    await page.goto(`${server.url}/`);
    await page.getByRole('heading', { name: 'What it is' }).waitFor();
    await page.getByLabel('Company domain', { exact: true }).fill('x y');
    await page.getByRole('button', { name: 'Go to its page' }).click();
    await page.getByText('A domain has 3 to 15 lowercase letters or digits, without spaces').waitFor();
    await page.getByLabel('Company domain', { exact: true }).fill(company.domain.toUpperCase());
    await page.getByRole('button', { name: 'Go to its page' }).click();
    await page.waitForURL(`${server.url}/${company.domain}`);
    await page.getByRole('heading', { name: 'Padaria Central' }).waitFor();
  }, budget(120_000));
});
