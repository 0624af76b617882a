/**
 * Subtitles in Chromium through the real SFU: Ana turns the call's subtitles on from the CC
 * drawer, Bruno (in a browser without speech recognition, and told so) turns on
 * showing them; Ana's page has a stand-in webkitSpeechRecognition whose final result the test
 * fires, so the line goes the browser's own way (call:transcript -> server -> call:subtitle) and
 * shows over Bruno's video with Ana's name, then clears; turning subtitles off tells Bruno
 * 'Transcription turned off'.
 */
import fs from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveWorkerBin } from '../../src/server/media';
import { SUBTITLE_CLEAR_MS } from '../../src/shared/constants';
import { launchBrowser } from '../helpers/browser';
import { addMember, createCompany, createUser, signIn } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/server';
import { callProcedure } from '../helpers/trpc';

const { bin } = resolveWorkerBin(process.env.MEDIASOUP_WORKER_BIN);
const why = bin ? '' : ' [skipped: no mediasoup worker binary; run `npm run build:worker` or set MEDIASOUP_WORKER_BIN]';

let server: TestServer;
let browser: Browser;
const contexts: BrowserContext[] = [];

/** A webkitSpeechRecognition the test drives: window.__say(text) fires a final result on the running one. */
const FAKE_SPEECH_RECOGNITION = () => {
  const running: { onresult: ((e: unknown) => void) | null; lang: string }[] = [];
  class FakeRecognition {
    lang = '';
    continuous = false;
    interimResults = false;
    onresult: ((e: unknown) => void) | null = null;
    onend: (() => void) | null = null;
    onerror: ((e: unknown) => void) | null = null;
    start() {
      running.push(this);
    }
    stop() {
      running.splice(running.indexOf(this), 1);
    }
  }
  const w = window as unknown as Record<string, unknown>;
  w.webkitSpeechRecognition = FakeRecognition;
  w.SpeechRecognition = FakeRecognition;
  w.__listening = () => running.map((r) => r.lang);
  w.__say = (text: string) => {
    const r = running[running.length - 1]!;
    const result = Object.assign([{ transcript: text }], { isFinal: true });
    r.onresult?.({ resultIndex: 0, results: [result] });
  };
};

/** A browser without the Web Speech API (Firefox): Chromium, even headless, defines the constructor. */
const NO_SPEECH_RECOGNITION = () => {
  const w = window as unknown as Record<string, unknown>;
  delete w.webkitSpeechRecognition;
  delete w.SpeechRecognition;
};

beforeAll(async () => {
  if (!bin) return;
  if (!fs.existsSync('dist/client/index.html')) throw new Error('dist/client is missing: build the browser app first (node scripts/setup.mjs --client)');
  [server, browser] = await Promise.all([
    startTestServer({ env: { MEDIASOUP_NUM_WORKERS: '1', MEDIASOUP_WORKER_BIN: bin, RTC_LISTEN_IP: '127.0.0.1' } }),
    launchBrowser({ media: true }),
  ]);
});
afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => {});
  await browser?.close();
  await server?.close();
});

async function open(cookie: string, opts: { speech?: boolean } = {}): Promise<Page> {
  const context = await browser.newContext({ locale: 'en-US', permissions: ['camera', 'microphone'] });
  contexts.push(context);
  const [name, value] = cookie.split('=') as [string, string];
  await context.addCookies([{ name, value, url: server.url }]);
  await context.addInitScript(opts.speech ? FAKE_SPEECH_RECOGNITION : NO_SPEECH_RECOGNITION);
  const page = await context.newPage();
  page.on('pageerror', (err) => console.error('page error:', err.message));
  return page;
}

describe.skipIf(!bin)(`call subtitles in the browser${why}`, () => {
  it('CC drawer, a spoken line shown over the video with the speaker name and cleared, and the off notice', async () => {
    const anaUser = await createUser(server.db, { name: 'Ana' });
    const brunoUser = await createUser(server.db, { name: 'Bruno' });
    const company = await createCompany(server.db, anaUser.id);
    await addMember(server.db, company.id, brunoUser.id);
    const [anaCookie, brunoCookie] = [await signIn(server.db, anaUser.id), await signIn(server.db, brunoUser.id)];
    for (const cookie of [anaCookie, brunoCookie]) {
      expect((await callProcedure(server.url, 'company.select', { domain: company.domain }, { cookie, type: 'mutation' })).error).toBeUndefined();
    }
    const started = await callProcedure(server.url, 'chat.startDirect', { domain: company.domain, userId: brunoUser.id }, { cookie: anaCookie, type: 'mutation' });
    const conversationId = (started.data as { conversationId: string }).conversationId;

    const [ana, bruno] = [await open(anaCookie, { speech: true }), await open(brunoCookie)];
    await bruno.goto(`${server.url}/i/recent`);
    await bruno.getByRole('link', { name: 'Recent chats' }).waitFor();
    await ana.goto(`${server.url}/i/recent/meeting/${conversationId}`);
    await ana.getByRole('button', { name: 'Video call' }).click();
    const anaChooser = ana.getByRole('dialog', { name: 'Choose your audio and video options' });
    await anaChooser.getByLabel('Camera preview').waitFor();
    await anaChooser.getByRole('button', { name: 'Join now' }).click();
    const ring = bruno.getByRole('dialog', { name: 'Call' });
    await ring.getByText('Ana is calling you').waitFor();
    // Accept is the one step: Bruno joins with his last devices, no chooser.
    await ring.getByRole('button', { name: 'Accept' }).click();
    for (const page of [ana, bruno]) await page.getByRole('toolbar', { name: 'Call controls' }).waitFor();

    // Bruno's Chromium has no speech recognition: the CC button and the drawer say so.
    const brunoCC = bruno.getByRole('toolbar', { name: 'Call controls' }).getByRole('button', { name: 'Subtitles (CC)' });
    const hint = await brunoCC.getAttribute('aria-describedby');
    expect(await bruno.locator(`[id="${hint}"]`).textContent()).toBe('Subtitles of your own speech need a browser with speech recognition');
    await brunoCC.click();
    const brunoDrawer = bruno.getByRole('complementary', { name: 'Subtitles' });
    await brunoDrawer.getByText('You still see the subtitles of the others.', { exact: false }).waitFor();
    await brunoDrawer.getByText('Subtitles are off in this call').waitFor();
    // Only the owner (or an admin) has the call's switch.
    expect(await brunoDrawer.getByLabel('Subtitles in this call').count()).toBe(0);

    await ana.getByRole('toolbar', { name: 'Call controls' }).getByRole('button', { name: 'Subtitles (CC)' }).click();
    const anaDrawer = ana.getByRole('complementary', { name: 'Subtitles' });
    expect(await anaDrawer.getByRole('note').count()).toBe(0);
    // The boxes show the server's state: a click asks, the pushed call state ticks it.
    await anaDrawer.getByLabel('Subtitles in this call').click();
    await expect.poll(() => anaDrawer.getByLabel('Subtitles in this call').isChecked()).toBe(true);
    await brunoDrawer.getByText('Subtitles are off in this call').waitFor({ state: 'detached' });
    await brunoDrawer.getByLabel('Show subtitles').click();
    await expect.poll(() => brunoDrawer.getByLabel('Show subtitles').isChecked()).toBe(true);
    await expect.poll(() => server.db.callParticipant.count({ where: { userId: brunoUser.id, subtitlesOn: true } })).toBe(1);

    // Ana's recogniser runs (subtitles on, microphone on) in her interface language; a final result is a line.
    await expect.poll(() => ana.evaluate(() => (window as unknown as { __listening: () => string[] }).__listening())).toEqual(['en-US']);
    await ana.evaluate(() => (window as unknown as { __say: (t: string) => void }).__say('Good morning Bruno'));
    const line = bruno.getByRole('status', { name: 'Subtitles' });
    await expect.poll(() => line.innerText()).toBe('Ana: Good morning Bruno');
    expect(await server.db.callTranscriptLine.count({ where: { userId: anaUser.id, text: 'Good morning Bruno', lang: 'en' } })).toBe(1);
    // Ana did not ask for subtitles: nothing shows on her side.
    expect(await ana.getByRole('status', { name: 'Subtitles' }).count()).toBe(0);
    await line.waitFor({ state: 'detached', timeout: SUBTITLE_CLEAR_MS + 10_000 });

    await anaDrawer.getByLabel('Subtitles in this call').click();
    await expect.poll(() => line.innerText()).toBe('Transcription turned off');
    await expect.poll(() => ana.evaluate(() => (window as unknown as { __listening: () => string[] }).__listening())).toEqual([]);
  });
});
