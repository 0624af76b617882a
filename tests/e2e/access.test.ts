/**
 * Access in the browser, live (issue 12): a member whose profile an admin changes is told in the
 * spec's words while on a page, and the menus follow without a reload; a member blocked while on
 * a page is sent to the block page at once. The admin acts through the API, as the members screen
 * would; the member's page is never reloaded (a marker on `window` proves it).
 */
import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../helpers/browser';
import { addMember, createCompany, createUser, signIn } from '../helpers/fixtures';
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

const pathIs = (path: string) => (url: URL) => url.pathname === path;

/** A company with its admin (API cookie) and a member signed in in their own browser profile, on /i/settings. */
async function memberOnSettings() {
  const admin = await createUser(server.db, { name: 'Ana Admin' });
  const company = await createCompany(server.db, admin.id);
  const adminCookie = await signIn(server.db, admin.id);
  const bruno = await createUser(server.db, { name: 'Bruno Membro' });
  const member = await addMember(server.db, company.id, bruno.id);
  await server.db.user.update({ where: { id: bruno.id }, data: { defaultCompanyId: company.id } });
  const cookie = await signIn(server.db, bruno.id);
  const [name, value] = cookie.split('=') as [string, string];
  const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 } });
  await context.addCookies([{ name, value, url: server.url }]);
  const page = await context.newPage();
  // The calls host asks for waiting rings once the tab's socket is connected: after that answer a
  // push to this person reaches the tab (one sent before would be lost, and the test with it).
  const socketUp = page.waitForResponse((res) => res.url().includes('calls.incoming') && res.ok());
  await page.goto(`${server.url}/i/settings`);
  await page.getByText('There is nothing here you can change').waitFor();
  await socketUp;
  await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
  const asAdmin = async (procedure: string, input: Record<string, unknown> = {}) => {
    const result = await callProcedure(server.url, procedure, { domain: company.domain, memberId: member.id, ...input }, { type: 'mutation', cookie: adminCookie });
    expect(result.error).toBeUndefined();
  };
  return { company, page, asAdmin, userId: bruno.id, close: () => context.close() };
}

/** Closes the person's connections under Socket.IO, as a dropped network does (the browser reconnects by itself). */
function dropConnection(userId: string) {
  for (const socket of server.server.io.of('/').sockets.values()) if (socket.data.userId === userId) socket.conn.close();
}

const notReloaded = (page: Page) => page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded === true);
const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

describe('access changes reach an open page at once', () => {
  it("a profile change: the spec's notice, and the menus change without a reload", async () => {
    const { company, page, asAdmin, close } = await memberOnSettings();
    await expect(nav(page).getByRole('link', { name: 'Dashboard' }).count()).resolves.toBe(0);
    await server.db.profile.create({ data: { companyId: company.id, code: 'P01', name: 'Reports', permissions: { viewReports: true } } });

    await asAdmin('members.setProfile', { profileCode: 'P01' });
    await page.getByRole('status').filter({ hasText: 'Your profile has been changed, reload the page!' }).waitFor();
    await nav(page).getByRole('link', { name: 'Dashboard' }).waitFor();

    // Made an admin: the settings sections an admin may open appear on the page already open.
    await asAdmin('members.toggleAdmin');
    await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Members' }).waitFor();
    expect(await notReloaded(page)).toBe(true);
    await close();
  });

  it('a member blocked while on a page is sent to the block page at once', async () => {
    const { company, page, asAdmin, close } = await memberOnSettings();
    await asAdmin('members.block');
    await page.waitForURL(pathIs(`/${company.domain}/block`));
    await page.getByRole('heading', { name: 'Access blocked!' }).waitFor();
    await page.getByText('You no longer have access to this organization!').waitFor();
    expect(await notReloaded(page)).toBe(true);
    await close();
  });

  it('catches up after a reconnect: a change pushed while the tab was disconnected still reaches it', async () => {
    const { company, page, asAdmin, userId, close } = await memberOnSettings();
    await server.db.profile.create({ data: { companyId: company.id, code: 'P02', name: 'Reports', permissions: { viewReports: true } } });
    const reconnected = page.waitForResponse((res) => res.url().includes('calls.incoming') && res.ok());
    // The tab's connection drops (no goodbye, as when a network blips); the change is made before
    // the tab is back (the browser waits about a second before reconnecting): its push reaches nobody.
    dropConnection(userId);
    await asAdmin('members.setProfile', { profileCode: 'P02' });
    await reconnected;
    await page.getByRole('status').filter({ hasText: 'Your profile has been changed, reload the page!' }).waitFor();
    await nav(page).getByRole('link', { name: 'Dashboard' }).waitFor();

    dropConnection(userId);
    await asAdmin('members.block');
    await page.waitForURL(pathIs(`/${company.domain}/block`));
    expect(await notReloaded(page)).toBe(true);
    await close();
  });
});
