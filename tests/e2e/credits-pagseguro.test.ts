/**
 * Buying credits through PagSeguro in the browser: an admin picks an amount on /i/recarga, pays on
 * the local PagSeguro-protocol server's payment page, comes back and sees the credit; a refused
 * card shows as refused. And the transparent checkout: paying by card on /i/recarga itself, the
 * card tokenised by the (local) DirectPayment script, the credit seen in the statement, and the
 * card's number never sent to our server.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from '../helpers/axe';
import { launchBrowser } from '../helpers/browser';
import { createUser, signIn } from '../helpers/fixtures';
import { startPagSeguroServer, TEST_CARDS, type PagSeguroServer } from '../helpers/pagseguro-server';
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
    await page.getByRole('radiogroup', { name: 'How to pay', exact: true }).getByRole('radio', { name: "On the provider's page" }).check();
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
    await page.getByRole('radiogroup', { name: 'How to pay', exact: true }).getByRole('radio', { name: "On the provider's page" }).check();
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

  it('pays by card on /i/recarga without leaving it, and sees the credit in the statement', async () => {
    const { page, companyId, close } = await adminPage();
    // Everything the page sends our server, to check the card never goes there.
    const sentToUs: string[] = [];
    page.on('request', (req) => {
      if (req.url().startsWith(server.url)) sentToUs.push(`${req.url()} ${req.postData() ?? ''}`);
    });
    await page.goto(`${server.url}/i/recarga`);
    await page.getByRole('radio', { name: 'Other amount' }).check();
    await page.getByRole('textbox', { name: 'Amount to pay' }).fill('57.30');
    await expect.poll(() => page.getByRole('radiogroup', { name: 'How to pay', exact: true }).getByRole('radio', { name: 'By card, on this page' }).isChecked()).toBe(true);
    // The form tells what is missing before anything leaves the page.
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.getByText('Type the card number as printed on it').waitFor();
    expect(pagseguro.cardPayments).toHaveLength(0);

    const card = page.getByRole('group', { name: 'Card' });
    await card.getByRole('textbox', { name: 'Card number' }).fill(`${TEST_CARDS.approved.slice(0, 4)} ${TEST_CARDS.approved.slice(4, 8)} ${TEST_CARDS.approved.slice(8, 12)} ${TEST_CARDS.approved.slice(12)}`);
    await card.getByRole('textbox', { name: 'Name on the card' }).fill('Ana Admin');
    await card.getByRole('textbox', { name: 'Expiry (MM/YY)' }).fill(`12/${String(new Date().getUTCFullYear() + 2).slice(2)}`);
    await card.getByRole('textbox', { name: 'Security code' }).fill('123');
    await card.getByRole('textbox', { name: "Card holder's CPF" }).fill('123.456.789-09');
    await card.getByRole('textbox', { name: "Card holder's date of birth (DD/MM/YYYY)" }).fill('07/03/1985');
    await card.getByRole('textbox', { name: 'Area code' }).fill('11');
    await card.getByRole('textbox', { name: 'Phone', exact: true }).fill('98765-4321');
    await card.getByRole('textbox', { name: 'Postal code (CEP)' }).fill('01310-100');
    await card.getByRole('textbox', { name: 'Street' }).fill('Av. Paulista');
    await card.getByRole('textbox', { name: 'Number', exact: true }).fill('1000');
    await card.getByRole('textbox', { name: 'District' }).fill('Bela Vista');
    await card.getByRole('textbox', { name: 'City' }).fill('São Paulo');
    await card.getByRole('textbox', { name: 'State (two letters)' }).fill('SP');
    expect(await seriousViolations(page, { include: '.credits-topup' })).toEqual([]);
    await page.getByRole('button', { name: 'Pay' }).click();

    // Never left the app: the notice follows the payment on the same page.
    await page.getByText(/Payment received: R\$\s?57\.30 added to the credits\./).waitFor();
    expect(new URL(page.url()).origin).toBe(server.url);
    expect(pagseguro.cardPayments).toHaveLength(1);
    expect(pagseguro.cardPayments[0]).toMatchObject({ paymentMethod: 'creditCard', itemAmount1: '57.30' });
    // Neither the number (as typed, with spaces, or as digits) nor the expiry reached us; the holder's CPF and address do (PagSeguro wants them from the seller).
    const typed = TEST_CARDS.approved.match(/.{4}/g)!;
    for (const secret of [TEST_CARDS.approved, typed.join(' '), typed.join('+'), typed.join('%20'), `12/${String(new Date().getUTCFullYear() + 2).slice(2)}`]) {
      expect(sentToUs.join('\n')).not.toContain(secret);
    }
    expect(sentToUs.some((r) => r.includes('billing.payByCard'))).toBe(true);
    // The card fields are cleared once paid.
    await expect.poll(() => card.getByRole('textbox', { name: 'Card number' }).inputValue()).toBe('');

    await page.goto(`${server.url}/i/recarga/historico`);
    await page.getByRole('row').filter({ hasText: 'Credits bought' }).filter({ hasText: '57.30' }).waitFor();
    expect((await server.db.company.findUniqueOrThrow({ where: { id: companyId } })).credits.toString()).toBe('57.3');
    expect(await server.db.statementEntry.count({ where: { companyId } })).toBe(1);
    await close();
  });

  it('a card PagSeguro refuses shows as refused on the page, and adds nothing', async () => {
    const { page, companyId, close } = await adminPage();
    await page.goto(`${server.url}/i/recarga`);
    await page.getByRole('radio', { name: 'R$20.00' }).check();
    const card = page.getByRole('group', { name: 'Card' });
    const fill = async (name: string, value: string) => card.getByRole('textbox', { name, exact: true }).fill(value);
    await fill('Card number', TEST_CARDS.refused);
    await fill('Name on the card', 'Ana Admin');
    await fill('Expiry (MM/YY)', `01/${new Date().getUTCFullYear() + 1}`);
    await fill('Security code', '321');
    await fill("Card holder's CPF", '12345678909');
    await fill("Card holder's date of birth (DD/MM/YYYY)", '07/03/1985');
    await fill('Area code', '21');
    await fill('Phone', '3333-4444');
    await fill('Postal code (CEP)', '20040-002');
    await fill('Street', 'Rua da Assembleia');
    await fill('Number', '10');
    await fill('District', 'Centro');
    await fill('City', 'Rio de Janeiro');
    await fill('State (two letters)', 'RJ');
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.getByText('The payment was refused (Refused by the card issuer). Nothing was charged.').waitFor();
    expect((await server.db.company.findUniqueOrThrow({ where: { id: companyId } })).credits.toString()).toBe('0');
    await close();
  });

  it('subscribes to a plan by card on /i/recarga and sees it active', async () => {
    pagseguro.setNotificationUrl(`${server.url}/webhooks/payments/pagseguro`);
    await server.db.prices.update({ where: { id: 1 }, data: { plans: [{ key: 'pro', name: 'Pro', monthlyPrice: '149.99', features: ['members', 'calls', 'forms', 'kanban'] }] } });
    const { page, companyId, close } = await adminPage();
    await page.goto(`${server.url}/i/recarga`);
    await page.getByRole('radiogroup', { name: 'How to pay the plan' }).getByRole('radio', { name: 'By card, on this page' }).check();
    // The top-up's card form comes first; the plan's is the second.
    const card = page.getByRole('group', { name: 'Card' }).nth(1);
    const fill = async (name: string, value: string) => card.getByRole('textbox', { name, exact: true }).fill(value);
    await fill('Card number', TEST_CARDS.approved);
    await fill('Name on the card', 'Ana Admin');
    await fill('Expiry (MM/YY)', `05/${String(new Date().getUTCFullYear() + 3).slice(2)}`);
    await fill('Security code', '456');
    await fill("Card holder's CPF", '12345678909');
    await fill("Card holder's date of birth (DD/MM/YYYY)", '07/03/1985');
    await fill('Area code', '11');
    await fill('Phone', '98765-4321');
    await fill('Postal code (CEP)', '01310-100');
    await fill('Street', 'Av. Paulista');
    await fill('Number', '1000');
    await fill('District', 'Bela Vista');
    await fill('City', 'São Paulo');
    await fill('State (two letters)', 'SP');
    await page.getByRole('button', { name: 'Subscribe to Pro' }).click();
    await page.getByText(/Subscription (paid: the plan is active|sent to PagSeguro)/).waitFor();
    expect(new URL(page.url()).origin).toBe(server.url);
    await expect.poll(async () => (await server.db.subscription.findFirst({ where: { companyId } }))?.status).toBe('active');
    expect((await server.db.company.findUniqueOrThrow({ where: { id: companyId } })).plan).toMatchObject({ kanban: 1 });
    expect(JSON.stringify(pagseguro.adhesions.at(-1))).not.toContain(TEST_CARDS.approved);
    await close();
  });
});
