/**
 * The dashboard in the browser: an admin of a seeded company sets the period, sees the charts and
 * exports the per-day figures as a CSV that this test reads back.
 */
import fs from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../helpers/browser';
import { createUser, signIn } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/server';
import { callProcedure } from '../helpers/trpc';

let server: TestServer;
let browser: Browser;
beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Days of March 2026 and how many conversations were opened / concluded on each. */
const OPENED: Record<string, number> = { '2026-03-02': 3, '2026-03-03': 1, '2026-03-05': 2 };

describe('/i/dashboard', () => {
  it('shows charts for the period and exports them as CSV', async () => {
    const admin = await createUser(server.db, { name: 'Ana Admin' });
    const cookie = await signIn(server.db, admin.id);
    const domain = `db${Date.now().toString(36).slice(-6)}`;
    expect((await callProcedure(server.url, 'company.register', { domain, name: `Company ${domain}`, language: 'pt' }, { cookie, type: 'mutation' })).error).toBeUndefined();
    const company = await server.db.company.findUniqueOrThrow({ where: { domain } });
    const customer = await server.db.user.create({ data: { name: 'Cliente' } });
    let n = 0;
    for (const [day, count] of Object.entries(OPENED)) {
      for (let i = 0; i < count; i++) {
        const opened = new Date(`${day}T12:0${i}:00Z`);
        await server.db.conversation.create({
          data: {
            companyId: company.id,
            type: 0,
            protocol: `${Date.now()}`.slice(-10) + String(++n).padStart(5, '0'),
            creatorId: customer.id,
            createdAt: opened,
            state: i === 0 ? 9999 : 1,
            concludedAt: i === 0 ? new Date(opened.getTime() + 3_600_000) : null,
            rating: i === 0 ? 4 : null,
          },
        });
      }
    }

    const context = await browser.newContext({ locale: 'en-US', timezoneId: 'UTC', acceptDownloads: true });
    const [name, value] = cookie.split('=') as [string, string];
    await context.addCookies([{ name, value, url: server.url }]);
    const page = await context.newPage();
    await page.goto(`${server.url}/i/dashboard`);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    // An admin has every permission: the navigation offers the dashboard.
    await page.locator('a[href="/i/dashboard"]').first().waitFor({ state: 'attached' });
    await page.getByLabel('From', { exact: true }).fill('2026-03-01');
    await page.getByLabel('To', { exact: true }).fill('2026-03-06');
    const services = page.locator('dt', { hasText: /^Services$/ }).locator('xpath=following-sibling::dd[1]');
    await expect.poll(() => services.textContent()).toBe('6');
    const perDay = page.getByRole('img', { name: 'Conversations opened and concluded per day' });
    await perDay.locator('.recharts-bar-rectangle').first().waitFor();
    await page.getByRole('img', { name: 'Ratings by stars' }).locator('svg').first().waitFor();

    const card = page.locator('section.card', { has: page.getByRole('heading', { name: 'Conversations per day' }) });
    const [download] = await Promise.all([page.waitForEvent('download'), card.getByRole('button', { name: 'Export CSV' }).click()]);
    const csv = fs.readFileSync((await download.path())!, 'utf8');
    const [header, ...rows] = csv.trim().split('\r\n').map((line) => line.split(','));
    expect(header).toEqual(['day', 'opened', 'concluded']);
    expect(rows).toEqual(
      ['2026-03-01', '2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05', '2026-03-06'].map((day) => [day, String(OPENED[day] ?? 0), String(OPENED[day] ? 1 : 0)]),
    );

    // The company account screen shows used and free storage too.
    await server.db.conversation.updateMany({ where: { companyId: company.id }, data: { bytesAttachments: 1024 ** 2 } });
    await page.goto(`${server.url}/i/settings/configCompany`);
    await page.getByRole('meter', { name: 'Storage used' }).waitFor();
    const used = page.locator('dt', { hasText: /^Storage used$/ }).locator('xpath=following-sibling::dd[1]');
    await expect.poll(() => used.textContent()).toBe('6 MB');
    await context.close();
  });

  it('refuses a member without viewReports, with the reason', async () => {
    const owner = await createUser(server.db, { name: 'Dona' });
    const ownerCookie = await signIn(server.db, owner.id);
    const domain = `dr${Date.now().toString(36).slice(-6)}`;
    await callProcedure(server.url, 'company.register', { domain, name: `Company ${domain}`, language: 'pt' }, { cookie: ownerCookie, type: 'mutation' });
    const company = await server.db.company.findUniqueOrThrow({ where: { domain } });
    const plain = await createUser(server.db, { name: 'Plain' });
    await server.db.member.create({ data: { companyId: company.id, userId: plain.id, inviteAccepted: true, joinedAt: new Date() } });
    await server.db.user.update({ where: { id: plain.id }, data: { defaultCompanyId: company.id } });
    const cookie = await signIn(server.db, plain.id);
    const context = await browser.newContext({ locale: 'en-US' });
    const [name, value] = cookie.split('=') as [string, string];
    await context.addCookies([{ name, value, url: server.url }]);
    const page = await context.newPage();
    await page.goto(`${server.url}/i/dashboard`);
    await page.getByRole('alert').filter({ hasText: 'Reports are not available to you' }).waitFor();
    // The navigation does not offer what the server refuses: once the company's plan and the
    // member's permissions are in (the Calendar link comes from the same answer), no Dashboard link.
    await page.locator('a[href="/i/calendar"]').first().waitFor({ state: 'attached' });
    expect(await page.locator('a[href="/i/dashboard"]').count()).toBe(0);
    await context.close();
  });
});
