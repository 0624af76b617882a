/**
 * Files in the browser chat: an upload shows its progress and the other side downloads the same
 * bytes; an image shows as a thumbnail and opens full size; a file over the limit is refused in
 * the composer before it is sent; a voice message recorded from the (fake) microphone plays on the other side.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import zlib from 'node:zlib';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../helpers/browser';
import { addMember, createCompany, createUser, signIn } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/server';
import { callProcedure } from '../helpers/trpc';

const MAX_UPLOAD = 2 * 1024 * 1024;
let server: TestServer;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  if (!fs.existsSync('dist/client/index.html')) {
    throw new Error('dist/client is missing: build the browser app first (npm run build)');
  }
  [server, browser] = await Promise.all([startTestServer({ env: { MAX_UPLOAD_BYTES: String(MAX_UPLOAD) } }), launchBrowser({ media: true })]);
});
afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => {});
  await browser?.close();
  await server?.close();
});

interface Person {
  userId: string;
  cookie: string;
  context: BrowserContext;
  page: Page;
}

async function member(companyId: string, name: string, userId?: string): Promise<Person> {
  const id = userId ?? (await createUser(server.db, { name })).id;
  if (!userId) await addMember(server.db, companyId, id);
  await server.db.user.update({ where: { id }, data: { defaultCompanyId: companyId } });
  const cookie = await signIn(server.db, id);
  const [cookieName, value] = cookie.split('=') as [string, string];
  const context = await browser.newContext({ locale: 'en-US', acceptDownloads: true, permissions: ['microphone'] });
  contexts.push(context);
  await context.addCookies([{ name: cookieName, value, url: server.url }]);
  return { userId: id, cookie, context, page: await context.newPage() };
}

async function chatPair() {
  const ana = await createUser(server.db, { name: 'Ana Souza' });
  const company = await createCompany(server.db, ana.id);
  const a = await member(company.id, 'Ana Souza', ana.id);
  const b = await member(company.id, 'Bruno Lima');
  const res = await callProcedure(server.url, 'chat.startDirect', { domain: company.domain, userId: b.userId }, { cookie: a.cookie, type: 'mutation' });
  const { conversationId } = res.data as { conversationId: string };
  for (const p of [a, b]) {
    await p.page.goto(`${server.url}/i/recent/chat/${conversationId}`);
    await p.page.getByRole('combobox', { name: 'Message' }).waitFor();
  }
  return { a, b, conversationId };
}

const log = (page: Page) => page.getByRole('log', { name: 'Messages' });

/** A real PNG of one colour, written here (no image library needed). */
function png(width: number, height: number, rgb: [number, number, number]): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type), data]);
    const out = Buffer.alloc(8 + data.length + 4);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', zlib.deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

describe('files', () => {
  it('an upload shows its progress and the other side downloads the same bytes', async () => {
    const { a, b, conversationId } = await chatPair();
    const bytes = randomBytes(1_500_000);
    // A slow uplink, so the progress bar is there to be seen.
    const cdp = await a.context.newCDPSession(a.page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 400 * 1024 });
    await a.page.locator('input[type=file]').setInputFiles({ name: 'relatório.bin', mimeType: 'application/octet-stream', buffer: bytes });
    const progress = a.page.getByRole('progressbar', { name: 'Sending relatório.bin' });
    await progress.waitFor();
    await expect.poll(async () => Number(await progress.getAttribute('value'))).toBeGreaterThan(0);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await progress.waitFor({ state: 'detached', timeout: 20_000 });

    const card = log(b.page).getByRole('listitem').filter({ hasText: 'relatório.bin' });
    await card.getByText('1.4 MB').waitFor();
    const [download] = await Promise.all([b.page.waitForEvent('download'), card.getByRole('button', { name: 'Download relatório.bin' }).click()]);
    expect(download.suggestedFilename()).toBe('relatório.bin');
    expect(Buffer.compare(fs.readFileSync(await download.path()), bytes)).toBe(0);
    expect(await server.db.message.count({ where: { conversationId, fileName: 'relatório.bin' } })).toBe(1);
  });

  it('an image shows as a thumbnail and opens full size; a file over the limit is refused where the user looks', async () => {
    const { a, b, conversationId } = await chatPair();
    await a.page.locator('input[type=file]').setInputFiles({ name: 'red.png', mimeType: 'image/png', buffer: png(800, 600, [220, 30, 30]) });
    const thumb = log(b.page).getByRole('button', { name: 'Open image red.png' }).locator('img');
    await thumb.waitFor();
    await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
    // The thumbnail was drawn by the browser: smaller than the image.
    expect(await thumb.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeLessThanOrEqual(320);
    const row = await server.db.message.findFirstOrThrow({ where: { conversationId, fileName: 'red.png' } });
    expect(row.type).toBe('imagem');
    expect(row.thumbKey).not.toBeNull();
    await log(b.page).getByRole('button', { name: 'Open image red.png' }).click();
    const viewer = b.page.getByRole('dialog', { name: 'red.png' });
    const full = viewer.getByRole('img', { name: 'red.png' });
    await expect.poll(() => full.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(800);
    await viewer.getByRole('button', { name: 'Close' }).click();

    // The browser knows the limit (the attach button says it) and refuses at once, sending nothing.
    await a.page.locator('button[title="Attach files (at most 2 MB)"]').waitFor();
    const sent: string[] = [];
    a.page.on('request', (r) => r.url().includes('/uploads/chat/') && r.url().includes('big.bin') && sent.push(r.url()));
    await a.page.locator('input[type=file]').setInputFiles({ name: 'big.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(MAX_UPLOAD + 1) });
    await a.page.getByRole('alert').filter({ hasText: 'The file is too large (at most 2 MB)' }).waitFor();
    expect(sent).toEqual([]);
    await a.page.getByRole('button', { name: 'Remove big.bin' }).click();
    expect(await server.db.message.count({ where: { conversationId, fileName: 'big.bin' } })).toBe(0);
  });

  it('a voice message recorded from the microphone plays on the other side', async () => {
    const { a, b, conversationId } = await chatPair();
    await a.page.getByRole('button', { name: 'Record a voice message' }).click();
    await a.page.getByRole('timer').filter({ hasText: '0:01' }).waitFor();
    await a.page.getByRole('button', { name: 'Send voice message' }).click();
    const audio = log(b.page).locator('audio');
    await audio.waitFor();
    const row = await server.db.message.findFirstOrThrow({ where: { conversationId, isRecording: true } });
    expect(row.durationMs).toBeGreaterThanOrEqual(1000);
    expect(row.fileMime).toMatch(/^audio\//);
    await expect.poll(() => audio.evaluate((el: HTMLAudioElement) => el.readyState)).toBeGreaterThan(0);
  });
});
