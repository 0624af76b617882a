/**
 * Companies in the browser: registering one (the six steps from the socket), asking to join and
 * waiting for approval, being blocked and unblocked, the old hash invitation links, and the
 * dialog a non-admin gets while the company's plan is blocked. One story, in order: each step
 * starts from where the previous one left the company.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REGISTRATION_STEPS } from '../../src/shared/realtime';
import { launchBrowser } from '../helpers/browser';
import { createCompany, createUser, signIn } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/server';
import { callProcedure } from '../helpers/trpc';

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  if (!fs.existsSync('dist/client/index.html')) {
    throw new Error('dist/client is missing: build the browser app first (node scripts/setup.mjs --client)');
  }
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

interface Person {
  userId: string;
  cookie: string;
  context: BrowserContext;
  page: Page;
}

/** A new user, signed in in their own browser profile (the cookie a sign-in would have set). */
async function person(name: string, locale = 'en-US', existing?: { userId: string; cookie: string }): Promise<Person> {
  const userId = existing?.userId ?? (await createUser(server.db, { name })).id;
  const cookie = existing?.cookie ?? (await signIn(server.db, userId));
  const [cookieName, value] = cookie.split('=') as [string, string];
  const context = await browser.newContext({ locale });
  await context.addCookies([{ name: cookieName, value, url: server.url }]);
  return { userId, cookie, context, page: await context.newPage() };
}

const pathIs = (path: string) => (url: URL) => url.pathname === path;
const domain = `acme${randomBytes(3).toString('hex')}`;

async function memberId(userId: string): Promise<string> {
  const company = await server.db.company.findUniqueOrThrow({ where: { domain } });
  return (await server.db.member.findUniqueOrThrow({ where: { companyId_userId: { companyId: company.id, userId } } })).id;
}

/** An admin action through the API, as the members screen would call it. */
async function asAdmin(procedure: string, userId: string) {
  const result = await callProcedure(server.url, procedure, { domain, memberId: await memberId(userId) }, { type: 'mutation', cookie: admin.cookie });
  expect(result.error).toBeUndefined();
}

let admin: Person;
let attendant: Person;

describe('companies', () => {
  it('registers a company from the landing page, step by step, and opens the app in it', async () => {
    admin = await person('Ana Admin');
    const taken = await createCompany(server.db, admin.userId);
    const { page } = admin;
    await page.goto(server.url);
    await page.getByRole('link', { name: 'Register company' }).click();
    await page.waitForURL(pathIs('/i/login/newpage'));

    // Checked as it is typed: a taken domain, a malformed one, then a free one.
    const domainField = page.getByLabel('Domain', { exact: true });
    await domainField.fill(taken.domain);
    await page.getByRole('alert').filter({ hasText: 'Domain unavailable' }).waitFor();
    await domainField.fill('ab');
    await page.getByRole('alert').filter({ hasText: 'The domain must have 3 to 15 lowercase letters or digits' }).waitFor();
    await domainField.fill(domain);
    await page.getByText(`Available: your page will be ${server.url}/${domain}`).waitFor();

    // The steps come over the socket, which the screen connects before registering: over
    // long-polling until Socket.IO upgrades to a WebSocket, so both transports are watched.
    const steps: string[] = [];
    const collect = (payload: string) => {
      for (const [, step] of payload.matchAll(/"company:registration",\{[^}]*"step":"(\w+)"/g)) steps.push(step!);
    };
    page.on('websocket', (ws) => ws.on('framereceived', ({ payload }) => String(payload).includes('company:registration') && collect(String(payload))));
    page.on('response', async (res) => {
      if (!res.url().includes('/socket.io/') || res.request().method() !== 'GET') return;
      const body = await res.text().catch(() => '');
      if (body.includes('company:registration')) collect(body);
    });

    await page.getByLabel('Company name').fill(`Acme ${domain}`);
    await page.getByLabel('About the company').fill('We sell everything.');
    // An image is refused by its type before anything is sent; a PNG goes up once the company exists.
    const imageField = page.getByLabel('Company image (optional)');
    await imageField.setInputFiles({ name: 'logo.svg', mimeType: 'image/svg+xml', buffer: Buffer.from('<svg/>') });
    await page.getByText('The file must be an image (PNG, JPEG, GIF or WebP)').waitFor();
    const png = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(256)]);
    await imageField.setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: png });
    await page.getByRole('button', { name: 'Register company' }).click();

    const progress = page.getByRole('list', { name: 'Registration progress' });
    await progress.waitFor();
    expect(await progress.getByRole('listitem').allInnerTexts()).toEqual(
      ['Creating company', 'Registering in database', 'Registering queues', 'Creating profiles', 'Building Contact Us', 'All ready'].map((s) =>
        expect.stringContaining(s),
      ),
    );
    await page.getByRole('status').filter({ hasText: 'All ready' }).waitFor();
    await expect.poll(() => progress.locator('.registration-step-done').count()).toBe(6);
    await page.waitForURL(pathIs('/i/recent'));
    // Each step once (a polling body is read asynchronously, so arrival order is not asserted here).
    expect([...steps].sort()).toEqual([...REGISTRATION_STEPS].sort());

    const company = await server.db.company.findUniqueOrThrow({
      where: { domain },
      include: { queues: true, profiles: true, members: true },
    });
    expect(company.name).toBe(`Acme ${domain}`);
    expect(company.imageKey).toMatch(new RegExp(`^companies/${domain}/image/`));
    expect(company.queues.map((q) => q.key)).toEqual(['faleconosco']);
    expect(company.profiles.map((p) => p.code).sort()).toEqual(['A01', 'M01']);
    expect(company.members).toMatchObject([{ userId: admin.userId, isAdmin: true, inviteAccepted: true }]);
    expect((await server.db.user.findUniqueOrThrow({ where: { id: admin.userId } })).defaultCompanyId).toBe(company.id);
  });

  it('sends an anonymous visitor of an old hash invitation link to sign in, coming back to the join page', async () => {
    const context = await browser.newContext({ locale: 'en-US' });
    const page = await context.newPage();
    await page.goto(`${server.url}/#/convite/${domain}`);
    await page.waitForURL((url) => url.pathname === '/i/login' && url.searchParams.get('redirect') === `/${domain}/invite`);
    await context.close();
  });

  it('asks to join, waits, and moves on by itself once an admin approves', async () => {
    attendant = await person('Bruno Atendente');
    const { page } = attendant;
    await page.goto(`${server.url}/${domain}/invite`);
    await page.getByRole('heading', { name: 'Join the company' }).waitFor();
    await page.getByRole('button', { name: 'Ask to join' }).click();
    await page.waitForURL(pathIs(`/${domain}/wait`));
    await page.getByRole('heading', { name: 'Waiting for approval' }).waitFor();
    await page.getByText('An administrator needs to approve it').waitFor();

    // The request is also among the user's invitations, still waiting.
    const invites = await attendant.context.newPage();
    await invites.goto(`${server.url}/i/invites`);
    await invites.getByRole('listitem').filter({ hasText: `Acme ${domain}` }).getByText('waiting for approval').waitFor();
    await invites.close();

    await asAdmin('members.approve', attendant.userId);
    // The waiting screen polls every few seconds: no reload here.
    await page.waitForURL(pathIs('/i/recent'), { timeout: 10_000 });
    const company = await server.db.company.findUniqueOrThrow({ where: { domain } });
    expect((await server.db.user.findUniqueOrThrow({ where: { id: attendant.userId } })).defaultCompanyId).toBe(company.id);

    await page.goto(`${server.url}/i/selectCompany`);
    const item = page.getByRole('listitem').filter({ hasText: `Acme ${domain}` });
    await item.getByText('Active').waitFor();
    await item.getByText('Selected').waitFor();
  });

  it('sends a blocked member to the block page, and lets them back in once unblocked', async () => {
    const { page } = attendant;
    await asAdmin('members.block', attendant.userId);
    await page.goto(`${server.url}/i/recent`);
    await page.waitForURL(pathIs(`/${domain}/block`));
    await page.getByRole('heading', { name: 'Access blocked!' }).waitFor();
    await page.getByText('You no longer have access to this organization!').waitFor();

    await asAdmin('members.unblock', attendant.userId);
    const checked = page.waitForResponse((res) => res.url().includes('company.current'));
    await page.goto(`${server.url}/i/recent`);
    await page.getByRole('link', { name: 'Recent chats' }).waitFor();
    // The gate's check has answered (and a refusal would navigate at once): still here.
    expect((await checked).status()).toBe(200);
    await page.waitForTimeout(300);
    expect(new URL(page.url()).pathname).toBe('/i/recent');
  });

  it("shows a non-admin the spec's dialog while the plan is blocked; admins carry on with a banner", async () => {
    await server.db.company.update({ where: { domain }, data: { planBlocked: true } });

    await admin.page.goto(`${server.url}/i/recent`);
    await admin.page.getByRole('status').filter({ hasText: 'only administrators can work' }).waitFor();
    expect(await admin.page.getByRole('dialog').count()).toBe(0);

    // In Portuguese: the spec's own words.
    const pt = await person('', 'pt-BR', attendant);
    await pt.page.goto(`${server.url}/i/recent`);
    const dialog = pt.page.getByRole('dialog', { name: 'Atenção - Empresa desativada' });
    await dialog.waitFor();
    await dialog.getByText('No momento a conta da empresa está desativada, você não poderá atender a fila, ou interagir com atendimentos.').waitFor();
    await dialog.getByRole('button', { name: 'desconectar' }).waitFor();
    await dialog.getByRole('button', { name: 'entendi' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await pt.page.getByRole('status').filter({ hasText: 'A conta da empresa está desativada' }).waitFor();

    // 'desconectar' signs out to /i/login/entrar.
    await attendant.page.goto(`${server.url}/i/recent`);
    await attendant.page.getByRole('dialog').getByRole('button', { name: 'Disconnect' }).click();
    await attendant.page.waitForURL(pathIs('/i/login/entrar'));
    const me = await callProcedure(server.url, 'auth.me', undefined, { cookie: attendant.cookie });
    expect((me.data as { user: unknown }).user).toBeNull();

    await Promise.all([admin.context.close(), attendant.context.close(), pt.context.close()]);
  });
});
