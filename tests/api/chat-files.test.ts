import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companyStorageUsage } from '../../src/server/modules/chat/service';
import type { ChatMessageEvent } from '../../src/shared/chat-events';
import { messagesOf, team, until, type ClientSocket, type Person } from '../helpers/chat';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
const sockets: ClientSocket[] = [];
const MAX = 2 * 1024 * 1024;
beforeAll(async () => {
  server = await startTestServer({ env: { MAX_UPLOAD_BYTES: String(MAX) } });
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await server?.close();
});

const png = (size: number) => {
  const b = Buffer.alloc(size, 7);
  Buffer.from('89504e470d0a1a0a', 'hex').copy(b);
  return b;
};
const jpegThumb = Buffer.concat([Buffer.from('ffd8ffe000104a464946', 'hex'), Buffer.alloc(300, 1)]);
const webm = Buffer.concat([Buffer.from('1a45dfa3', 'hex'), Buffer.alloc(5000, 3)]);
let n = 0;
const cid = () => `u${++n}`;

async function chat() {
  const { company, people } = await team(server, sockets, 3, ['Ana', 'Bruno', 'Carla']);
  const [a, b] = people;
  const { conversationId } = await a.call('chat.startDirect', { userId: b.userId });
  return { company, a, b, c: people[2]!, conversationId };
}

const linkOf = async (p: Person, conversationId: string, messageId: string, extra: Record<string, unknown> = {}) => {
  const { links } = await p.query('chat.fileLinks', { conversationId, messageIds: [messageId], ...extra });
  return links[0]?.url as string | undefined;
};
const download = async (url: string) => Buffer.from(await (await fetch(url)).arrayBuffer());
const exists = (key: string) => server.server.deps.storage.stat(key).then(() => true, () => false);

describe('uploading', () => {
  it('stores an image under {domain}/{conversation}/{message}/{name} with its thumbnail; the other side gets it and downloads the same bytes', async () => {
    const { company, a, b, conversationId } = await chat();
    const got = messagesOf(await b.open());
    const image = png(50_000);
    const res = await a.upload(conversationId, { clientId: cid(), name: 'photo.png', text: 'our office' }, image, { thumb: jpegThumb, type: 'image/png' });
    expect(res.status).toBe(200);
    const m = res.body as ChatMessageEvent;
    expect(m).toMatchObject({ type: 'imagem', text: 'our office', file: { name: 'photo.png', size: 50_000, mime: 'image/png', hasThumb: true, isRecording: false } });
    const row = await server.db.message.findUniqueOrThrow({ where: { id: m.id } });
    expect(row.fileKey).toBe(`${company.domain}/${conversationId}/${m.id}/photo.png`);
    expect(row.thumbKey).toBe(`${company.domain}/${conversationId}/${m.id}/.thumb`);
    await until(() => got.length === 1);
    expect(got[0]).toMatchObject({ id: m.id, type: 'imagem' });

    expect((await download((await linkOf(b, conversationId, m.id))!)).equals(image)).toBe(true);
    expect((await download((await linkOf(b, conversationId, m.id, { variant: 'thumb' }))!)).equals(jpegThumb)).toBe(true);
    const saved = await fetch((await linkOf(b, conversationId, m.id, { download: true }))!);
    expect(saved.headers.get('content-disposition')).toContain('photo.png');
    // Usage: the bytes are counted on the conversation and in the company total.
    const usage = await companyStorageUsage(server.db, company.id);
    expect(usage.bytesAttachments).toBe(50_000);
    expect(usage.totalBytes).toBe(usage.bytesAttachments + usage.bytesMessages);
  });

  it('keeps a plain file as arquivo with a safe name and its declared type; a thumbnail for a non-image is dropped', async () => {
    const { a, conversationId } = await chat();
    const res = await a.upload(conversationId, { clientId: cid(), name: '../../etc/re:port?.txt' }, Buffer.from('plain text'), { type: 'text/plain', thumb: jpegThumb });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ type: 'arquivo', file: { name: 'report.txt', mime: 'text/plain', hasThumb: false, size: 10 } });
  });

  it('takes voice messages as audio with their duration, and refuses a "voice message" that is not audio', async () => {
    const { a, conversationId } = await chat();
    const ok = await a.upload(conversationId, { clientId: cid(), name: 'voice.webm', recording: '1', durationMs: '3200' }, webm, { type: 'audio/webm' });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ type: 'arquivo', file: { isRecording: true, durationMs: 3200, mime: 'audio/webm' } });
    const bad = await a.upload(conversationId, { clientId: cid(), name: 'voice.webm', recording: '1' }, Buffer.from('<html>not audio</html>'), { type: 'audio/webm' });
    expect(bad).toMatchObject({ status: 415, body: { error: 'A voice message must be audio', code: 'notAudio' } });
    expect(await server.db.message.count({ where: { conversationId } })).toBe(1);
  });

  it('answers a retried upload with the first message, storing the file once', async () => {
    const { a, conversationId } = await chat();
    const clientId = cid();
    const first = await a.upload(conversationId, { clientId, name: 'a.bin' }, Buffer.alloc(1000, 1));
    const again = await a.upload(conversationId, { clientId, name: 'a.bin' }, Buffer.alloc(1000, 1));
    expect(again.body.id).toBe(first.body.id);
    expect(await server.db.message.count({ where: { conversationId } })).toBe(1);
  });

  it('refuses, with a clear error and before storing anything: too large, over the quota, a bad thumbnail', async () => {
    const { company, a, conversationId } = await chat();
    // The browser learns the limit first, and refuses with this same text before sending.
    expect(await a.query('chat.uploadLimits')).toEqual({ maxUploadBytes: MAX });
    const big = await a.upload(conversationId, { clientId: cid(), name: 'big.bin' }, Buffer.alloc(MAX + 1));
    expect(big).toMatchObject({ status: 413, body: { error: 'The file is too large (at most 2 MB)', code: 'fileTooLarge', maxBytes: MAX } });

    await server.db.company.update({ where: { id: company.id }, data: { storageBytes: 10_000 } });
    const over = await a.upload(conversationId, { clientId: cid(), name: 'c.bin' }, Buffer.alloc(20_000));
    expect(over.status).toBe(507);
    expect(over.body).toMatchObject({ code: 'quotaExceeded', error: 'The company has no storage space left for this file. Remove files or ask an administrator to increase the plan.' });
    await server.db.company.update({ where: { id: company.id }, data: { storageBytes: 1_073_741_824 } });

    const badThumb = await a.upload(conversationId, { clientId: cid(), name: 'p.png' }, png(1000), { thumb: Buffer.from('not an image at all') });
    expect(badThumb).toMatchObject({ status: 415, body: { code: 'badThumb' } });
    expect(await server.db.message.count({ where: { conversationId } })).toBe(0);
    const dir = path.join(server.dataDir, 'files', 'objects', company.domain);
    expect(fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true }).filter((f) => !fs.statSync(path.join(dir, String(f))).isDirectory()) : []).toEqual([]);
  });

  it('lets only one of two concurrent uploads through a quota that fits one', async () => {
    const { company, a, conversationId } = await chat();
    const before = await companyStorageUsage(server.db, company.id);
    await server.db.company.update({ where: { id: company.id }, data: { storageBytes: before.totalBytes + 15_000 } });
    // Both requests pass the early look at the quota (nothing is used yet) and reach the write;
    // the test holds the company's quota turn until both are queued on it, then lets them go.
    const quotaLock = `storage-quota:${company.id}`;
    const waiting = async () => {
      const [row] = await server.db.$queryRaw<{ n: number }[]>`
        SELECT count(*)::int AS n FROM pg_locks
        WHERE locktype = 'advisory' AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`;
      return row!.n;
    };
    const uploads = await server.db.$transaction(
      async (tx) => {
        await tx.$queryRaw`SELECT pg_advisory_xact_lock(hashtextextended(${quotaLock}, 0))::text AS locked`;
        const sent = [1, 2].map((i) => a.upload(conversationId, { clientId: cid(), name: `part${i}.bin` }, Buffer.alloc(10_000, i)));
        await expect.poll(waiting).toBe(2);
        return sent;
      },
      { timeout: 30_000 },
    );
    const results = await Promise.all(uploads);
    expect(results.map((r) => r.status).sort()).toEqual([200, 507]);
    expect(results.find((r) => r.status === 507)!.body).toMatchObject({ code: 'quotaExceeded' });
    expect(await server.db.message.count({ where: { conversationId, fileKey: { not: null } } })).toBe(1);
    const after = await companyStorageUsage(server.db, company.id);
    expect(after.totalBytes).toBeLessThanOrEqual(after.limitBytes);
    // The refused file's object was removed again: only the accepted one is stored.
    const dir = path.join(server.dataDir, 'files', 'objects', company.domain);
    const files = fs.readdirSync(dir, { recursive: true }).filter((f) => !fs.statSync(path.join(dir, String(f))).isDirectory());
    expect(files).toHaveLength(1);
  });

  it('lets only participants of this company upload and download', async () => {
    const { company, a, b, c, conversationId } = await chat();
    const m = (await a.upload(conversationId, { clientId: cid(), name: 'x.txt' }, Buffer.from('x'))).body as ChatMessageEvent;
    expect(await c.upload(conversationId, { clientId: cid(), name: 'y.txt' }, Buffer.from('y'))).toMatchObject({ status: 403, body: { error: 'You are not in this conversation' } });
    await expect(c.query('chat.fileLinks', { conversationId, messageIds: [m.id] })).rejects.toThrow('You are not in this conversation');
    const outsider = (await team(server, sockets, 1)).people[0];
    expect(await outsider.upload(conversationId, { clientId: cid(), name: 'z.txt' }, Buffer.from('z'), { domain: company.domain })).toMatchObject({
      status: 403,
      body: { error: 'Atendente nao cadastrado' },
    });
    expect((await outsider.upload(conversationId, { clientId: cid(), name: 'z.txt' }, Buffer.from('z'))).status).toBe(404);
    await expect(outsider.query('chat.fileLinks', { conversationId, messageIds: [m.id] })).rejects.toThrow('Conversation not found');
    const anonymous = await fetch(`${server.url}/uploads/chat/${company.domain}/${conversationId}?clientId=q&name=q`, { method: 'PUT', body: 'q' });
    expect(anonymous.status).toBe(401);
    await server.db.company.update({ where: { id: company.id }, data: { planBlocked: true } });
    expect((await b.upload(conversationId, { clientId: cid(), name: 'w.txt' }, Buffer.from('w'))).status).toBe(403);
    await server.db.company.update({ where: { id: company.id }, data: { planBlocked: false } });
    expect(await server.db.message.count({ where: { conversationId } })).toBe(1);
  });
});

describe('removing files', () => {
  it('deletes the stored object with the message, unless a forward still shows it', async () => {
    const { company, a, b, c, conversationId } = await chat();
    const { conversationId: toC } = await a.call('chat.startDirect', { userId: c.userId });
    const m = (await a.upload(conversationId, { clientId: cid(), name: 'photo.png' }, png(4000), { thumb: jpegThumb })).body as ChatMessageEvent;
    const row = await server.db.message.findUniqueOrThrow({ where: { id: m.id } });
    const [fw] = await a.call<ChatMessageEvent[]>('chat.forward', { conversationId, messageId: m.id, toConversationIds: [toC], clientId: 'fw' });
    expect(fw).toMatchObject({ forwarded: true, type: 'imagem', file: { name: 'photo.png', hasThumb: true } });
    // Shared by key, not copied.
    expect((await server.db.message.findUniqueOrThrow({ where: { id: fw!.id } })).fileKey).toBe(row.fileKey);

    await a.call('chat.deleteMessage', { conversationId, messageId: m.id });
    expect(await exists(row.fileKey!)).toBe(true);
    expect(await linkOf(b, conversationId, m.id)).toBeUndefined();
    expect((await download((await linkOf(c, toC, fw!.id))!)).equals(png(4000))).toBe(true);

    await a.call('chat.deleteMessage', { conversationId: toC, messageId: fw!.id });
    expect(await exists(row.fileKey!)).toBe(false);
    expect(await exists(row.thumbKey!)).toBe(false);
    const usage = await companyStorageUsage(server.db, company.id);
    expect(usage.bytesAttachments).toBe(0);
  });

  it('deletes a conversation with its files, keeping those forwarded elsewhere', async () => {
    const { a, c, conversationId } = await chat();
    const { conversationId: toC } = await a.call('chat.startDirect', { userId: c.userId });
    const kept = (await a.upload(conversationId, { clientId: cid(), name: 'kept.txt' }, Buffer.from('kept'))).body as ChatMessageEvent;
    const gone = (await a.upload(conversationId, { clientId: cid(), name: 'gone.txt' }, Buffer.from('gone'))).body as ChatMessageEvent;
    const keys = await server.db.message.findMany({ where: { id: { in: [kept.id, gone.id] } } });
    await a.call('chat.forward', { conversationId, messageId: kept.id, toConversationIds: [toC], clientId: 'fw' });
    await a.call('chat.deleteConversation', { conversationId, confirmation: 'remover' });
    expect(await exists(keys.find((k) => k.id === kept.id)!.fileKey!)).toBe(true);
    expect(await exists(keys.find((k) => k.id === gone.id)!.fileKey!)).toBe(false);
  });
});

describe('with the MinIO driver (S3 protocol)', () => {
  it('uploads, links and deletes through the object store', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atende-s3-'));
    const s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: dir });
    const { port } = await s3.run();
    let s3closed = false;
    const minio = await startTestServer({
      env: { S3_ENDPOINT: `http://127.0.0.1:${port}`, S3_ACCESS_KEY: 'S3RVER', S3_SECRET_KEY: 'S3RVER', S3_BUCKET: 'chat-files' },
    });
    try {
      const { people } = await team(minio, sockets, 2);
      const [a, b] = people;
      const { conversationId } = await a.call('chat.startDirect', { userId: b.userId });
      const image = png(30_000);
      const m = (await a.upload(conversationId, { clientId: 'm1', name: 'pic.png' }, image, { thumb: jpegThumb })).body as ChatMessageEvent;
      const { links } = await b.query('chat.fileLinks', { conversationId, messageIds: [m.id] });
      expect(links[0].url).toContain(`127.0.0.1:${port}`);
      expect((await download(links[0].url)).equals(image)).toBe(true);
      const key = (await minio.db.message.findUniqueOrThrow({ where: { id: m.id } })).fileKey!;
      await a.call('chat.deleteMessage', { conversationId, messageId: m.id });
      await expect(minio.server.deps.storage.stat(key)).rejects.toThrow();

      // The store goes away: removals answer the catalogue's texts and change nothing.
      const other = (await a.upload(conversationId, { clientId: 'm2', name: 'doc.txt' }, Buffer.from('doc'))).body as ChatMessageEvent;
      await s3.close();
      s3closed = true;
      await expect(a.call('chat.deleteMessage', { conversationId, messageId: other.id })).rejects.toThrow('Não foi possível remover a mensagem [S503]');
      expect(await minio.db.message.findUniqueOrThrow({ where: { id: other.id } })).toMatchObject({ removed: false, fileName: 'doc.txt' });
      await expect(a.call('chat.deleteConversation', { conversationId, confirmation: 'REMOVER' })).rejects.toThrow(
        'Não foi possível remover o Atendimento [S503]',
      );
      expect(await minio.db.conversation.count({ where: { id: conversationId } })).toBe(1);
    } finally {
      await minio.close();
      if (!s3closed) await s3.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
