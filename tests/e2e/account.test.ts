import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../helpers/browser';
import { createUser, signIn } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** A browser context already signed in as a new user (the cookie a sign-in would have set). */
async function signedInContext(name = 'Ana Souza'): Promise<{ context: BrowserContext; userId: string }> {
  const user = await createUser(server.db, { name });
  const [cookieName, value] = (await signIn(server.db, user.id)).split('=') as [string, string];
  const context = await browser.newContext({ locale: 'en-US' });
  await context.addCookies([{ name: cookieName, value, url: server.url }]);
  return { context, userId: user.id };
}

/** A PNG header followed by padding: a real image type, big enough to watch the upload. */
const bigPng = () => {
  const header = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
  return Buffer.concat([header, Buffer.alloc(4 * 1024 * 1024)]);
};

describe('my account', () => {
  it('uploads a photo with a visible progress bar, and refuses a non-image', async () => {
    const { context, userId } = await signedInContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/i/myAccount`);
    await page.getByRole('heading', { name: 'My account' }).waitFor();
    await page.getByRole('button', { name: 'Change image' }).waitFor();

    // Slow the upload down so the progress bar has time to be seen moving.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 2 * 1024 * 1024 });

    await page.getByLabel('Choose a photo').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: bigPng() });
    const progress = page.getByRole('progressbar', { name: 'Uploading photo' });
    await progress.waitFor();
    await expect.poll(async () => Number(await progress.getAttribute('value')), { timeout: 10_000 }).toBeGreaterThan(0);
    await progress.waitFor({ state: 'detached', timeout: 20_000 });
    await page.getByRole('img', { name: 'Your photo' }).waitFor();
    expect((await server.db.user.findUniqueOrThrow({ where: { id: userId } })).avatarKey).toMatch(/^avatars\//);

    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await page.getByLabel('Choose a photo').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
    await page.getByRole('alert').filter({ hasText: 'The file must be an image (PNG, JPEG, GIF or WebP)' }).waitFor();
    await context.close();
  });

  it('saves the name, and the phone (Brazilian mask) once the SMS code confirms it', async () => {
    const { context, userId } = await signedInContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/i/myAccount`);
    await page.getByLabel('Name').fill('Ana S. Souza');
    await page.getByLabel('Phone').pressSequentially('11987654321');
    expect(await page.getByLabel('Phone').inputValue()).toBe('(11) 98765-4321');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByLabel('Code sent by SMS').waitFor();
    // Saved so far: the name; the number waits for its proof.
    expect(await server.db.user.findUniqueOrThrow({ where: { id: userId } })).toMatchObject({ name: 'Ana S. Souza', phone: null });
    // No SMS gateway in this test: the code sits in the dev outbox.
    const sms = await server.db.outboxMessage.findFirstOrThrow({ where: { channel: 'sms', to: '5511987654321' }, orderBy: { createdAt: 'desc' } });
    await page.getByLabel('Code sent by SMS').fill(sms.body.match(/\b(\d{6})\b/)![1]!);
    await page.getByRole('button', { name: 'Confirm number' }).click();
    await page.getByText('Changes saved successfully!').waitFor();
    expect(await server.db.user.findUniqueOrThrow({ where: { id: userId } })).toMatchObject({ name: 'Ana S. Souza', phone: '5511987654321' });
    await context.close();
  });

  it('lists where the user is signed in and ends another session', async () => {
    const { context, userId } = await signedInContext();
    const other = await signIn(server.db, userId);
    const page = await context.newPage();
    await page.goto(`${server.url}/i/myAccount`);
    const items = page.locator('.account-sessions li');
    await expect.poll(() => items.count()).toBe(2);
    await page.getByText('This device').waitFor();
    await page.getByRole('button', { name: 'End session' }).click();
    await expect.poll(() => items.count()).toBe(1);
    const res = await fetch(`${server.url}/trpc/auth.me`, { headers: { cookie: other } });
    expect(JSON.stringify(await res.json())).toContain('"user":null');
    await context.close();
  });
});

describe('user settings', () => {
  it('keeps presence and sound choices, and switches the language', async () => {
    const { context, userId } = await signedInContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/i/settingsUser`);
    await page.getByLabel('Status').selectOption('beRightBack');
    await page.getByLabel('Play a sound while customers wait in the queue').uncheck();
    await expect
      .poll(async () => {
        const u = await server.db.user.findUniqueOrThrow({ where: { id: userId } });
        return [u.presence, (u.settings as Record<string, boolean>).playFila];
      })
      .toEqual(['beRightBack', false]);

    await page.reload();
    expect(await page.getByLabel('Status').inputValue()).toBe('beRightBack');
    expect(await page.getByLabel('Play a sound when a message arrives').isChecked()).toBe(true);

    await page.locator('.account-form').getByLabel('Language').selectOption('pt');
    await page.getByRole('heading', { name: 'Configurações do usuário' }).waitFor();
    await expect.poll(async () => (await server.db.user.findUniqueOrThrow({ where: { id: userId } })).language).toBe('pt');
    await context.close();
  });
});
