/**
 * No message lost, none doubled, through a crash: the real server runs as a child process
 * (`node --import tsx src/server/main.ts`, as `npm start` does) on a test database; 20 clients in
 * 4 conversations (5 clients each, plus the owner who started it) send 2,000 messages through tRPC with client ids; halfway through the
 * server is SIGKILLed and started again on the same port. The clients (tests/helpers/chat-client.ts,
 * the browser's sync rules) retry unacknowledged sends with the same client id and catch up by
 * seq after reconnecting. Then: every message is in the database once, every acknowledged send
 * is one of them, and every participant holds every message of its conversation once, in order.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../src/server/db/client';
import { RetryingChatClient } from '../helpers/chat-client';
import { createTestDatabase } from '../helpers/db';
import { addMember, createCompany, createUser, signIn } from '../helpers/fixtures';
import { callProcedure } from '../helpers/trpc';

const CONVERSATIONS = 4;
const PER_CONVERSATION = 5;
const PER_CLIENT = 100; // 20 clients x 100 = 2,000 messages
const KILL_AFTER_ACKS = 1_000;

let db: Db;
let databaseUrl: string;
let dataDir: string;
let port: number;
let url: string;
let child: ChildProcess | undefined;
const output: string[] = [];
const clients: RetryingChatClient[] = [];

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

/** Starts the server process and resolves once /healthz answers 200. */
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
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.stdout!.on('data', (d) => output.push(String(d)));
  proc.stderr!.on('data', (d) => output.push(String(d)));
  const exited = new Promise<never>((_, reject) => proc.once('exit', (code, signal) => reject(new Error(`server exited (${code ?? signal}):\n${output.join('').slice(-3000)}`))));
  const healthy = (async () => {
    for (;;) {
      const ok = await fetch(`${url}/healthz`).then((r) => r.ok, () => false);
      if (ok) return;
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
  databaseUrl = await createTestDatabase();
  db = createDb(databaseUrl, { poolSize: 2 });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'atende-noloss-'));
  port = await freePort();
  url = `http://127.0.0.1:${port}`;
  child = await startServer();
}, 90_000);

afterAll(async () => {
  for (const c of clients) c.close();
  if (child) await kill(child);
  await db?.$disconnect();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('no loss across a server crash', () => {
  it('2,000 sends by 20 clients, SIGKILL and restart midway: each message stored once and seen once, in order, by everyone', async () => {
    const owner = await createUser(db, { name: 'Owner' });
    const company = await createCompany(db, owner.id);
    const ownerCookie = await signIn(db, owner.id);
    const groups: { conversationId: string; people: { id: string; cookie: string }[] }[] = [];
    for (let g = 0; g < CONVERSATIONS; g++) {
      const people: { id: string; cookie: string }[] = [];
      for (let i = 0; i < PER_CONVERSATION; i++) {
        const u = await createUser(db, { name: `P${g}-${i}` });
        await addMember(db, company.id, u.id);
        people.push({ id: u.id, cookie: await signIn(db, u.id) });
      }
      const started = await callProcedure(url, 'chat.startTeam', { domain: company.domain, title: `Room ${g}`, userIds: people.map((p) => p.id) }, { cookie: ownerCookie, type: 'mutation' });
      expect(started.error).toBeUndefined();
      const conversationId = (started.data as { conversationId: string }).conversationId;
      groups.push({ conversationId, people });
    }
    for (const g of groups) {
      for (const p of g.people) clients.push(new RetryingChatClient(url, p.cookie, company.domain, p.id, g.conversationId));
    }
    await Promise.all(clients.map((c) => c.open()));

    // Everyone sends in order (the next after the previous was acknowledged), all at once.
    const t0 = Date.now();
    let acked = 0;
    let killed: Promise<void> | undefined;
    const sending = clients.map(async (c, ci) => {
      for (let k = 0; k < PER_CLIENT; k++) {
        await c.send(`c${ci}-m${k}`, `client ${ci} message ${k}`);
        acked++;
        if (acked === KILL_AFTER_ACKS && !killed) {
          killed = (async () => {
            const t0 = Date.now();
            await kill(child!);
            child = await startServer();
            if (process.env.NO_LOSS_TIMINGS) console.info(`killed and restarted in ${Date.now() - t0} ms`);
          })();
        }
      }
    });
    await Promise.all(sending);
    await killed;
    if (process.env.NO_LOSS_TIMINGS) console.info(`2,000 sends acknowledged in ${Date.now() - t0} ms`);
    expect(killed).toBeDefined();
    expect(clients.reduce((n, c) => n + c.attemptsFailed, 0)).toBeGreaterThan(0); // the crash was felt

    // The database: every send once, every acknowledged one among them with the seq it was given.
    for (const g of groups) {
      const rows = await db.message.findMany({
        where: { conversationId: g.conversationId, clientId: { not: null } },
        select: { id: true, seq: true, clientId: true, authorId: true },
        orderBy: { seq: 'asc' },
      });
      expect(rows).toHaveLength(PER_CONVERSATION * PER_CLIENT);
      expect(new Set(rows.map((r) => r.clientId)).size).toBe(rows.length);
      const byClientId = new Map(rows.map((r) => [r.clientId!, r]));
      for (const c of clients.filter((x) => x.conversationId === g.conversationId)) {
        expect(c.acked.size).toBe(PER_CLIENT);
        for (const [clientId, ack] of c.acked) expect(byClientId.get(clientId)).toMatchObject({ id: ack.id, seq: ack.seq, authorId: c.userId });
        // One author's messages keep the order they were sent in.
        const mine = rows.filter((r) => r.authorId === c.userId).map((r) => Number(r.clientId!.split('-m')[1]));
        expect(mine).toEqual(Array.from({ length: PER_CLIENT }, (_, k) => k));
      }
    }

    // Every participant: all of the conversation's messages, each once, in seq order, no gap.
    for (const g of groups) {
      const all = await db.message.findMany({ where: { conversationId: g.conversationId }, select: { seq: true, id: true }, orderBy: { seq: 'asc' } });
      const lastSeq = all[all.length - 1]!.seq;
      for (const c of clients.filter((x) => x.conversationId === g.conversationId)) {
        await expect.poll(() => c.log.syncedTo, { timeout: 30_000 }).toBe(lastSeq);
        expect(c.errors).toEqual([]);
        const held = c.messages.filter((m) => m.seq <= lastSeq);
        expect(held.map((m) => [m.seq, m.id])).toEqual(all.map((m) => [m.seq, m.id]));
        const sent = held.filter((m) => m.clientId);
        expect(sent).toHaveLength(PER_CONVERSATION * PER_CLIENT);
        expect(new Set(sent.map((m) => m.clientId)).size).toBe(sent.length);
        const seqs = held.map((m) => m.seq);
        expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
      }
    }
  }, 120_000);
});
