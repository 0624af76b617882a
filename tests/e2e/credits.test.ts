/**
 * Buying credits in the browser: an admin picks an amount on /i/recarga, pays on the local
 * Stripe-protocol server's checkout page, comes back, and sees the credit in the balance and the
 * statement. A refused card shows as refused. Without a provider, the page says how to set one up.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../helpers/browser';
import { createUser, signIn } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/server';
import { startStripeServer, type StripeServer } from '../helpers/stripe-server';
import { callProcedure } from '../helpers/trpc';

let server: TestServer;
let browser: Browser;
let stripe: StripeServer;
let n = 0;
const uniq = () => `${Date.now().toString(36).slice(-6)}${++n}`;

beforeAll(async () => {
  stripe = await startStripeServer();
  [server, browser] = await Promise.all([startTestServer({ env: stripe.env }), launchBrowser()]);
  stripe.setWebhookUrl(`${server.url}/webhooks/payments/stripe`);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await stripe?.close();
});

async function adminPage(target: TestServer): Promise<{ page: Page; companyId: string; close: () => Promise<void> }> {
  const admin = await createUser(target.db, { name: 'Ana Admin' });
  const cookie = await signIn(target.db, admin.id);
  const domain = `cr${uniq()}`;
  const res = await callProcedure(target.url, 'company.register', { domain, name: `Company ${domain}`, language: 'pt' }, { cookie, type: 'mutation' });
  expect(res.error).toBeUndefined();
  const company = await target.db.company.findUniqueOrThrow({ where: { domain } });
  const context = await browser.newContext({ locale: 'en-US', viewport: { width: 390, height: 844 } });
  const [name, value] = cookie.split('=') as [string, string];
  await context.addCookies([{ name, value, url: target.url }]);
  return { page: await context.newPage(), companyId: company.id, close: () => context.close() };
}

describe('/i/recarga', () => {
  it('tops up through the checkout page and shows the credit in the balance and the statement', async () => {
    const { page, companyId, close } = await adminPage(server);
    await page.goto(`${server.url}/i/recarga`);
    await page.getByRole('heading', { name: 'Buy credits' }).waitFor();
    await page.getByRole('radio', { name: 'Other amount' }).check();
    await page.getByRole('textbox', { name: 'Amount to pay' }).fill('37.50');
    await page.getByRole('button', { name: 'Pay' }).click();

    await page.waitForURL(`${stripe.url}/pay/**`);
    await page.getByText('Pay 37.50 BRL').waitFor();
    await page.getByRole('button', { name: 'Pay' }).click();

    await page.waitForURL(`${server.url}/i/recarga?payment=**`);
    await page.getByText(/Payment received: R\$\s?37\.50 added to the credits\./).waitFor();
    await expect.poll(() => page.getByTestId('credits').first().textContent()).toBe('37.50');
    await page.getByRole('row').filter({ hasText: 'Paid' }).waitFor();
    expect((await server.db.company.findUniqueOrThrow({ where: { id: companyId } })).credits.toString()).toBe('37.5');

    await page.getByRole('link', { name: 'Statement' }).click();
    await page.waitForURL(`${server.url}/i/recarga/historico`);
    const row = page.getByRole('row').filter({ hasText: 'Credits bought' });
    await row.waitFor();
    expect(await row.textContent()).toContain('37.50');
    await close();
  });

  it('a refused card shows as refused and adds nothing', async () => {
    const { page, companyId, close } = await adminPage(server);
    await page.goto(`${server.url}/i/recarga`);
    await page.getByRole('radio', { name: 'R$20.00' }).check();
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL(`${stripe.url}/pay/**`);
    await page.getByRole('button', { name: 'Use a card that is refused' }).click();
    await page.getByRole('alert').filter({ hasText: 'Your card was declined.' }).waitFor();
    await page.getByRole('link', { name: 'Back' }).click();
    await page.waitForURL(`${server.url}/i/recarga?payment=**`);
    await page.getByText('The payment was refused (Your card was declined.). Nothing was charged.').waitFor();
    await page.getByRole('row').filter({ hasText: 'Refused' }).waitFor();
    expect((await server.db.company.findUniqueOrThrow({ where: { id: companyId } })).credits.toString()).toBe('0');
    await close();
  });

  it('an operator edits prices and adjusts credits in the console; the audit log shows both', async () => {
    const { page, companyId, close } = await adminPage(server);
    const company = await server.db.company.findUniqueOrThrow({ where: { id: companyId } });
    const admin = await server.db.member.findFirstOrThrow({ where: { companyId, isAdmin: true } });
    await page.goto(`${server.url}/i/recarga/operator`);
    await page.getByText('Only the operators of this installation can do this').waitFor();
    await server.db.operator.create({ data: { userId: admin.userId } });
    await page.goto(`${server.url}/i/recarga`);
    await page.getByRole('link', { name: 'Operator console' }).click();
    await page.getByRole('textbox', { name: 'Video, per minute' }).fill('0.25');
    await page.getByRole('button', { name: 'Save prices' }).click();
    await page.getByText('Prices saved.').waitFor();
    await page.getByRole('textbox', { name: 'Company domain' }).fill(company.domain);
    await page.getByRole('textbox', { name: 'Amount' }).fill('12.34');
    await page.getByRole('textbox', { name: 'Reason' }).fill('Courtesy');
    await page.getByRole('button', { name: 'Adjust', exact: true }).click();
    await page.getByText(`Credits of ${company.domain} are now 12.34.`).waitFor();
    await page.getByRole('row').filter({ hasText: 'Courtesy' }).filter({ hasText: 'credits 12.34' }).waitFor();
    await page.getByRole('row').filter({ hasText: 'video 0.25' }).waitFor();
    expect((await server.db.prices.findUniqueOrThrow({ where: { id: 1 } })).videoPerMinute.toString()).toBe('0.25');
    await close();
  });

  it('an operator offers plans; an admin chooses one and subscribes through the checkout page; the plan’s flags apply', async () => {
    const { page, companyId, close } = await adminPage(server);
    const admin = await server.db.member.findFirstOrThrow({ where: { companyId, isAdmin: true } });
    await server.db.operator.create({ data: { userId: admin.userId } });
    await page.goto(`${server.url}/i/recarga/operator`);
    for (const [name, key, price] of [['Basic', 'basic', '49,90'], ['Pro', 'pro', '149.99']] as const) {
      await page.getByRole('button', { name: 'Add a plan' }).click();
      const plan = page.getByRole('group', { name: 'New plan' });
      await plan.getByRole('textbox', { name: 'Name' }).fill(name);
      const named = page.getByRole('group', { name });
      await named.getByRole('textbox', { name: 'Key' }).fill(key);
      await named.getByRole('textbox', { name: 'Monthly price' }).fill(price);
      if (key === 'pro') {
        await named.getByRole('checkbox', { name: 'WhatsApp' }).check();
        await named.getByRole('checkbox', { name: 'Kanban' }).check();
      }
    }
    await page.getByRole('button', { name: 'Save plans' }).click();
    await page.getByText('Plans saved.').waitFor();
    await page.getByRole('row').filter({ hasText: 'pro: Pro, 149.99, members calls forms whatsapp kanban' }).waitFor();

    await page.goto(`${server.url}/i/recarga`);
    await page.getByRole('radio', { name: /^Pro/ }).check();
    await page.getByRole('link', { name: 'Calendar' }).first().waitFor({ state: 'attached' });
    // At phone width the SLA board link sits in the 'More' drawer, so it is looked for in the document.
    const slaBoard = page.locator('a[href="/i/kanbansla"]');
    expect(await slaBoard.count()).toBe(0);
    await page.getByRole('button', { name: 'Subscribe to Pro' }).click();
    await page.waitForURL(`${stripe.url}/pay/**`);
    await page.getByText('Pay 149.99 BRL').waitFor();
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL(`${server.url}/i/recarga?subscription=1`);
    const card = page.locator('section.card').filter({ has: page.getByRole('heading', { name: 'Plan', exact: true }) });
    await card.getByRole('paragraph').filter({ hasText: 'Pro' }).getByText('Active').waitFor();
    const plan = (await server.db.company.findUniqueOrThrow({ where: { id: companyId } })).plan as Record<string, number>;
    expect(plan).toMatchObject({ whatsapp: 1, kanban: 1, calls: 1, forms: 1, members: 1, calendar: 0, transc: 0 });
    // The SLA board switched on by the plan shows in the navigation.
    await page.reload();
    await slaBoard.first().waitFor({ state: 'attached' });

    // Switching plan: the plan it has is no switch; Basic is bought through the checkout, then
    // Pro's subscription is cancelled at Stripe and the flags follow.
    await card.getByText('Your current plan stays until the new one is paid').waitFor();
    expect(await card.getByRole('button', { name: 'Switch to Pro' }).isDisabled()).toBe(true);
    await card.getByRole('radio', { name: /^Basic/ }).check();
    await card.getByRole('button', { name: 'Switch to Basic' }).click();
    await page.waitForURL(`${stripe.url}/pay/**`);
    await page.getByText('Pay 49.90 BRL').waitFor();
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL(`${server.url}/i/recarga?subscription=1`);
    await card.getByRole('paragraph').filter({ hasText: 'Basic' }).getByText('Active').waitFor();
    expect(stripe.cancelled).toHaveLength(1);
    const switched = (await server.db.company.findUniqueOrThrow({ where: { id: companyId } })).plan as Record<string, number>;
    expect(switched).toMatchObject({ whatsapp: 0, kanban: 0, calls: 1, forms: 1, members: 1 });
    await close();
  });

  it('an operator refunds a paid top-up from the console after confirming', async () => {
    const { page, companyId, close } = await adminPage(server);
    const company = await server.db.company.findUniqueOrThrow({ where: { id: companyId } });
    const admin = await server.db.member.findFirstOrThrow({ where: { companyId, isAdmin: true } });
    await server.db.operator.create({ data: { userId: admin.userId } });
    await page.goto(`${server.url}/i/recarga`);
    await page.getByRole('radio', { name: 'R$20.00' }).check();
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL(`${stripe.url}/pay/**`);
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL(`${server.url}/i/recarga?payment=**`);
    await page.getByRole('row').filter({ hasText: 'Paid' }).waitFor();

    await page.goto(`${server.url}/i/recarga/operator`);
    await page.getByRole('textbox', { name: 'Domain of the paying company' }).fill(company.domain);
    await page.getByRole('button', { name: 'Show payments' }).click();
    const row = page.getByRole('row').filter({ hasText: 'Paid' });
    await row.getByRole('button', { name: 'Refund' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('This cannot be undone.', { exact: false }).waitFor();
    // Cancelling refunds nothing.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await server.db.company.findUniqueOrThrow({ where: { id: companyId } })).credits.toString()).toBe('20');
    await row.getByRole('button', { name: 'Refund' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Refund' }).click();
    await page.getByText('Refunded R$20.00.').waitFor();
    await page.getByRole('row').filter({ hasText: 'Refunded' }).waitFor();
    await expect.poll(async () => (await server.db.company.findUniqueOrThrow({ where: { id: companyId } })).credits.toString()).toBe('0');
    await close();
  });

  it('without a provider, says payments are not set up and how', async () => {
    const bare = await startTestServer();
    try {
      const { page, close } = await adminPage(bare);
      await page.goto(`${bare.url}/i/recarga`);
      await page.getByText('Payments are not set up', { exact: true }).waitFor();
      await page.getByText(/STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET/).waitFor();
      expect(await page.getByRole('button', { name: 'Pay' }).count()).toBe(0);
      await close();
    } finally {
      await bare.close();
    }
  });
});
