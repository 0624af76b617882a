/**
 * Calls in Chromium with a fake camera and microphone, through the real SFU: Ana calls Bruno from
 * the meeting page, Bruno answers in his tab, each receives the other's media (inbound RTP bytes
 * grow), Ana shares her screen and records for 10 s, an anonymous visitor joins by the link, and
 * after the call the recording plays back from storage with its duration; then Ana calls again from
 * the conversation header and Bruno's tab rings. One story, in order.
 */
import fs from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveWorkerBin } from '../../src/server/media';
import { seriousViolations } from '../helpers/axe';
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

/** Every RTCPeerConnection the page makes, so the test can read its statistics. */
const CAPTURE_PEER_CONNECTIONS = () => {
  const Original = window.RTCPeerConnection;
  const made: RTCPeerConnection[] = [];
  (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs = made;
  window.RTCPeerConnection = class extends Original {
    constructor(config?: RTCConfiguration) {
      super(config);
      made.push(this);
    }
  };
};

/** Bytes received so far per inbound RTP stream of a kind, over all of the page's connections. */
async function inbound(page: Page, kind: 'audio' | 'video'): Promise<number[]> {
  return page.evaluate(async (k) => {
    const out: number[] = [];
    for (const pc of (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs) {
      if (pc.connectionState === 'closed') continue;
      const stats = await pc.getStats();
      stats.forEach((s) => {
        if (s.type === 'inbound-rtp' && s.kind === k) out.push(s.bytesReceived ?? 0);
      });
    }
    return out;
  }, kind);
}
const total = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

beforeAll(async () => {
  if (!bin) return;
  if (!fs.existsSync('dist/client/index.html')) throw new Error('dist/client is missing: build the browser app first (node scripts/setup.mjs --client)');
  [server, browser] = await Promise.all([
    // The default configuration (RTC_LISTEN_IP 0.0.0.0, no RTC_ANNOUNCED_IP): calls must work as shipped.
    startTestServer({ env: { MEDIASOUP_NUM_WORKERS: '1', MEDIASOUP_WORKER_BIN: bin } }),
    launchBrowser({ media: true }),
  ]);
});
afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => {});
  await browser?.close();
  await server?.close();
});

async function open(cookie: string | null, at: TestServer = server): Promise<Page> {
  const context = await browser.newContext({ locale: 'en-US', permissions: ['camera', 'microphone'] });
  contexts.push(context);
  if (cookie) {
    const [name, value] = cookie.split('=') as [string, string];
    await context.addCookies([{ name, value, url: at.url }]);
  }
  await context.addInitScript(CAPTURE_PEER_CONNECTIONS);
  const page = await context.newPage();
  page.on('pageerror', (err) => console.error('page error:', err.message));
  return page;
}

describe.skipIf(!bin)(`calls in the browser${why}`, () => {
  let ana: Page;
  let bruno: Page;
  let conversationId: string;

  it('holds a video call through the SFU: ring, answer, and media both ways', async () => {
    const anaUser = await createUser(server.db, { name: 'Ana' });
    const brunoUser = await createUser(server.db, { name: 'Bruno' });
    const company = await createCompany(server.db, anaUser.id);
    await addMember(server.db, company.id, brunoUser.id);
    const [anaCookie, brunoCookie] = [await signIn(server.db, anaUser.id), await signIn(server.db, brunoUser.id)];
    for (const cookie of [anaCookie, brunoCookie]) {
      expect((await callProcedure(server.url, 'company.select', { domain: company.domain }, { cookie, type: 'mutation' })).error).toBeUndefined();
    }
    const started = await callProcedure(server.url, 'chat.startDirect', { domain: company.domain, userId: brunoUser.id }, { cookie: anaCookie, type: 'mutation' });
    conversationId = (started.data as { conversationId: string }).conversationId;

    [ana, bruno] = [await open(anaCookie), await open(brunoCookie)];
    await bruno.goto(`${server.url}/i/recent`);
    await bruno.getByRole('link', { name: 'Recent chats' }).waitFor();
    await ana.goto(`${server.url}/i/recent/meeting/${conversationId}`);
    await ana.getByRole('button', { name: 'Video call' }).click();

    const anaChooser = ana.getByRole('dialog', { name: 'Choose your audio and video options' });
    await anaChooser.getByLabel('Camera preview').waitFor();
    await anaChooser.getByRole('button', { name: 'Join now' }).click();
    // While it rings, Ana sees whom she is calling over her own camera, not an empty call screen.
    const calling = ana.getByRole('region', { name: 'Calling' });
    await calling.getByRole('heading', { name: 'Calling Bruno…' }).waitFor();
    await expect.poll(() => calling.getByLabel('Your camera').evaluate((v: HTMLVideoElement) => v.videoWidth)).toBeGreaterThan(0);

    // Bruno's last choice of microphone is remembered; Accept joins with it in one step (no device chooser).
    const microphone = await bruno.evaluate(async () => {
      (await navigator.mediaDevices.getUserMedia({ audio: true })).getTracks().forEach((t) => t.stop());
      const inputs = (await navigator.mediaDevices.enumerateDevices()).filter((d) => d.kind === 'audioinput' && d.deviceId !== 'default' && d.deviceId !== 'communications');
      const label = inputs[inputs.length - 1]!.label;
      localStorage.setItem('atende.calls.microphone', label);
      const w = window as unknown as { __chooserShown: boolean };
      w.__chooserShown = false;
      new MutationObserver(() => {
        if ([...document.querySelectorAll('[role=dialog]')].some((d) => d.textContent?.includes('Choose your audio and video options'))) w.__chooserShown = true;
      }).observe(document.body, { childList: true, subtree: true });
      return label;
    });
    expect(microphone).not.toBe('');
    const ring = bruno.getByRole('dialog', { name: 'Call' });
    await ring.getByText('Ana is calling you').waitFor();
    await ring.getByRole('button', { name: 'Accept' }).click();

    await calling.waitFor({ state: 'detached' });
    for (const page of [ana, bruno]) {
      await page.getByRole('toolbar', { name: 'Call controls' }).waitFor();
      await expect.poll(() => page.getByRole('timer', { name: 'Call duration' }).innerText()).toMatch(/^\d\d:\d\d$/);
    }
    // Each receives the other's camera and microphone, and keeps receiving.
    for (const page of [ana, bruno]) {
      await expect.poll(async () => total(await inbound(page, 'video')), { timeout: 20_000 }).toBeGreaterThan(0);
      await expect.poll(async () => total(await inbound(page, 'audio')), { timeout: 20_000 }).toBeGreaterThan(0);
      const before = total(await inbound(page, 'video'));
      await expect.poll(async () => total(await inbound(page, 'video')), { timeout: 20_000 }).toBeGreaterThan(before);
    }
    await ana.getByRole('listitem', { name: 'Bruno' }).locator('video').waitFor();
    await bruno.getByRole('listitem', { name: 'Ana' }).locator('video').waitFor();
    await expect.poll(() => bruno.getByRole('listitem', { name: 'Ana' }).locator('video').evaluate((v: HTMLVideoElement) => v.videoWidth)).toBeGreaterThan(0);
    // Connected: no "Connecting…" left over the tiles.
    await ana.getByText('Connecting…').waitFor({ state: 'detached' });
    expect(await bruno.evaluate(() => (window as unknown as { __chooserShown: boolean }).__chooserShown)).toBe(false);
    const sentAudio = () =>
      bruno.evaluate(() =>
        (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs
          .filter((pc) => pc.connectionState !== 'closed')
          .flatMap((pc) => pc.getSenders().map((s) => s.track))
          .filter((t) => t?.kind === 'audio' && t.readyState === 'live')
          .map((t) => t!.label),
      );
    expect(await sentAudio()).toEqual([microphone]);

    // The call screen is readable and labelled for everyone.
    expect(await seriousViolations(ana, { exclude: '[data-live-announcer]' })).toEqual([]);
  });

  it('keeps the call controls on one row of labelled icon buttons, at desktop and at 390 px', async () => {
    for (const [page, width, height] of [[ana, 1280, 720], [bruno, 390, 844]] as const) {
      await page.setViewportSize({ width, height });
      const bar = page.getByRole('toolbar', { name: 'Call controls' });
      const buttons = bar.getByRole('button');
      await expect.poll(async () => new Set(await buttons.evaluateAll((bs) => bs.map((b) => Math.round(b.getBoundingClientRect().top)))).size).toBe(1);
      const [barBox, buttonBox] = [(await bar.boundingBox())!, (await buttons.first().boundingBox())!];
      expect(barBox.height).toBeLessThan(buttonBox.height * 2);
      expect(await bar.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
      // Icons only, each with its name (and tooltip) for people who cannot see it.
      const names = await buttons.evaluateAll((bs) => bs.map((b) => ({ label: b.getAttribute('aria-label') ?? '', text: (b.textContent ?? '').trim() })));
      for (const { label, text } of names) {
        expect(label).not.toBe('');
        expect(text).toBe('');
      }
      await bar.getByRole('button', { name: 'Audio and video settings' }).waitFor();
    }
    await bruno.setViewportSize({ width: 1280, height: 720 });
  });

  it('changes the devices from the call bar, and the media keeps flowing', async () => {
    await bruno.getByRole('toolbar', { name: 'Call controls' }).getByRole('button', { name: 'Audio and video settings' }).click();
    const settings = bruno.getByRole('dialog', { name: 'Audio and video settings' });
    await settings.getByLabel('Camera preview').waitFor();
    await settings.getByRole('button', { name: 'Apply' }).click();
    await settings.waitFor({ state: 'detached' });
    const before = total(await inbound(ana, 'video'));
    await expect.poll(async () => total(await inbound(ana, 'video')), { timeout: 20_000 }).toBeGreaterThan(before);
  });

  it('shares a screen that the other side receives', async () => {
    const flowing = async () => (await inbound(bruno, 'video')).filter((b) => b > 0).length;
    const before = await flowing();
    const controls = ana.getByRole('toolbar', { name: 'Call controls' });
    await controls.getByRole('button', { name: 'Share screen' }).click();
    const screen = bruno.getByRole('region', { name: 'Shared screen' }).getByLabel('Screen of Ana');
    await screen.waitFor();
    // One more inbound video stream flows at Bruno, and it decodes into 720p frames.
    await expect.poll(flowing, { timeout: 20_000 }).toBeGreaterThan(before);
    await expect.poll(() => screen.evaluate((v: HTMLVideoElement) => v.videoHeight), { timeout: 20_000 }).toBeGreaterThan(0);
    await controls.getByRole('button', { name: 'Stop sharing' }).waitFor();
  });

  it('records for 10 s: the badge shows on both sides, and stopping posts the recording', async () => {
    await ana.getByRole('toolbar', { name: 'Call controls' }).getByRole('button', { name: 'Record' }).click();
    await ana.getByRole('status').filter({ hasText: /^Recording$/ }).first().waitFor();
    await bruno.getByRole('status').filter({ hasText: /^Recording$/ }).first().waitFor();
    await new Promise((r) => setTimeout(r, 10_000));
    await ana.getByRole('toolbar', { name: 'Call controls' }).getByRole('button', { name: 'Stop recording' }).click();
    await expect.poll(() => ana.getByText('Recording', { exact: true }).count(), { timeout: 30_000 }).toBe(0);
    await expect.poll(() => server.db.callRecording.count(), { timeout: 30_000 }).toBe(1);
    const message = await server.db.message.findFirstOrThrow({ where: { conversationId, isRecording: true } });
    expect(message.durationMs).toBeGreaterThan(5_000);
    expect(message.fileMime).toBe('video/webm');
  });

  it('lets an anonymous visitor join by the link after giving a name', async () => {
    await ana.getByRole('toolbar', { name: 'Call controls' }).getByRole('button', { name: 'People' }).click();
    const link = await ana.getByLabel('Call link').inputValue();
    expect(link).toMatch(/\/call\/[0-9a-f-]{36}\/[A-Za-z0-9_-]{32}$/);

    const visitor = await open(null);
    await visitor.goto(link);
    await visitor.getByLabel('To start, tell us your name:').fill('Visitante');
    await visitor.getByRole('button', { name: 'Continue' }).click();
    const chooser = visitor.getByRole('dialog', { name: 'Choose your audio and video options' });
    await chooser.getByRole('button', { name: 'Join now' }).click();
    await visitor.getByRole('toolbar', { name: 'Call controls' }).waitFor();
    await ana.getByRole('list', { name: 'People' }).getByText('Visitante', { exact: true }).waitFor();
    await expect.poll(async () => total(await inbound(visitor, 'video')), { timeout: 20_000 }).toBeGreaterThan(0);
    const user = await server.db.user.findFirstOrThrow({ where: { name: 'Visitante' } });
    expect(user.anonymous).toBe(true);
  });

  it('ends for everyone, and the recording plays back from storage', async () => {
    await ana.getByRole('toolbar', { name: 'Call controls' }).getByRole('button', { name: 'End for everyone' }).click();
    // It asks first; Cancel keeps the call going.
    const confirm = ana.getByRole('dialog', { name: 'End the call for everyone?' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    await bruno.getByRole('toolbar', { name: 'Call controls' }).waitFor();
    await ana.getByRole('toolbar', { name: 'Call controls' }).getByRole('button', { name: 'End for everyone' }).click();
    await confirm.getByRole('button', { name: 'End for everyone' }).click();
    await bruno.getByRole('alertdialog').getByText('The owner ended the call.').waitFor();
    await ana.getByRole('toolbar', { name: 'Call controls' }).waitFor({ state: 'detached' });

    const recording = ana.getByRole('list', { name: 'Recordings' }).locator('video');
    await recording.waitFor();
    const { duration, height } = await recording.evaluate(
      (video: HTMLVideoElement) =>
        new Promise<{ duration: number; height: number }>((resolve, reject) => {
          const done = () => resolve({ duration: video.duration, height: video.videoHeight });
          if (video.readyState >= 1) return done();
          video.addEventListener('loadedmetadata', done, { once: true });
          video.addEventListener('error', () => reject(new Error(`cannot play: ${video.error?.message}`)), { once: true });
          video.load();
        }),
    );
    expect(duration).toBeGreaterThan(5);
    expect(Number.isFinite(duration)).toBe(true);
    // The shared screen was recorded: the file has a picture, at the screen's size.
    expect(height).toBe(720);
  });

  it('starts a call from the conversation header, where the recording also plays inline', async () => {
    await ana.goto(`${server.url}/i/recent/chat/${conversationId}`);
    // The recording of the call above is a message of the conversation, playable where it is.
    const log = ana.getByRole('log', { name: 'Messages' });
    await log.locator('video').waitFor();
    // It says it is a call recording (not a voice message), with its duration on one line.
    const head = log.locator('.call-recording-head');
    await expect.poll(() => head.innerText()).toMatch(/^Call recording\s*\d+:\d\d$/);
    const length = await head.locator('.voice-length').evaluate((el) => ({ height: el.getBoundingClientRect().height, font: parseFloat(getComputedStyle(el).fontSize) }));
    expect(length.height).toBeLessThan(length.font * 2);
    expect(await log.getByText('Voice message').count()).toBe(0);
    await ana.locator('.conversation-head').getByRole('button', { name: 'Voice call' }).click();
    await ana.getByRole('dialog', { name: 'Choose your audio and video options' }).getByRole('button', { name: 'Join now' }).click();
    await ana.getByRole('region', { name: 'Calling' }).getByRole('heading', { name: 'Calling Bruno…' }).waitFor();
    // 'Chamada' rings in Bruno's tab.
    await bruno.getByRole('dialog', { name: 'Call' }).getByText('Ana is calling you').waitFor();
    await ana.getByRole('region', { name: 'Calling' }).getByRole('button', { name: 'Cancel' }).click();
    await bruno.getByRole('dialog', { name: 'Call' }).waitFor({ state: 'detached' });
  });
});

describe.skipIf(!bin)(`a live room made from the recent list${why}`, () => {
  it('is created with a title from "New live", its presenter starts it, and a visitor watches by its public link', async () => {
    const lia = await createUser(server.db, { name: 'Lia Apresentadora' });
    const company = await createCompany(server.db, lia.id);
    const cookie = await signIn(server.db, lia.id);
    expect((await callProcedure(server.url, 'company.select', { domain: company.domain }, { cookie, type: 'mutation' })).error).toBeUndefined();

    const presenter = await open(cookie);
    await presenter.goto(`${server.url}/i/recent`);
    await presenter.getByRole('link', { name: 'New live' }).click();
    await presenter.getByLabel('Title').fill('Lançamento');
    await presenter.getByRole('button', { name: 'Create live room' }).click();
    await presenter.waitForURL(/\/i\/recent\/live\/[0-9a-f-]{36}$/);
    const conversationId = presenter.url().split('/').pop()!;
    expect(await server.db.conversation.findUniqueOrThrow({ where: { id: conversationId } })).toMatchObject({ type: 4, title: 'Lançamento', creatorId: lia.id });
    const link = await presenter.getByLabel('Public link for viewers').inputValue();
    expect(link).toBe(`${server.url}/${company.domain}/live/${conversationId}`);

    await presenter.getByRole('button', { name: 'Start the live session' }).click();
    const chooser = presenter.getByRole('dialog', { name: 'Choose your audio and video options' });
    await chooser.getByLabel('Camera preview').waitFor();
    await chooser.getByRole('button', { name: 'Join now' }).click();
    await presenter.getByRole('toolbar', { name: 'Call controls' }).waitFor();

    const visitor = await open(null);
    await visitor.goto(link);
    await visitor.getByLabel('To start, tell us your name:').fill('Espectador');
    await visitor.getByRole('button', { name: 'Continue' }).click();
    await expect.poll(async () => total(await inbound(visitor, 'video')), { timeout: 20_000 }).toBeGreaterThan(0);
    await presenter.getByText('1 watching').waitFor();
  });
});

describe.skipIf(!bin)(`media that cannot connect${why}`, () => {
  let unreachable: TestServer;
  beforeAll(async () => {
    // 192.0.2.1 is TEST-NET-1: nothing answers there, as with a wrong RTC_ANNOUNCED_IP or a closed firewall.
    if (bin) unreachable = await startTestServer({ env: { MEDIASOUP_NUM_WORKERS: '1', MEDIASOUP_WORKER_BIN: bin, RTC_ANNOUNCED_IP: '192.0.2.1' } });
  });
  afterAll(async () => {
    await unreachable?.close();
  });

  it('says "Connecting…" while ICE tries, then that audio and video could not connect and what to check', async () => {
    const lia = await createUser(unreachable.db, { name: 'Lia' });
    const company = await createCompany(unreachable.db, lia.id);
    const cookie = await signIn(unreachable.db, lia.id);
    expect((await callProcedure(unreachable.url, 'company.select', { domain: company.domain }, { cookie, type: 'mutation' })).error).toBeUndefined();
    const presenter = await open(cookie, unreachable);
    await presenter.goto(`${unreachable.url}/i/recent`);
    await presenter.getByRole('link', { name: 'New live' }).click();
    await presenter.getByLabel('Title').fill('Sem rede');
    await presenter.getByRole('button', { name: 'Create live room' }).click();
    await presenter.getByRole('button', { name: 'Start the live session' }).click();
    const chooser = presenter.getByRole('dialog', { name: 'Choose your audio and video options' });
    await chooser.getByLabel('Camera preview').waitFor();
    await chooser.getByRole('button', { name: 'Join now' }).click();
    await presenter.getByRole('status').filter({ hasText: 'Connecting…' }).waitFor();
    // Chromium gives up on ICE after about 30 s without an answer.
    await presenter.getByRole('alert').filter({ hasText: 'Audio and video could not connect.' }).waitFor({ timeout: budget(90_000) });
    await presenter.getByText('RTC_ANNOUNCED_IP', { exact: false }).waitFor();
  }, budget(150_000));
});
