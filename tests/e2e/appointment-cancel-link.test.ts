/**
 * The customer's cancel link in Chromium, on a phone's width and without an account: the page shows
 * the appointment in the attendant's zone, moves it to another free time (the grid in the phone's
 * zone), asks before cancelling, then says it is cancelled (and
 * the slot is free again); a forged link says it is not valid. Real server, database and Chromium.
 */
import AxeBuilder from '@axe-core/playwright';
import fs from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cancelToken } from '../../src/server/modules/appointments/service';
import { launchBrowser } from '../helpers/browser';
import { createCompany, createUser, signIn } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/server';
import { callProcedure } from '../helpers/trpc';

let server: TestServer;
let browser: Browser;
const contexts: BrowserContext[] = [];
// The tests' server signs with this secret (tests/helpers/server.ts).
const SECRET = 'test-secret-not-for-production';

beforeAll(async () => {
  if (!fs.existsSync('dist/client/index.html')) throw new Error('dist/client is missing: build the browser app first (npm run build)');
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
});
afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => {});
  await browser?.close();
  await server?.close();
});

async function phone(): Promise<Page> {
  const context = await browser.newContext({ locale: 'en-US', timezoneId: 'Europe/Lisbon', viewport: { width: 390, height: 844 } });
  contexts.push(context);
  return context.newPage();
}

describe("the customer's cancel link", () => {
  it('shows the appointment, cancels it after asking, and refuses a forged link', async () => {
    const user = await createUser(server.db, { name: 'Ana Souza' });
    const company = await createCompany(server.db, user.id);
    await server.db.company.update({ where: { id: company.id }, data: { plan: { ...(company.plan as object), calendar: 1 } } });
    const cookie = await signIn(server.db, user.id);
    const as = async (path: string, input: Record<string, unknown>, type: 'query' | 'mutation' = 'mutation') => {
      const r = await callProcedure(server.url, path, { domain: company.domain, ...input }, { cookie, type });
      expect(r.error).toBeUndefined();
      return r.data as Record<string, unknown>;
    };
    const windows = [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, startMinute: 540, endMinute: 720 }));
    await as('appointments.saveSchedule', { timeZone: 'America/Sao_Paulo', slotMinutes: 30, bufferMinutes: 0, windows });
    const from = new Date(Date.now() + 2 * 86_400_000);
    const { slots } = (await as('appointments.slots', { attendantId: user.id, from: from.toISOString(), to: new Date(from.getTime() + 3 * 86_400_000).toISOString() }, 'query')) as { slots: { start: string }[] };
    const booked = await as('appointments.book', { attendantId: user.id, start: slots[0]!.start, name: 'Carla Cliente', email: 'carla@example.com' });
    const id = booked.id as string;

    const page = await phone();
    await page.goto(`${server.url}/${company.domain}/book/cancel/${id}?t=${cancelToken(SECRET, id)}`);
    await page.getByRole('heading', { name: 'Your appointment' }).waitFor();
    await page.getByText('Ana Souza').waitFor();
    await page.getByText('(America/Sao_Paulo)').waitFor();
    const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
    // Nothing wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    // Another time: the dialog lists the free times; the booking and its event move there.
    await page.getByRole('button', { name: 'Choose another time' }).click();
    const move = page.getByRole('dialog', { name: 'Choose another time' });
    const slot = move.locator('.schedule-day-slots button').first();
    await slot.waitFor();
    await slot.click();
    await move.getByRole('button', { name: 'Move here' }).click();
    await move.waitFor({ state: 'detached' });
    await page.getByText('Appointment moved; we sent you an e-mail').waitFor();
    await expect.poll(async () => (await server.db.appointment.findUniqueOrThrow({ where: { id } })).start.toISOString()).not.toBe(slots[0]!.start);
    const moved = await server.db.appointment.findUniqueOrThrow({ where: { id } });
    expect((await server.db.calendarEvent.findUniqueOrThrow({ where: { id: moved.eventId! } })).start.toISOString()).toBe(moved.start.toISOString());

    await page.getByRole('button', { name: 'Cancel the appointment' }).click();
    const ask = page.getByRole('dialog', { name: 'Cancel this appointment?' });
    await ask.getByRole('button', { name: 'Cancel the appointment' }).click();
    await page.getByText('This appointment is cancelled').waitFor();
    await expect.poll(async () => (await server.db.appointment.findUniqueOrThrow({ where: { id } })).status).toBe('cancelled');
    await page.getByRole('link', { name: 'Book an appointment' }).waitFor();

    await page.goto(`${server.url}/${company.domain}/book/cancel/${id}?t=${'x'.repeat(32)}`);
    await page.getByRole('alert').getByText('This link is not valid').waitFor();
  });
});
