/**
 * Screens say what is going on (issue 13, items 4, 7 and 8): a refusal instead of a spinner
 * (/i/kanbansla without the plan's SLA board), settings that show members only what they may
 * open, a members list that updates live, honest e-mail verification, a public page with no
 * rating until someone rated, and a company's starting texts in its admin's language.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../helpers/browser';
import { addMember, createCompany, createUser, signIn } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/server';
import { startSmtpServer } from '../helpers/smtp';
import { callProcedure } from '../helpers/trpc';

let server: TestServer;
let browser: Browser;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
const contexts: BrowserContext[] = [];
let n = 0;
const uniq = () => `${Date.now().toString(36).slice(-5)}${++n}`;

beforeAll(async () => {
  [smtp, browser] = await Promise.all([startSmtpServer(), launchBrowser()]);
  server = await startTestServer({ env: { SMTP_URL: smtp.url } });
});
afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => {});
  await browser?.close();
  await server?.close();
  await smtp?.close();
});

async function pageOf(userId: string | null, opts: { locale?: string } = {}): Promise<Page> {
  const context = await browser.newContext({ locale: opts.locale ?? 'en-US', viewport: { width: 1366, height: 768 } });
  contexts.push(context);
  if (userId) {
    const [name, value] = (await signIn(server.db, userId)).split('=') as [string, string];
    await context.addCookies([{ name, value, url: server.url }]);
  }
  return context.newPage();
}

async function companyWith(opts: { plan?: Record<string, number> } = {}) {
  const admin = await createUser(server.db, { name: 'Ana Admin' });
  const company = await createCompany(server.db, admin.id);
  if (opts.plan) await server.db.company.update({ where: { id: company.id }, data: { plan: { ...(company.plan as object), ...opts.plan } } });
  await server.db.user.update({ where: { id: admin.id }, data: { defaultCompanyId: company.id } });
  const member = await createUser(server.db, { name: 'Bruno Membro' });
  await addMember(server.db, company.id, member.id);
  await server.db.user.update({ where: { id: member.id }, data: { defaultCompanyId: company.id } });
  return { company, admin, member };
}

describe('refusals and permissions', () => {
  it("shows the server's refusal on /i/kanbansla when the plan has no SLA board, instead of spinning", async () => {
    const { admin } = await companyWith({ plan: { kanban: 0 } });
    const page = await pageOf(admin.id);
    const asked: string[] = [];
    page.on('request', (r) => r.url().includes('service.slaBoard') && asked.push(r.url()));
    await page.goto(`${server.url}/i/kanbansla`);
    const refusal = page.getByRole('alert').filter({ hasText: 'The SLA board is not available' });
    await refusal.waitFor();
    // At once: the refusal is shown after one request, not after retries behind a spinner (React
    // Query shows an error only once its retries are spent).
    expect(asked).toHaveLength(1);
    expect(await page.getByRole('status', { name: 'Loading the SLA board…' }).count()).toBe(0);
  });

  it('shows the SLA board, empty with what to do, when the plan has it', async () => {
    const { admin } = await companyWith({ plan: { kanban: 1 } });
    const page = await pageOf(admin.id);
    await page.goto(`${server.url}/i/kanbansla`);
    await page.getByText('No requests with an SLA yet').waitFor();
    await page.getByRole('link', { name: 'Set up queues' }).waitFor();
  });

  it('shows members no settings sections they cannot open, and admins all of them', async () => {
    const { admin, member } = await companyWith();
    const asMember = await pageOf(member.id);
    await asMember.goto(`${server.url}/i/settings`);
    await asMember.getByText('There is nothing here you can change.').waitFor();
    expect(await asMember.getByRole('navigation', { name: 'Settings sections' }).count()).toBe(0);
    expect(await asMember.getByRole('link', { name: 'Queues' }).count()).toBe(0);
    await asMember.getByRole('link', { name: 'your settings' }).waitFor();

    const asAdmin = await pageOf(admin.id);
    await asAdmin.goto(`${server.url}/i/settings`);
    const sections = asAdmin.getByRole('navigation', { name: 'Settings sections' });
    await sections.getByRole('link', { name: 'Members' }).waitFor();
    // Members, client companies, queues, groups, forms, saved replies, products, doctors, Telegram, WhatsApp, e-mail integration, website widget, company account.
    expect(await sections.getByRole('link').count()).toBe(13);
  });

  it("updates the members list live when someone asks to join", async () => {
    const { company, admin } = await companyWith();
    const page = await pageOf(admin.id);
    await page.goto(`${server.url}/i/settings/members`);
    await page.getByRole('row').filter({ hasText: 'Bruno Membro' }).waitFor();
    const carla = await createUser(server.db, { name: 'Carla Nova' });
    const joined = await callProcedure(server.url, 'company.join', { domain: company.domain }, { cookie: await signIn(server.db, carla.id), type: 'mutation' });
    expect(joined.data).toEqual({ state: 'waiting' });
    // No reload: the row and the waiting notice arrive by themselves.
    await page.getByRole('row').filter({ hasText: 'Carla Nova' }).waitFor();
    await page.getByText('1 person is waiting for approval.').waitFor();
  });
});

describe('company content and public page', () => {
  it("writes a new company's texts in its admin's language and shows no rating before the first one", async () => {
    const dora = await createUser(server.db, { name: 'Dora Schmidt' });
    const page = await pageOf(dora.id, { locale: 'de-DE' });
    const domain = `de${uniq()}`;
    await page.goto(`${server.url}/i/login/newpage`);
    await page.getByLabel('Domain', { exact: true }).fill(domain);
    await page.getByLabel('Unternehmensname').fill(`Firma ${domain}`);
    await page.getByRole('button', { name: 'Unternehmen registrieren' }).click();
    await expect.poll(async () => (await server.db.company.findUnique({ where: { domain }, include: { queues: true } }))?.queues[0]?.name ?? null, { timeout: 30_000 }).toBe('Kontakt');

    const visitor = await pageOf(null, { locale: 'de-DE' });
    await visitor.goto(`${server.url}/${domain}`);
    await visitor.getByRole('heading', { name: `Firma ${domain}` }).waitFor();
    await visitor.getByText('Noch keine Bewertungen').waitFor();
    expect(await visitor.getByText('★').count()).toBe(0);
    await visitor.getByRole('link', { name: 'Kontakt' }).waitFor();
  });
});

describe('e-mail verification', () => {
  it('says why before sign-up, claims a sent link only when one was sent, resends, and confirms success', async () => {
    await server.db.appConfig.update({ where: { id: 1 }, data: { verifyEmail: true } });
    try {
      // Someone whose e-mail is unverified signs in: nothing was mailed to them in this tab.
      const old = await createUser(server.db, { name: 'Olga Antiga', email: `olga-${uniq()}@example.test` });
      const olga = await pageOf(old.id);
      await olga.goto(`${server.url}/i/recent`);
      await olga.waitForURL(/\/i\/emailVerification/);
      await olga.getByText(`${old.email} is not verified yet.`).waitFor();
      expect(await olga.getByText('We sent a link').count()).toBe(0);
      await olga.getByRole('button', { name: 'Send the link' }).click();
      await olga.getByRole('status').filter({ hasText: `Sent to ${old.email}.` }).waitFor();
      expect((await smtp.next(old.email!)).link).toContain('/i/emailVerification?token=');
      await olga.getByRole('button', { name: 'Resend e-mail' }).click();
      const again = await smtp.next(old.email!);

      // Following the link: verified, and told so where the user lands.
      await olga.goto(again.link);
      await olga.getByRole('status').filter({ hasText: 'Your e-mail is verified.' }).waitFor();
      await olga.getByRole('heading', { name: 'Recent chats' }).waitFor();

      // Sign-up says when and why before the account is created, and then that the link was sent.
      const page = await pageOf(null);
      const email = `nova-${uniq()}@example.test`;
      await page.goto(`${server.url}/i/login/mail/create`);
      await page.getByText('We will send a link to this e-mail to confirm it is yours.').waitFor();
      await page.getByLabel('Name').fill('Nina Nova');
      await page.getByLabel('E-mail').fill(email);
      await page.getByLabel('Password', { exact: true }).fill('Lantern-42');
      await page.getByLabel('Confirm password').fill('Lantern-42');
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByText(`We sent a link to ${email}. Open it to continue.`).waitFor();
      await smtp.next(email);
    } finally {
      await server.db.appConfig.update({ where: { id: 1 }, data: { verifyEmail: false } });
    }
  });
});
