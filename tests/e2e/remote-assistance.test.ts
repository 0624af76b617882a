/**
 * Remote assistance in Chromium with fake media, through the real SFU: the attendant starts it from
 * the customer's conversation, the customer answers and shares their screen, the attendant sees
 * it large and draws on it, and the stroke appears over the customer's own preview of their
 * screen (sent over the call's SCTP data channel); clearing wipes it on both sides.
 */
import fs from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveWorkerBin } from '../../src/server/media';
import { launchBrowser } from '../helpers/browser';
import { customer, serviceCompany, type ClientSocket, type Person } from '../helpers/service';
import { startTestServer, type TestServer } from '../helpers/server';

const { bin } = resolveWorkerBin(process.env.MEDIASOUP_WORKER_BIN);
const why = bin ? '' : ' [skipped: no mediasoup worker binary; run `npm run build:worker` or set MEDIASOUP_WORKER_BIN]';

let server: TestServer;
let browser: Browser;
const contexts: BrowserContext[] = [];
const sockets: ClientSocket[] = [];

beforeAll(async () => {
  if (!bin) return;
  if (!fs.existsSync('dist/client/index.html')) throw new Error('dist/client is missing: build the browser app first (npm run build)');
  [server, browser] = await Promise.all([
    startTestServer({ env: { MEDIASOUP_NUM_WORKERS: '1', MEDIASOUP_WORKER_BIN: bin } }),
    launchBrowser({ media: true, args: ['--auto-select-desktop-capture-source=Entire screen'] }),
  ]);
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  for (const c of contexts) await c.close().catch(() => {});
  await browser?.close();
  await server?.close();
});

async function open(person: Person): Promise<Page> {
  const context = await browser.newContext({ locale: 'en-US', permissions: ['camera', 'microphone'] });
  contexts.push(context);
  const [name, value] = person.cookie.split('=') as [string, string];
  await context.addCookies([{ name, value, url: server.url }]);
  const page = await context.newPage();
  page.on('pageerror', (err) => console.error('page error:', err.message));
  return page;
}

/** axe-core's serious and critical violations (WCAG 2.1 A/AA), as in tests/e2e/screens.test.ts. */
async function violations(page: Page) {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).exclude('[data-live-announcer]').analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 4).join(' | ')}`);
}

/** Pixels of the annotation colour drawn on a canvas. */
const painted = (canvas: Locator) =>
  canvas.evaluate((c: HTMLCanvasElement) => {
    const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i + 3]! > 0 && data[i]! > 200 && data[i + 1]! < 120) n++;
    return n;
  });

describe.skipIf(!bin)(`remote assistance in the browser${why}`, () => {
  it("the attendant's drawing appears over the customer's own view of their shared screen", async () => {
    const c = await serviceCompany(server, sockets, { plan: { anotation: 1 } });
    const bia = await c.attendant('Bia Atendente', { groupIds: [c.group('member')] });
    await server.db.user.update({ where: { id: bia.userId }, data: { defaultCompanyId: c.company.id } });
    const carlos = await customer(server, sockets, 'Carlos Cliente');
    const req = await carlos.call('customer.request', { domain: c.domain, queueKey: 'faleconosco', name: 'Carlos Cliente', text: 'Minha impressora sumiu' });
    const conversationId = req.conversationId as string;
    await bia.call('service.take', { domain: c.domain, conversationId });

    const [biaPage, carlosPage] = [await open(bia), await open(carlos)];
    await carlosPage.goto(`${server.url}/i/recent/chat/${conversationId}`);
    // The app's shell is where calls ring (the customer's own conversation list).
    await carlosPage.getByRole('link', { name: 'Recent chats' }).waitFor();
    await biaPage.goto(`${server.url}/i/recent/chat/${conversationId}`);
    await biaPage.locator('.conversation-head').getByRole('button', { name: 'Remote assistance' }).click();
    await biaPage.getByRole('dialog', { name: 'Choose your audio and video options' }).getByRole('button', { name: 'Join now' }).click();

    const ring = carlosPage.getByRole('dialog', { name: 'Call' });
    await ring.getByText('Bia Atendente is calling you').waitFor();
    await ring.getByRole('button', { name: 'Accept' }).click();

    // Bia waits for the screen; Carlos is told what is asked and that his computer stays his.
    await biaPage.getByText('Waiting for Carlos Cliente to share their screen…').waitFor();
    const ask = carlosPage.getByRole('region', { name: 'Remote assistance' });
    await ask.getByText('they cannot control your computer').waitFor();
    expect(await violations(carlosPage)).toEqual([]);
    await ask.getByRole('button', { name: 'Share my screen' }).click();

    // Bia sees Carlos's screen large, with the drawing tools.
    const stage = biaPage.getByRole('region', { name: 'Shared screen' });
    const screen = stage.getByRole('img', { name: 'Screen of Carlos Cliente' });
    await screen.waitFor();
    await expect.poll(() => stage.locator('video').evaluate((v: HTMLVideoElement) => v.videoHeight), { timeout: 20_000 }).toBeGreaterThan(0);
    const tools = biaPage.getByRole('toolbar', { name: 'Annotations' });
    await tools.getByRole('button', { name: 'Draw' }).click();
    const box = (await screen.boundingBox())!;
    await biaPage.mouse.move(box.x + box.width * 0.2, box.y + box.height * 0.3);
    await biaPage.mouse.down();
    for (let i = 1; i <= 10; i++) await biaPage.mouse.move(box.x + box.width * (0.2 + i * 0.04), box.y + box.height * (0.3 + i * 0.02));
    await biaPage.mouse.up();
    await expect.poll(() => painted(screen)).toBeGreaterThan(50);

    // Over Carlos's own preview of his screen, the same stroke.
    const mine = carlosPage.getByRole('region', { name: 'Shared screen' }).locator('canvas');
    await expect.poll(() => mine.getAttribute('data-strokes'), { timeout: 20_000 }).toBe('1');
    await expect.poll(() => painted(mine)).toBeGreaterThan(50);
    // Carlos cannot draw back: his layer takes no pointer.
    expect(await mine.evaluate((el) => getComputedStyle(el).pointerEvents)).toBe('none');

    // From the keyboard: the picture takes the focus and the arrow keys move Bia's pointer, which Carlos sees.
    await screen.focus();
    const before = await painted(mine);
    await biaPage.keyboard.press('ArrowRight');
    await biaPage.keyboard.press('Shift+ArrowDown');
    await expect.poll(() => painted(mine)).toBeGreaterThan(before);
    expect(await violations(biaPage)).toEqual([]);
    if (process.env.SCREENSHOTS_DIR) {
      await biaPage.screenshot({ path: `${process.env.SCREENSHOTS_DIR}/remote-attendant.png` });
      await carlosPage.screenshot({ path: `${process.env.SCREENSHOTS_DIR}/remote-customer.png` });
    }

    // An arrow, then clearing wipes both sides.
    await tools.getByRole('button', { name: 'Arrow' }).click();
    await biaPage.mouse.move(box.x + box.width * 0.7, box.y + box.height * 0.7);
    await biaPage.mouse.down();
    await biaPage.mouse.move(box.x + box.width * 0.8, box.y + box.height * 0.5, { steps: 5 });
    await biaPage.mouse.up();
    await expect.poll(() => mine.getAttribute('data-strokes')).toBe('2');
    await tools.getByRole('button', { name: 'Clear the annotations' }).click();
    await expect.poll(() => mine.getAttribute('data-strokes')).toBe('0');
    await expect.poll(() => painted(mine)).toBe(0);
    expect(await painted(screen)).toBe(0);

    await biaPage.getByRole('toolbar', { name: 'Call controls' }).getByRole('button', { name: 'End for everyone' }).click();
    await biaPage.getByRole('dialog').getByRole('button', { name: /End/ }).last().click();
    await expect.poll(async () => (await server.db.call.findFirstOrThrow({ where: { conversationId } })).concluded).toBe(true);
    expect((await server.db.call.findFirstOrThrow({ where: { conversationId } })).type).toBe(4);
  });
});
