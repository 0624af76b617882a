/**
 * A meeting's call from the calendar, in Chromium with a fake camera and microphone through the
 * real SFU: Ana's meeting with Bruno has its own conversation; Ana opens it in her calendar and
 * presses Join (device chooser, then the call rings Bruno and Carla); Bruno turns the ring down,
 * opens the same meeting in his calendar later and Join puts him in the call going on. And a
 * meeting starting in 5 minutes: its 8-minute reminder is due at once, the server's reminder tick
 * sends it, Bruno's browser shows it (the in-app notice with Open, and a browser notification as
 * he allowed them), and Open takes him to the meeting's chat, where he starts its call.
 */
import fs from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveWorkerBin } from '../../src/server/media';
import { launchBrowser } from '../helpers/browser';
import { addMember, createCompany, createUser, signIn } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/server';
import { budget } from '../helpers/time';
import { callProcedure } from '../helpers/trpc';

const { bin } = resolveWorkerBin(process.env.MEDIASOUP_WORKER_BIN);
const why = bin ? '' : ' [skipped: no mediasoup worker binary; run `npm run build:worker` or set MEDIASOUP_WORKER_BIN]';

let server: TestServer;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  if (!bin) return;
  if (!fs.existsSync('dist/client/index.html')) throw new Error('dist/client is missing: build the browser app first (npm run build)');
  [server, browser] = await Promise.all([startTestServer({ env: { MEDIASOUP_NUM_WORKERS: '1', MEDIASOUP_WORKER_BIN: bin } }), launchBrowser({ media: true })]);
});
afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => {});
  await browser?.close();
  await server?.close();
});

async function open(cookie: string, permissions = ['camera', 'microphone']): Promise<Page> {
  const context = await browser.newContext({ locale: 'en-US', timezoneId: 'America/Sao_Paulo', viewport: { width: 1280, height: 900 }, permissions });
  contexts.push(context);
  const [name, value] = cookie.split('=') as [string, string];
  await context.addCookies([{ name, value, url: server.url }]);
  const page = await context.newPage();
  page.on('pageerror', (err) => console.error('page error:', err.message));
  return page;
}

/** Opens the meeting's details from the calendar's week view. */
async function meetingDetails(page: Page, at: string) {
  await page.goto(`${server.url}/i/calendar?at=${encodeURIComponent(at)}`);
  const event = page.locator('.fc-event', { hasText: 'Sprint review' });
  await event.first().click();
  const details = page.getByRole('dialog', { name: 'Sprint review' });
  await details.waitFor();
  return details;
}

describe.skipIf(!bin)(`a meeting's call from the calendar${why}`, () => {
  it("starts the meeting's call with Join, and a participant's Join enters the call going on", async () => {
    const anaUser = await createUser(server.db, { name: 'Ana' });
    const brunoUser = await createUser(server.db, { name: 'Bruno' });
    const carlaUser = await createUser(server.db, { name: 'Carla' });
    const company = await createCompany(server.db, anaUser.id);
    await server.db.company.update({ where: { id: company.id }, data: { plan: { ...(company.plan as object), calendar: 1 } } });
    await addMember(server.db, company.id, brunoUser.id);
    await addMember(server.db, company.id, carlaUser.id);
    const [anaCookie, brunoCookie] = [await signIn(server.db, anaUser.id), await signIn(server.db, brunoUser.id)];
    for (const cookie of [anaCookie, brunoCookie]) {
      expect((await callProcedure(server.url, 'company.select', { domain: company.domain }, { cookie, type: 'mutation' })).error).toBeUndefined();
    }
    // Tomorrow at 10:00 São Paulo time, whatever day the test runs.
    const day = new Date(Date.now() + 24 * 3600_000).toLocaleDateString('en-CA', { timeZone: 'America/Sao_Paulo' });
    const start = new Date(`${day}T13:00:00.000Z`).toISOString();
    const created = await callProcedure(
      server.url,
      'calendar.create',
      { domain: company.domain, title: 'Sprint review', start, end: new Date(Date.parse(start) + 3600_000).toISOString(), timeZone: 'America/Sao_Paulo', isMeeting: true, participantIds: [brunoUser.id, carlaUser.id] },
      { cookie: anaCookie, type: 'mutation' },
    );
    expect(created.error).toBeUndefined();

    const [ana, bruno] = [await open(anaCookie), await open(brunoCookie)];
    const anaDetails = await meetingDetails(ana, start);
    await anaDetails.getByRole('button', { name: 'Join' }).click();
    await ana.getByRole('dialog', { name: 'Choose your audio and video options' }).getByRole('button', { name: 'Join now' }).click();
    await ana.getByRole('region', { name: 'Calling' }).getByRole('heading', { name: /Calling/ }).waitFor();

    // The call rings Bruno; he turns the ring down (Carla's still rings, so the call goes on)
    // and joins later from his calendar.
    await bruno.goto(`${server.url}/i/calendar`);
    const ring = bruno.getByRole('dialog', { name: 'Call' });
    await ring.getByText('Ana is calling you').waitFor();
    await ring.getByRole('button', { name: 'Reject' }).click();
    await ring.waitFor({ state: 'detached' });
    const brunoDetails = await meetingDetails(bruno, start);
    await brunoDetails.getByRole('button', { name: 'Join' }).click();
    await bruno.getByRole('dialog', { name: 'Choose your audio and video options' }).getByRole('button', { name: 'Join now' }).click();
    for (const page of [ana, bruno]) {
      await page.getByRole('toolbar', { name: 'Call controls' }).waitFor();
    }
    const calls = await server.db.call.findMany({ where: { conversationId: (created.data as { conversationId: string }).conversationId } });
    expect(calls).toHaveLength(1);
  });

  it("shows a meeting's reminder in the browser, and Open leads to its chat, where its call starts", async () => {
    const anaUser = await createUser(server.db, { name: 'Ana' });
    const brunoUser = await createUser(server.db, { name: 'Bruno' });
    const company = await createCompany(server.db, anaUser.id);
    await server.db.company.update({ where: { id: company.id }, data: { plan: { ...(company.plan as object), calendar: 1 } } });
    await addMember(server.db, company.id, brunoUser.id);
    const [anaCookie, brunoCookie] = [await signIn(server.db, anaUser.id), await signIn(server.db, brunoUser.id)];
    for (const cookie of [anaCookie, brunoCookie]) {
      expect((await callProcedure(server.url, 'company.select', { domain: company.domain }, { cookie, type: 'mutation' })).error).toBeUndefined();
    }
    // Bruno is on his calendar, notifications allowed; every browser notification is noted as it is made.
    const bruno = await open(brunoCookie, ['camera', 'microphone', 'notifications']);
    await bruno.addInitScript(() => {
      const Real = window.Notification;
      const made: { title: string; body?: string }[] = ((window as unknown as { __notes: unknown[] }).__notes = []) as never;
      class Noted extends Real {
        constructor(title: string, options?: NotificationOptions) {
          made.push({ title, body: options?.body });
          super(title, options);
        }
      }
      Object.defineProperty(window, 'Notification', { value: Noted, configurable: true, writable: true });
    });
    await bruno.goto(`${server.url}/i/calendar`);
    await bruno.locator('.fc').waitFor();
    await bruno.waitForFunction(() => Notification.permission === 'granted');

    // Starting in 5 minutes: the 8-minute reminder is due now and the next tick (every 30 s) sends it.
    const start = new Date(Math.ceil((Date.now() + 5 * 60_000) / 1000) * 1000).toISOString();
    const created = await callProcedure(
      server.url,
      'calendar.create',
      { domain: company.domain, title: 'Sprint sync', start, end: new Date(Date.parse(start) + 1800_000).toISOString(), timeZone: 'America/Sao_Paulo', isMeeting: true, participantIds: [brunoUser.id] },
      { cookie: anaCookie, type: 'mutation' },
    );
    expect(created.error).toBeUndefined();
    const { conversationId } = created.data as { conversationId: string };

    const notice = bruno.getByRole('region', { name: 'Notices' }).getByRole('status').filter({ hasText: 'Sprint sync' });
    await notice.waitFor({ timeout: budget(60_000) });
    await expect.poll(() => notice.textContent()).toMatch(/Starts in [45] min/);
    const made = await bruno.evaluate(() => (window as unknown as { __notes: { title: string; body?: string }[] }).__notes);
    expect(made).toContainEqual({ title: 'Sprint sync', body: expect.stringMatching(/^Starts in [45] min/) });

    await notice.getByRole('button', { name: 'Open' }).click();
    await bruno.waitForURL(`**/i/recent/chat/${conversationId}`);
    await bruno.getByRole('button', { name: 'Video call' }).click();
    await bruno.getByRole('dialog', { name: 'Choose your audio and video options' }).getByRole('button', { name: 'Join now' }).click();
    await bruno.getByRole('region', { name: 'Calling' }).getByRole('heading', { name: /Calling/ }).waitFor();
    await expect.poll(() => server.db.call.count({ where: { conversationId } })).toBe(1);
  });
});
