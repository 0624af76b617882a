/**
 * Signing in, up and out in the browser, against the real server with a real SMTP server and SMS
 * gateway on loopback: e-mail sign-up with verification, password sign-in and recovery, phone
 * codes, the route guard, and linking an anonymous visit to an existing account ('Vincular Contas').
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../helpers/browser';
import { startTestServer, type TestServer } from '../helpers/server';
import { startSmsGateway } from '../helpers/sms';
import { startSmtpServer } from '../helpers/smtp';
import { callProcedure } from '../helpers/trpc';

let server: TestServer;
let browser: Browser;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let sms: Awaited<ReturnType<typeof startSmsGateway>>;

beforeAll(async () => {
  if (!fs.existsSync('dist/client/index.html')) {
    throw new Error('dist/client is missing: build the browser app first (npm run build, or npm test)');
  }
  [smtp, sms, browser] = await Promise.all([startSmtpServer(), startSmsGateway(), launchBrowser()]);
  server = await startTestServer({ env: { SMTP_URL: smtp.url, SMS_URL: sms.url, SMS_TOKEN: sms.token } });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await smtp?.close();
  await sms?.close();
});

const newEmail = () => `user-${randomBytes(4).toString('hex')}@example.test`;

/** An account made through the real sign-up procedure, outside the browser under test. */
async function createAccount(name: string, password: string): Promise<string> {
  const email = newEmail();
  const result = await callProcedure(server.url, 'auth.signUp', { name, email, password, passwordConfirm: password }, { type: 'mutation' });
  expect(result.error).toBeUndefined();
  return email;
}

/** A fresh profile: no cookie, no stored language, a browser that prefers US English. */
async function withPage(run: (page: Page, context: BrowserContext) => Promise<void>): Promise<void> {
  const context = await browser.newContext({ locale: 'en-US' });
  try {
    await run(await context.newPage(), context);
  } finally {
    await context.close();
  }
}

const at = (path: string) => (url: URL) => url.pathname + url.search === path;

async function signInWithPassword(page: Page, email: string, password: string) {
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

describe('identity in the browser', () => {
  it('signs up, is held at e-mail verification, and follows the mailed link to where it was going', async () => {
    await server.db.appConfig.update({ where: { id: 1 }, data: { verifyEmail: true } });
    try {
      await withPage(async (page) => {
        const email = newEmail();
        await page.goto(`${server.url}/i/login/mail/create`);
        await page.getByLabel('Name').fill('Bia Lima');
        await page.getByLabel('E-mail').fill(email);
        await page.getByLabel('Password', { exact: true }).fill('Lantern-42');
        await page.getByLabel('Confirm password').fill('secret2');
        await page.getByRole('button', { name: 'Create account' }).click();
        await page.getByText('Passwords do not match').waitFor();

        await page.getByLabel('Confirm password').fill('Lantern-42');
        await page.getByRole('button', { name: 'Create account' }).click();
        // Signed in, but the guard keeps an unverified e-mail out of the app.
        await page.waitForURL(at('/i/emailVerification?redirect=%2Fi%2Frecent'));
        await page.getByText('Verify your e-mail to continue!').waitFor();
        await page.getByText('Bia Lima').waitFor();

        const mail = await smtp.next(email);
        expect(mail.link).toContain('/i/emailVerification?token=');
        await page.goto(mail.link);
        await page.waitForURL(at('/i/recent'));
        await page.getByRole('heading', { name: 'Recent chats' }).waitFor();
        expect((await server.db.user.findUniqueOrThrow({ where: { email } })).emailVerifiedAt).not.toBeNull();
      });
    } finally {
      await server.db.appConfig.update({ where: { id: 1 }, data: { verifyEmail: false } });
    }
  });

  it('signs out, refuses a wrong password next to the field, and signs in with the right one', async () => {
    const email = await createAccount('Caio Reis', 'right-pass');
    await withPage(async (page) => {
      // Signing out must leave nobody signed in, not a fresh anonymous visitor.
      let anonymousCalls = 0;
      page.on('request', (request) => {
        if (request.url().includes('auth.anonymous')) anonymousCalls++;
      });
      await page.goto(`${server.url}/i/login/entrar`);
      await signInWithPassword(page, email, 'right-pass');
      await page.waitForURL(at('/i/recent'));

      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL(at('/i/login/entrar'));
      expect(await page.getByRole('button', { name: 'Sign out' }).count()).toBe(0);

      await signInWithPassword(page, email, 'wrong-pass');
      await page.getByText('Invalid password').waitFor();
      expect(await page.getByLabel('Password', { exact: true }).getAttribute('aria-invalid')).toBe('true');

      // An unknown e-mail gets the same answer as a wrong password (docs/decisions.md).
      await signInWithPassword(page, newEmail(), 'whatever');
      await page.getByText('Invalid password').waitFor();

      await signInWithPassword(page, email, 'right-pass');
      await page.waitForURL(at('/i/recent'));
      await page.getByText('Caio Reis').waitFor();
      expect(anonymousCalls).toBe(0);
    });
  });

  it('recovers a password through the mailed link, then signs in with the new one', async () => {
    const email = await createAccount('Dora Melo', 'old-pass');
    await withPage(async (page) => {
      await page.goto(`${server.url}/i/login/mail/recovery`);
      await page.getByLabel('E-mail').fill(email);
      await page.getByRole('button', { name: 'Send link' }).click();
      await page.getByText(`Sent to ${email}.`).waitFor();

      const mail = await smtp.next(email);
      await page.goto(mail.link);
      await page.getByLabel('New password').fill('new-pass');
      await page.getByLabel('Confirm password').fill('new-pass');
      await page.getByRole('button', { name: 'Save new password' }).click();
      await page.waitForURL(at('/i/recent'));

      // The link is single-use.
      await page.goto(mail.link);
      await page.getByLabel('New password').fill('other-pass');
      await page.getByLabel('Confirm password').fill('other-pass');
      await page.getByRole('button', { name: 'Save new password' }).click();
      await page.getByText('This link has expired or was already used.').waitFor();

      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL(at('/i/login/entrar'));
      await signInWithPassword(page, email, 'old-pass');
      await page.getByText('Invalid password').waitFor();
      await signInWithPassword(page, email, 'new-pass');
      await page.waitForURL(at('/i/recent'));
    });
  });

  it('signs in with an SMS code; resending waits for its countdown', async () => {
    await withPage(async (page) => {
      await page.goto(`${server.url}/i/login/phone`);
      const phone = page.getByLabel('Phone number');
      await phone.pressSequentially('11987654321');
      expect(await phone.inputValue()).toBe('(11) 98765-4321');
      await page.getByRole('button', { name: 'Send code' }).click();

      await page.waitForURL(at('/i/login/phone/verify/5511987654321'));
      await page.getByText('Enter the code we sent by SMS to (11) 98765-4321.').waitFor();
      const resend = page.getByRole('button', { name: /^Resend code in \d\d:\d\d$/ });
      expect(await resend.textContent()).toMatch(/^Resend code in 01:(30|29)$/);
      expect(await resend.isDisabled()).toBe(true);

      const code = sms.lastCode('5511987654321');
      await page.getByLabel('Code').fill(code === '000000' ? '111111' : '000000');
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.getByText('Invalid code').waitFor();

      await page.getByLabel('Code').fill(code);
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.waitForURL(at('/i/recent'));
      await page.getByRole('button', { name: 'Sign out' }).waitFor();
      expect(await server.db.user.count({ where: { phone: '5511987654321', anonymous: false } })).toBe(1);
    });
  });

  it('sends a visitor from an auth-required page to sign in, and back there afterwards', async () => {
    const email = await createAccount('Eva Nunes', 'eva-pass');
    await withPage(async (page) => {
      await page.goto(`${server.url}/i/myAccount`);
      await page.waitForURL(at('/i/login?redirect=%2Fi%2FmyAccount'));
      await page.getByRole('link', { name: 'Sign in with e-mail' }).click();
      await page.waitForURL(at('/i/login/mail?redirect=%2Fi%2FmyAccount'));
      await signInWithPassword(page, email, 'eva-pass');
      await page.waitForURL(at('/i/myAccount'));
      await page.getByRole('heading', { name: 'My account' }).waitFor();
    });
  });

  it('offers an anonymous visitor to link accounts when the e-mail already has one', async () => {
    const email = await createAccount('Fabio Luz', 'fabio-pass');
    await withPage(async (page) => {
      // Any app page makes the visitor anonymous.
      const anonymous = page.waitForResponse((response) => response.url().includes('auth.anonymous'));
      await page.goto(`${server.url}/i/recent`);
      await anonymous;
      const anonymousId = await page.evaluate(async () => {
        const body = await (await fetch('/trpc/auth.me')).json();
        return body.result.data.json.user.id as string;
      });
      expect((await server.db.user.findUniqueOrThrow({ where: { id: anonymousId } })).anonymous).toBe(true);

      await page.goto(`${server.url}/i/login/mail/create`);
      await page.getByLabel('Name').fill('Someone');
      await page.getByLabel('E-mail').fill(email);
      await page.getByLabel('Password', { exact: true }).fill('not-his-pass');
      await page.getByLabel('Confirm password').fill('not-his-pass');
      await page.getByRole('button', { name: 'Create account' }).click();

      await page.getByRole('heading', { name: 'Link accounts' }).waitFor();
      await page.getByLabel('Password', { exact: true }).fill('wrong');
      await page.getByRole('button', { name: 'Link accounts' }).click();
      await page.getByText('Invalid password').waitFor();
      await page.getByLabel('Password', { exact: true }).fill('fabio-pass');
      await page.getByRole('button', { name: 'Link accounts' }).click();

      await page.waitForURL(at('/i/recent'));
      await page.getByText('Fabio Luz').waitFor();
      expect(await server.db.user.findUnique({ where: { id: anonymousId } })).toBeNull();
    });
  });

  it('shows only the update notice to a client older than the minimal version', async () => {
    await server.db.appConfig.update({ where: { id: 1 }, data: { minimalVersion: '9999.1.1' } });
    try {
      await withPage(async (page) => {
        await page.goto(`${server.url}/i/recent`);
        await page.getByRole('heading', { name: 'Update required' }).waitFor();
        expect(await page.getByRole('button', { name: 'Reload' }).isVisible()).toBe(true);
        expect(await page.getByRole('heading', { name: 'Recent chats' }).count()).toBe(0);
      });
    } finally {
      await server.db.appConfig.update({ where: { id: 1 }, data: { minimalVersion: '0.0.0' } });
    }
  });
});
