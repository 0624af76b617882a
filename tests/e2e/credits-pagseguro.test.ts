/**
 * Buying credits through PagSeguro in the browser: an admin picks an amount on /i/recarga, pays on
 * the local PagSeguro-protocol server's payment page, comes back and sees the credit; a refused
 * card shows as refused.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../helpers/browser';
import { createUser, signIn } from '../helpers/fixtures';
import { startPagSeguroServer, type PagSeguroServer } from '../helpers/pagseguro-server';
import { startTestServer, type TestServer } from '../helpers/server';
import { callProcedure } from '../helpers/trpc';

let server: TestServer;
let browser: Browser;
let pagseguro: PagSeguroServer;
let n = 0;
const uniq = () => `${Date.now().toString(36).slice(-6)}${++n}`;

beforeAll(async () => {
  pagseguro = await startPagSeguroServer();
  [server, browser] = await Promise.all([startTestServer({ env: pagseguro.env }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await pagseguro?.close();
});

async function adminPage(): Promise<{ page: Page; companyId: string; close: () => Promise<void> }> {
  const admin = await createUser(server.db, { name: 'Ana Admin' });
  const cookie = await signIn(server.db, admin.id);
  const domain = `ps${uniq()}`;
  const res = await callProcedure(server.url, 'company.register', { domain, name: `Company ${domain}`, language: 'pt' }, { cookie, type: 'mutation' });
  expect(res.error).toBeUndefined();
  const company = await server.db.company.findUniqueOrThrow({ where: { domain } });
  const context = await browser.newContext({ locale: 'en-US', viewport: { width: 390, height: 844 } });
  const [name, value] = cookie.split('=') as [string, string];
  await context.addCookies([{ name, value, url: server.url }]);
  return { page: await context.newPage(), companyId: company.id, close: () => context.close() };
}

describe('/i/recarga with PagSeguro', () => {
  it('pays on PagSeguro’s page and shows the credit once', async () => {
    const { page, companyId, close } = await adminPage();
    await page.goto(`${server.url}/i/recarga`);
    await page.getByRole('radio', { name: 'Other amount' }).check();
    await page.getByRole('textbox', { name: 'Amount to pay' }).fill('42.10');
    await page.getByRole('button', { name: 'Pay' }).click();

    await page.waitForURL(`${pagseguro.url}/v2/checkout/payment.html?code=**`);
    await page.getByText('R$ 42.10').waitFor();
    await page.getByRole('button', { name: 'Pay' }).click();

    await page.waitForURL(`${server.url}/i/recarga?payment=**`);
    await page.getByText(/Payment received: R\$\s?42\.10 added to the credits\./).waitFor();
    await page.getByRole('row').filter({ hasText: 'Paid' }).waitFor();
    expect((await server.db.company.findUniqueOrThrow({ where: { id: companyId } })).credits.toString()).toBe('42.1');
    expect(await server.db.statementEntry.count({ where: { companyId } })).toBe(1);
    await close();
  });

  it('a refused card shows as refused and adds nothing', async () => {
    const { page, companyId, close } = await adminPage();
    await page.goto(`${server.url}/i/recarga`);
    await page.getByRole('radio', { name: 'R$20.00' }).check();
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL(`${pagseguro.url}/v2/checkout/payment.html?code=**`);
    await page.getByRole('button', { name: 'Use a card that is refused' }).click();
    await page.getByRole('alert').filter({ hasText: 'Pagamento recusado' }).waitFor();
    await page.getByRole('link', { name: 'Back' }).click();
    await page.waitForURL(`${server.url}/i/recarga?payment=**`);
    await page.getByText('The payment was refused (Refused by the card issuer). Nothing was charged.').waitFor();
    expect((await server.db.company.findUniqueOrThrow({ where: { id: companyId } })).credits.toString()).toBe('0');
    await close();
  });
});
