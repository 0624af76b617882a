/**
 * The calendar in Chromium, in São Paulo time: a click on Tuesday 09:00 of the week view opens the
 * form; a weekly meeting is saved and shows on this week and the next; one occurrence is edited
 * alone ('This occurrence') and the others keep their title; a contact of the company is found and
 * invited in the editor (an e-mail with the .ics goes to her) and shown in the event; a company without the plan flag has
 * no calendar entry in the menu. Real server, database and Chromium.
 */
import fs from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../helpers/browser';
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

async function signedIn(plan: Record<string, number> = {}): Promise<{ page: Page; companyId: string }> {
  const user = await createUser(server.db, { name: 'Ana Souza' });
  const company = await createCompany(server.db, user.id);
  await server.db.company.update({ where: { id: company.id }, data: { plan: { ...(company.plan as object), calendar: 1, ...plan } } });
  await server.db.user.update({ where: { id: user.id }, data: { defaultCompanyId: company.id } });
  const [name, value] = (await signIn(server.db, user.id)).split('=') as [string, string];
  const context = await browser.newContext({ locale: 'en-US', timezoneId: 'America/Sao_Paulo', viewport: { width: 1280, height: 900 } });
  contexts.push(context);
  await context.addCookies([{ name, value, url: server.url }]);
  return { page: await context.newPage(), companyId: company.id };
}

/** The date (YYYY-MM-DD) of the Tuesday of the week shown (weeks start on Sunday in en-US). */
async function tuesdayShown(page: Page) {
  const cols = page.locator('.fc-timegrid-col[data-date]');
  await cols.first().waitFor();
  return (await cols.nth(2).getAttribute('data-date'))!;
}

async function clickSlot(page: Page, date: string, time: string) {
  const col = (await page.locator(`.fc-timegrid-col[data-date="${date}"]`).boundingBox())!;
  const lane = page.locator(`.fc-timegrid-slot-lane[data-time="${time}"]`);
  await lane.scrollIntoViewIfNeeded();
  const row = (await lane.boundingBox())!;
  await page.mouse.click(col.x + col.width / 2, row.y + row.height / 2);
}

describe('calendar', () => {
  it('creates a weekly meeting from the week view, shows it next week, and edits one occurrence alone', async () => {
    const { page } = await signedIn();
    await page.goto(`${server.url}/i/calendar`);
    await page.locator('.fc-timeGridWeek-view').waitFor();
    // The week view opens scrolled to 08:00.
    const scroller = page.locator('.fc-timegrid-body').locator('xpath=ancestor::div[contains(@class,"fc-scroller")][1]');
    await expect.poll(() => scroller.evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
    const top = async (time: string) => (await page.locator(`.fc-timegrid-slot-lane[data-time="${time}"]`).boundingBox())!.y;
    expect(Math.abs((await top('08:00:00')) - (await scroller.boundingBox())!.y)).toBeLessThan(30);
    await page.getByRole('button', { name: 'next week' }).click();
    const tuesday = await tuesdayShown(page);
    await clickSlot(page, tuesday, '09:00:00');
    await page.waitForURL(/\/i\/calendar\/newMeeting\?start=/);

    await page.getByLabel('Title', { exact: true }).fill('Weekly planning');
    await expect.poll(() => page.getByLabel('Starts', { exact: true }).inputValue()).toBe('09:00');
    await page.getByLabel('Ends', { exact: true }).fill('10:00');
    await page.getByLabel('Repeat', { exact: true }).selectOption('personalizarsemana');
    await page.getByRole('checkbox', { name: 'Tue', exact: true }).check({ force: true });
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/i\/calendar\?at=/);

    const events = page.locator('.fc-event');
    await expect.poll(() => page.locator(`.fc-timegrid-col[data-date="${tuesday}"] .fc-event`).textContent()).toContain('Weekly planning');
    await expect.poll(() => page.locator(`.fc-timegrid-col[data-date="${tuesday}"] .fc-event`).textContent()).toContain('9:00');
    await page.getByRole('button', { name: 'next week' }).click();
    const nextTuesday = await tuesdayShown(page);
    expect(nextTuesday).not.toBe(tuesday);
    await expect.poll(() => page.locator(`.fc-timegrid-col[data-date="${nextTuesday}"] .fc-event`).textContent()).toContain('Weekly planning');

    // Edit only this one.
    await page.locator(`.fc-timegrid-col[data-date="${nextTuesday}"] .fc-event`).click();
    await page.getByRole('dialog', { name: 'Weekly planning' }).getByRole('button', { name: 'Edit' }).click();
    await page.getByRole('button', { name: 'This occurrence' }).click();
    await page.waitForURL(/\/i\/calendar\/editMeeting\?id=.*scope=occurrence/);
    await page.getByText('You are changing only this occurrence.').waitFor();
    await expect.poll(() => page.getByLabel('Title', { exact: true }).inputValue()).toBe('Weekly planning');
    await page.getByLabel('Title', { exact: true }).fill('Planning with the customer');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/i\/calendar\?at=/);
    await expect.poll(() => page.locator(`.fc-timegrid-col[data-date="${nextTuesday}"] .fc-event`).allTextContents()).toEqual([expect.stringContaining('Planning with the customer')]);
    await page.getByRole('button', { name: 'previous week' }).click();
    await expect.poll(() => page.locator(`.fc-timegrid-col[data-date="${tuesday}"] .fc-event`).allTextContents()).toEqual([expect.stringContaining('Weekly planning')]);
    await page.getByRole('button', { name: 'next week' }).click();
    await page.getByRole('button', { name: 'next week' }).click();
    await expect.poll(async () => (await events.allTextContents()).join('|')).toContain('Weekly planning');
  });

  it('invites a contact of the company from the editor, mails her and shows her in the event', async () => {
    const { page, companyId } = await signedIn();
    const lia = await server.db.contact.create({ data: { companyId, name: 'Lia Cliente', email: `lia.${companyId}@example.com` } });
    await page.goto(`${server.url}/i/calendar/newMeeting`);
    await page.getByLabel('Title', { exact: true }).fill('Customer call');
    await page.getByLabel('Find a contact').fill('Lia');
    // Chosen, she moves to the list of the invited (click, not check: the found row goes away).
    await page.getByRole('checkbox', { name: `Lia Cliente (${lia.email})` }).click({ force: true });
    await expect.poll(() => page.getByRole('checkbox', { name: 'Lia Cliente', exact: true }).isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/i\/calendar\?at=/);
    const event = await server.db.calendarEvent.findFirstOrThrow({ where: { companyId, title: 'Customer call' }, include: { contacts: true } });
    expect(event.contacts.map((c) => c.contactId)).toEqual([lia.id]);
    await expect.poll(async () => (await server.db.outboxMessage.findFirst({ where: { to: lia.email! } }))?.subject).toContain('Customer call');
    await page.locator('.fc-event', { hasText: 'Customer call' }).first().click();
    await page.getByRole('dialog', { name: 'Customer call' }).getByText('Lia Cliente').waitFor();
  });

  it('hides the calendar from the menu when the plan lacks it, and says why on the page', async () => {
    const { page } = await signedIn({ calendar: 0 });
    await page.goto(`${server.url}/i/calendar`);
    await page.getByText('The calendar is not included in your plan. Ask an administrator to enable it.').waitFor();
    await expect.poll(() => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Recent chats' }).count()).toBe(1);
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Calendar' }).count()).toBe(0);
  });
});
