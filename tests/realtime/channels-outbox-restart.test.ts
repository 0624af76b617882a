/**
 * The channel outbox through a crash: the real server runs as a child process (as `npm start`
 * does); WhatsApp is down, so the attendant's replies wait in the outbox being retried; the server
 * is SIGKILLed, WhatsApp comes back, the server starts again: every waiting message reaches
 * WhatsApp exactly once, in the order written.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../src/server/db/client';
import { createTestDatabase } from '../helpers/db';
import type { TestServer } from '../helpers/server';
import { serviceCompany, type ClientSocket } from '../helpers/service';
import { budget } from '../helpers/time';
import { deliverWhatsAppWebhook, startWhatsAppServer, waTextMessage } from '../helpers/whatsapp';

const PHONE_ID = '109876543210';
const TOKEN = 'EAAG-restart-token';
const APP_SECRET = 'meta-app-secret-restart';

let db: Db;
let databaseUrl: string;
let dataDir: string;
let url: string;
let port: number;
let child: ChildProcess | undefined;
let wa: Awaited<ReturnType<typeof startWhatsAppServer>>;
const output: string[] = [];
const sockets: ClientSocket[] = [];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

async function startServer(): Promise<ChildProcess> {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: path.resolve(import.meta.dirname, '../..'),
    env: {
      ...process.env,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: url,
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      APP_SECRET: 'test-secret-not-for-production',
      LOG_LEVEL: 'warn',
      MEDIASOUP_NUM_WORKERS: '0',
      SOCKET_ADAPTER: 'memory',
      REDIS_URL: '',
      WHATSAPP_API_ROOT: wa.root,
      CHANNEL_POLL_MS: '50',
      CHANNEL_RETRY_BASE_MS: '100',
      CHANNEL_MAX_ATTEMPTS: '100',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.stdout!.on('data', (d) => output.push(String(d)));
  proc.stderr!.on('data', (d) => output.push(String(d)));
  const exited = new Promise<never>((_, reject) => proc.once('exit', (code, signal) => reject(new Error(`server exited (${code ?? signal}):\n${output.join('').slice(-3000)}`))));
  const healthy = (async () => {
    for (;;) {
      if (await fetch(`${url}/healthz`).then((r) => r.ok, () => false)) return;
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  await Promise.race([healthy, exited]);
  exited.catch(() => undefined);
  return proc;
}

function kill(proc: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
    proc.once('exit', () => resolve());
    proc.kill('SIGKILL');
  });
}

beforeAll(async () => {
  wa = await startWhatsAppServer({ phoneNumberId: PHONE_ID, accessToken: TOKEN });
  databaseUrl = await createTestDatabase();
  db = createDb(databaseUrl, { poolSize: 2 });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'atende-outbox-'));
  port = await freePort();
  url = `http://127.0.0.1:${port}`;
  child = await startServer();
}, 90_000);

afterAll(async () => {
  for (const s of sockets) s.disconnect();
  if (child) await kill(child);
  await db?.$disconnect();
  await wa?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('the channel outbox across a crash', () => {
  it('messages waiting for WhatsApp when the server is SIGKILLed are each delivered once after the restart', async () => {
    const server = { url, db } as unknown as TestServer;
    const c = await serviceCompany(server, sockets, { plan: { whatsapp: 1 } });
    const bia = await c.attendant('Bia Atendente', { groupIds: [c.group('member')] });
    const { webhookUrl } = await c.admin.call('channels.saveWhatsApp', { domain: c.domain, queueId: c.queue.id, phoneNumberId: PHONE_ID, accessToken: TOKEN, appSecret: APP_SECRET });

    wa.setDown(true);
    const from = '5511955554444';
    expect((await deliverWhatsAppWebhook(webhookUrl, APP_SECRET, waTextMessage(PHONE_ID, { id: 'wamid.R1', from, name: 'Rui', text: 'Oi' }))).status).toBe(200);
    const conv = await db.conversation.findFirstOrThrow({ where: { companyId: c.company.id } });
    await bia.call('service.take', { domain: c.domain, conversationId: conv.id });
    const texts = Array.from({ length: 10 }, (_, i) => `Resposta ${i + 1}`);
    for (const [i, text] of texts.entries()) await bia.call('chat.send', { domain: c.domain, conversationId: conv.id, clientId: `r${i}`, text });

    // The first relay has been tried and is in backoff; the others wait behind it (order per customer).
    await expect
      .poll(async () => {
        const rows = await db.channelOutbox.findMany({ where: { to: from } });
        return rows.length === 12 && rows.every((r) => r.status === 'pending') && rows.some((r) => r.attempts >= 2);
      }, { timeout: budget(30_000) })
      .toBe(true);
    const waiting = await db.channelOutbox.count({ where: { to: from } });
    expect(waiting).toBe(12); // greeting, "taken by", ten replies
    expect(wa.sent.filter((m) => m.to === from)).toHaveLength(0);

    await kill(child!);
    wa.setDown(false);
    child = await startServer();

    await expect.poll(async () => (await db.channelOutbox.findMany({ where: { to: from } })).every((r) => r.status === 'sent'), { timeout: budget(60_000) }).toBe(true);
    const bodies = wa.sent.filter((m) => m.to === from).map((m) => m.text!.body);
    expect(bodies).toHaveLength(waiting);
    expect(bodies.filter((b) => b.startsWith('Resposta'))).toEqual(texts);
    expect(new Set(wa.sent.filter((m) => m.to === from).map((m) => m.id)).size).toBe(waiting);
  });
});
