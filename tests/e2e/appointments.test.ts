/**
 * Appointments in Chromium: an attendant in São Paulo sets her weekly times on /i/schedule/edit; a
 * visitor (no account, another zone) opens the company's page, books the first free time and sees
 * the confirmation; the attendant sees the booking on /i/schedule, opens it, and finds its event in
 * /i/calendar; the list fits a phone's width; she cancels it from the list. An admin sets a queue's
 * own availability ("For a queue"), and a visitor books that queue on the public page: the
 * appointment is the queue's, with no attendant yet; the admin books that queue for a customer from
 * /i/schedule ("Book for a customer"). Real server, database and Chromium.
 */
import AxeBuilder from '@axe-core/playwright';
import fs from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../helpers/browser';
import { createCompany, createUser, signIn } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/server';
import { budget } from '../helpers/time';

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

async function newPage(opts: { cookie?: string; timezoneId: string; width?: number }): Promise<Page> {
  const context = await browser.newContext({ locale: 'en-US', timezoneId: opts.timezoneId, viewport: { width: opts.width ?? 1280, height: 900 } });
  contexts.push(context);
  if (opts.cookie) {
    const [name, value] = opts.cookie.split('=') as [string, string];
    await context.addCookies([{ name, value, url: server.url }]);
  }
  return context.newPage();
}

/** Serious and critical axe-core violations (WCAG 2.1 AA), as in tests/e2e/screens.test.ts. */
async function violations(page: Page) {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(' | ')}`);
}

describe('appointments', () => {
  it('availability, a visitor books from the public page, the attendant sees it in the schedule and the calendar', async () => {
    const user = await createUser(server.db, { name: 'Ana Souza' });
    const company = await createCompany(server.db, user.id);
    await server.db.company.update({ where: { id: company.id }, data: { plan: { ...(company.plan as object), calendar: 1 } } });
    await server.db.user.update({ where: { id: user.id }, data: { defaultCompanyId: company.id } });
    const cookie = await signIn(server.db, user.id);

    // 1. Ana sets Mondays to Fridays 09:00–12:00 in her zone, 30-minute slots.
    const ana = await newPage({ cookie, timezoneId: 'America/Sao_Paulo' });
    await ana.goto(`${server.url}/i/schedule/edit`);
    await ana.getByText('No times yet').waitFor();
    expect(await ana.getByLabel('Time zone').inputValue()).toBe('America/Sao_Paulo');
    for (let day = 1; day <= 5; day++) {
      await ana.getByRole('button', { name: 'Add times' }).click();
      await ana.getByLabel('Day').nth(day - 1).selectOption(String(day));
    }
    expect(await violations(ana), '/i/schedule/edit').toEqual([]);
    await ana.getByRole('button', { name: 'Save' }).click();
    await ana.getByText('Availability saved').waitFor();
    const saved = await server.db.availabilityWindow.findMany({ where: { companyId: company.id }, orderBy: { weekday: 'asc' } });
    expect(saved.map((w) => [w.weekday, w.startMinute, w.endMinute])).toEqual([1, 2, 3, 4, 5].map((d) => [d, 540, 720]));

    // 2. A visitor in Lisbon books the first free time from the public page.
    const visitor = await newPage({ timezoneId: 'Europe/Lisbon' });
    await visitor.goto(`${server.url}/${company.domain}`);
    await visitor.getByRole('link', { name: 'Book an appointment' }).click();
    await visitor.waitForURL(new RegExp(`/${company.domain}/book$`));
    const firstSlot = visitor.locator('.schedule-day-slots button').first();
    await firstSlot.waitFor({ timeout: budget(15_000) });
    await firstSlot.click();
    expect(await violations(visitor), '/{emp}/book').toEqual([]);
    await visitor.getByLabel('Name').fill('Vera Visitante');
    await visitor.getByLabel('E-mail').fill('vera@example.com');
    await visitor.getByRole('button', { name: 'Book', exact: true }).click();
    await visitor.getByText('Your appointment is booked').waitFor();
    const booked = await server.db.appointment.findFirstOrThrow({ where: { companyId: company.id } });
    expect(booked).toMatchObject({ status: 'booked', customerName: 'Vera Visitante', customerEmail: 'vera@example.com', attendantId: user.id });
    // 09:00 São Paulo is 12:00 in Lisbon (winter): the first slot is a 09:00 one, shown in the visitor's zone.
    expect(new Intl.DateTimeFormat('en-GB', { timeZone: 'America/Sao_Paulo', hour: '2-digit', minute: '2-digit' }).format(booked.start)).toMatch(/^(09|1[01]):(00|30)$/);
    const mail = await server.db.outboxMessage.findFirst({ where: { to: 'vera@example.com' } });
    expect(mail?.subject).toBe(`Agendamento confirmado com ${company.name}`); // the company's language (pt)

    // 3. Ana sees it on /i/schedule (live), opens it, and finds the event in the calendar.
    await ana.goto(`${server.url}/i/schedule`);
    const row = ana.locator('.schedule-item', { hasText: 'Vera Visitante' });
    await row.waitFor();
    expect(await violations(ana), '/i/schedule').toEqual([]);
    await row.getByRole('link').click();
    await ana.waitForURL(new RegExp(`/i/recent/schedule/${booked.id}$`));
    await ana.getByText('vera@example.com').waitFor();
    await ana.getByRole('link', { name: 'See in the calendar' }).click();
    await ana.waitForURL(/\/i\/calendar\?at=/);
    await expect.poll(() => ana.locator('.fc-event', { hasText: 'Appointment: Vera Visitante' }).count(), { timeout: budget(10_000) }).toBe(1);

    // 4. On a phone the list fits the width.
    const phone = await newPage({ cookie, timezoneId: 'America/Sao_Paulo', width: 390 });
    await phone.goto(`${server.url}/i/schedule`);
    await phone.locator('.schedule-item', { hasText: 'Vera Visitante' }).waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

    // 5. Ana cancels it from the list: confirmed, gone from Upcoming, under Past and cancelled; the event is gone.
    await ana.goto(`${server.url}/i/schedule`);
    await ana.getByRole('button', { name: 'Cancel the appointment with Vera Visitante' }).click();
    await ana.getByRole('dialog').getByRole('button', { name: 'Cancel appointment' }).click();
    await ana.getByText('No upcoming appointments').waitFor();
    await ana.getByRole('tab', { name: 'Past and cancelled' }).click();
    await ana.locator('.schedule-item', { hasText: 'Vera Visitante' }).getByText('Cancelled').waitFor();
    expect(await server.db.appointment.findUniqueOrThrow({ where: { id: booked.id } })).toMatchObject({ status: 'cancelled', bookedStart: null });
    expect(await server.db.calendarEvent.count({ where: { id: booked.eventId! } })).toBe(0);
  });

  it("an admin sets a queue's availability; a visitor chooses the queue on the public page and books it", async () => {
    const user = await createUser(server.db, { name: 'Rita Admin' });
    const company = await createCompany(server.db, user.id);
    await server.db.company.update({ where: { id: company.id }, data: { plan: { ...(company.plan as object), calendar: 1 } } });
    await server.db.user.update({ where: { id: user.id }, data: { defaultCompanyId: company.id } });
    const queue = await server.db.queue.create({ data: { companyId: company.id, key: 'vendas', name: 'Vendas' } });
    // Rita takes appointments herself too, so the visitor has a person and a queue to choose from.
    await server.db.scheduleSettings.create({ data: { companyId: company.id, attendantId: user.id, timeZone: 'America/Sao_Paulo', windows: { create: [{ weekday: 1, startMinute: 540, endMinute: 600 }] } } });
    const cookie = await signIn(server.db, user.id);

    const rita = await newPage({ cookie, timezoneId: 'America/Sao_Paulo' });
    await rita.goto(`${server.url}/i/schedule/edit`);
    await rita.getByLabel('Availability').selectOption('queue');
    await rita.getByLabel('Queue').waitFor();
    expect(await rita.getByLabel('Queue').inputValue()).toBe(queue.id);
    await rita.getByText('No times yet').waitFor();
    for (let day = 1; day <= 5; day++) {
      await rita.getByRole('button', { name: 'Add times' }).click();
      await rita.getByLabel('Day').nth(day - 1).selectOption(String(day));
    }
    expect(await violations(rita), '/i/schedule/edit (queue)').toEqual([]);
    await rita.getByRole('button', { name: 'Save' }).click();
    await rita.getByText('Availability saved').waitFor();
    const windows = await server.db.queueWindow.findMany({ where: { companyId: company.id, queueId: queue.id } });
    expect(windows).toHaveLength(5);
    expect(await server.db.queueSchedule.findFirstOrThrow({ where: { queueId: queue.id } })).toMatchObject({ setById: user.id, timeZone: 'America/Sao_Paulo' });

    const visitor = await newPage({ timezoneId: 'Europe/Lisbon', width: 390 });
    await visitor.goto(`${server.url}/${company.domain}/book`);
    await visitor.getByLabel('With').selectOption({ label: 'Vendas (queue)' });
    const firstSlot = visitor.locator('.schedule-day-slots button').first();
    await firstSlot.waitFor({ timeout: budget(15_000) });
    await firstSlot.click();
    await visitor.getByLabel('Name').fill('Quim Cliente');
    await visitor.getByLabel('E-mail').fill('quim@example.com');
    await visitor.getByRole('button', { name: 'Book', exact: true }).click();
    await visitor.getByText('Your appointment is booked').waitFor();
    await visitor.getByText('Vendas (queue)').waitFor();
    expect(await visitor.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    const booked = await server.db.appointment.findFirstOrThrow({ where: { companyId: company.id } });
    expect(booked).toMatchObject({ status: 'booked', customerName: 'Quim Cliente', queueId: queue.id, attendantId: null });

    // The admin sees it on /i/schedule, with the queue as "with whom".
    await rita.goto(`${server.url}/i/schedule`);
    await rita.locator('.schedule-item', { hasText: 'Quim Cliente' }).getByRole('link').click();
    await rita.waitForURL(new RegExp(`/i/recent/schedule/${booked.id}$`));
    await rita.getByText('Vendas (queue)').waitFor();

    // Rita books a queue's time for a customer at the counter: "Book for a customer", the queue, a free time.
    await rita.goto(`${server.url}/i/schedule`);
    await rita.getByRole('button', { name: 'Book for a customer' }).click();
    const dialog = rita.getByRole('dialog');
    await dialog.getByLabel('With').selectOption({ label: 'Vendas (queue)' });
    const queueSlot = dialog.locator('.schedule-day-slots button').first();
    await queueSlot.waitFor({ timeout: budget(15_000) });
    await queueSlot.click();
    await dialog.getByLabel('Name').fill('Lia Balcão');
    await dialog.getByLabel('E-mail').fill('lia@example.com');
    expect(await violations(rita), 'book for a customer (queue)').toEqual([]);
    await dialog.getByRole('button', { name: 'Book', exact: true }).click();
    await rita.getByText('Appointment booked; the customer gets an e-mail').waitFor();
    await rita.locator('.schedule-item', { hasText: 'Lia Balcão' }).waitFor();
    const counter = await server.db.appointment.findFirstOrThrow({ where: { companyId: company.id, customerName: 'Lia Balcão' } });
    expect(counter).toMatchObject({ status: 'booked', queueId: queue.id, attendantId: null, customerId: null, customerEmail: 'lia@example.com' });
    expect(counter.start.getTime()).not.toBe(booked.start.getTime());
  });
});
