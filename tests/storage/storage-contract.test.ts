import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import express from 'express';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createLocalStore,
  createMinioStore,
  InvalidKeyError,
  localFilesHandler,
  ObjectNotFoundError,
  ObjectSizeMismatchError,
  signLocalUrl,
  type ObjectStore,
} from '../../src/server/storage';

interface Harness {
  store: ObjectStore;
  close(): Promise<void>;
}

interface LocalHarness extends Harness {
  baseUrl: string;
  secret: string;
  dir: string;
}

const tempDirs: string[] = [];
afterAll(() => {
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

async function startMinio(): Promise<Harness> {
  const s3rver = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: tempDir('atende-s3rver-') });
  const { port } = await s3rver.run();
  const store = createMinioStore({
    endpoint: `http://127.0.0.1:${port}`,
    accessKey: 'S3RVER',
    secretKey: 'S3RVER',
    bucket: 'atende-contract',
    region: 'us-east-1',
  });
  return { store, close: () => s3rver.close() };
}

async function startLocal(): Promise<LocalHarness> {
  const secret = 'contract-test-secret';
  const dir = tempDir('atende-local-store-');
  const app = express();
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const store = createLocalStore({ dir: path.join(dir, 'files'), publicUrl: baseUrl, secret });
  app.use('/files', localFilesHandler(store, secret));
  const close = async () => {
    // fetch keeps connections alive; without this close() waits for them to time out.
    server.closeAllConnections();
    await new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
  };
  return { store, baseUrl, secret, dir, close };
}

async function readAll(stream: Readable): Promise<Buffer> {
  return Buffer.concat(await stream.toArray());
}

function chunked(data: Buffer, chunkSize = 64 * 1024): Readable {
  const chunks: Buffer[] = [];
  for (let i = 0; i < data.length; i += chunkSize) chunks.push(data.subarray(i, i + chunkSize));
  return Readable.from(chunks);
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const text = (s: string) => Buffer.from(s, 'utf8');
let keySeq = 0;
/** A fresh key per test, shaped like the real ones. */
const newKey = (filename = 'file.txt') => `acme/conv-1/msg-${++keySeq}/${filename}`;

const INVALID_KEYS = ['', '../x', '/abs', 'a/../b', 'a/./b', 'a//b', 'a/', 'a\\b', 'a\u0000b', 'a\nb', 'x'.repeat(1025)];

function runContract(name: string, setup: () => Promise<Harness>): void {
  describe(`ObjectStore contract: ${name}`, () => {
    let h: Harness;
    beforeAll(async () => {
      h = await setup();
      await h.store.init();
    });
    afterAll(async () => h?.close());

    it('init is idempotent and ping succeeds', async () => {
      await h.store.init();
      await expect(h.store.ping()).resolves.toBeUndefined();
    });

    it('puts a Buffer and gets the same bytes back', async () => {
      const key = newKey();
      await h.store.put(key, text('hello'), { size: 5, contentType: 'text/plain' });
      expect((await readAll(await h.store.get(key))).toString()).toBe('hello');
    });

    it('puts a Readable and gets the same bytes back', async () => {
      const key = newKey('stream.bin');
      const data = randomBytes(100_000);
      await h.store.put(key, chunked(data, 7_000), { size: data.length, contentType: 'application/octet-stream' });
      expect(await readAll(await h.store.get(key))).toEqual(data);
    });

    it('stores an empty object', async () => {
      const key = newKey('empty.txt');
      await h.store.put(key, Buffer.alloc(0), { size: 0, contentType: 'text/plain' });
      expect(await h.store.stat(key)).toMatchObject({ size: 0, contentType: 'text/plain' });
      expect((await readAll(await h.store.get(key))).length).toBe(0);
    });

    it('stat reports size, content type and modification time', async () => {
      const key = newKey('photo.png');
      const before = Date.now();
      await h.store.put(key, randomBytes(1234), { size: 1234, contentType: 'image/png' });
      const info = await h.store.stat(key);
      expect(info.size).toBe(1234);
      expect(info.contentType).toBe('image/png');
      expect(info.lastModified).toBeInstanceOf(Date);
      // Both back ends keep whole seconds at worst.
      expect(Math.abs(info.lastModified.getTime() - before)).toBeLessThan(5_000);
    });

    it('overwrites an existing key, content type included', async () => {
      const key = newKey();
      await h.store.put(key, text('first'), { size: 5, contentType: 'text/plain' });
      await h.store.put(key, text('second!'), { size: 7, contentType: 'text/markdown' });
      expect((await readAll(await h.store.get(key))).toString()).toBe('second!');
      expect(await h.store.stat(key)).toMatchObject({ size: 7, contentType: 'text/markdown' });
    });

    it('presigned URL serves the bytes with their content type', async () => {
      const key = newKey('doc.pdf');
      const data = randomBytes(4096);
      await h.store.put(key, data, { size: data.length, contentType: 'application/pdf' });
      const url = await h.store.presignGet(key, 60);
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
      const res = await fetch(url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/pdf');
      expect(Buffer.from(await res.arrayBuffer())).toEqual(data);
    });

    it('presigned URL works for keys with spaces, accents, # and ?', async () => {
      const key = newKey('relatório de março #1?.txt');
      await h.store.put(key, text('accents'), { size: 7, contentType: 'text/plain' });
      const res = await fetch(await h.store.presignGet(key, 60));
      expect(res.status).toBe(200);
      expect(await res.text()).toBe('accents');
    });

    it('presign with downloadName sets an RFC 5987 Content-Disposition', async () => {
      const key = newKey('upload.bin');
      await h.store.put(key, text('data'), { size: 4, contentType: 'application/octet-stream' });
      const res = await fetch(await h.store.presignGet(key, 60, { downloadName: 'relatório "final".pdf' }));
      expect(res.status).toBe(200);
      const disposition = res.headers.get('content-disposition') ?? '';
      expect(disposition).toMatch(/^attachment;/);
      expect(disposition).toContain(`filename*=UTF-8''relat%C3%B3rio%20%22final%22.pdf`);
      expect(disposition).toContain('filename="relat_rio _final_.pdf"');
      await res.arrayBuffer();
    });

    it('refuses presign expiries outside 1 s .. 7 days', async () => {
      const key = newKey();
      await expect(h.store.presignGet(key, 0)).rejects.toBeInstanceOf(RangeError);
      await expect(h.store.presignGet(key, 8 * 24 * 3600)).rejects.toBeInstanceOf(RangeError);
    });

    it('an expired presigned URL is refused with 403', async () => {
      const key = newKey();
      await h.store.put(key, text('soon gone'), { size: 9, contentType: 'text/plain' });
      const url = await h.store.presignGet(key, 1);
      await sleep(2_100);
      const res = await fetch(url);
      expect(res.status).toBe(403);
      await res.arrayBuffer();
    });

    it('delete removes the object: get and stat then throw ObjectNotFoundError', async () => {
      const key = newKey();
      await h.store.put(key, text('bye'), { size: 3, contentType: 'text/plain' });
      await h.store.delete(key);
      await expect(h.store.get(key)).rejects.toBeInstanceOf(ObjectNotFoundError);
      await expect(h.store.stat(key)).rejects.toBeInstanceOf(ObjectNotFoundError);
    });

    it('get and stat of a key never written throw ObjectNotFoundError carrying the key', async () => {
      const key = newKey('never.txt');
      await expect(h.store.stat(key)).rejects.toMatchObject({ name: 'ObjectNotFoundError', key });
      await expect(h.store.get(key)).rejects.toBeInstanceOf(ObjectNotFoundError);
    });

    it('a prefix of existing keys is not an object', async () => {
      const key = newKey();
      await h.store.put(key, text('x'), { size: 1, contentType: 'text/plain' });
      const parent = key.slice(0, key.lastIndexOf('/'));
      await expect(h.store.stat(parent)).rejects.toBeInstanceOf(ObjectNotFoundError);
      await expect(h.store.get(parent)).rejects.toBeInstanceOf(ObjectNotFoundError);
    });

    it('deleting a missing key is not an error', async () => {
      await expect(h.store.delete(newKey('ghost.txt'))).resolves.toBeUndefined();
    });

    it('deleting one object leaves its siblings alone', async () => {
      const a = newKey('a.txt');
      const b = a.replace(/a\.txt$/, 'b.txt');
      await h.store.put(a, text('a'), { size: 1, contentType: 'text/plain' });
      await h.store.put(b, text('b'), { size: 1, contentType: 'text/plain' });
      await h.store.delete(a);
      expect((await readAll(await h.store.get(b))).toString()).toBe('b');
    });

    it('accepts dots that are not whole segments', async () => {
      const key = '..acme/.conv/msg.../..file..';
      await h.store.put(key, text('dots'), { size: 4, contentType: 'text/plain' });
      expect((await readAll(await h.store.get(key))).toString()).toBe('dots');
      await h.store.delete(key);
    });

    it.each(INVALID_KEYS.map((k) => [JSON.stringify(k).slice(0, 40), k]))('rejects invalid key %s everywhere', async (_label, key) => {
      await expect(h.store.put(key, text('x'), { size: 1, contentType: 'text/plain' })).rejects.toBeInstanceOf(InvalidKeyError);
      await expect(h.store.get(key)).rejects.toBeInstanceOf(InvalidKeyError);
      await expect(h.store.stat(key)).rejects.toBeInstanceOf(InvalidKeyError);
      await expect(h.store.delete(key)).rejects.toBeInstanceOf(InvalidKeyError);
      await expect(h.store.presignGet(key, 60)).rejects.toBeInstanceOf(InvalidKeyError);
    });

    it('refuses a body whose length differs from the declared size, storing nothing', async () => {
      const key = newKey();
      const opts = { size: 10, contentType: 'text/plain' };
      await expect(h.store.put(key, text('short'), opts)).rejects.toBeInstanceOf(ObjectSizeMismatchError);
      await expect(h.store.put(key, chunked(text('short'), 2), opts)).rejects.toBeInstanceOf(ObjectSizeMismatchError);
      await expect(h.store.put(key, chunked(text('much too long'), 2), opts)).rejects.toBeInstanceOf(ObjectSizeMismatchError);
      await expect(h.store.stat(key)).rejects.toBeInstanceOf(ObjectNotFoundError);
    });

    it('round-trips a 5 MB object streamed in chunks', async () => {
      const key = newKey('big.bin');
      const data = randomBytes(5 * 1024 * 1024);
      await h.store.put(key, chunked(data), { size: data.length, contentType: 'application/zip' });
      expect(await h.store.stat(key)).toMatchObject({ size: data.length, contentType: 'application/zip' });
      expect(sha256(await readAll(await h.store.get(key)))).toBe(sha256(data));
      const res = await fetch(await h.store.presignGet(key, 60));
      expect(sha256(Buffer.from(await res.arrayBuffer()))).toBe(sha256(data));
    });
  });
}

runContract('minio (s3rver)', startMinio);
runContract('local disk', startLocal);

describe('local disk download links', () => {
  let h: LocalHarness;
  const key = 'acme/conv-9/msg-1/notes.txt';

  beforeAll(async () => {
    h = await startLocal();
    await h.store.init();
    await h.store.put(key, text('secret notes'), { size: 12, contentType: 'text/plain' });
  });
  afterAll(async () => h?.close());

  /** A raw request path: fetch and URL strings would normalise '..' and '%2e%2e' segments away. */
  function rawGet(pathAndQuery: string): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const { hostname, port } = new URL(h.baseUrl);
      http
        .get({ hostname, port, path: pathAndQuery, agent: false }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
        })
        .on('error', reject);
    });
  }

  function signedQuery(forKey: string, exp: number, name = ''): string {
    const q = new URLSearchParams({ exp: String(exp), sig: signLocalUrl(h.secret, forKey, exp, name) });
    if (name) q.set('name', name);
    return q.toString();
  }

  const inAMinute = () => Math.floor(Date.now() / 1000) + 60;

  it('a tampered signature is refused with 403 and a short plain-text reason', async () => {
    const url = new URL(await h.store.presignGet(key, 60));
    const sig = url.searchParams.get('sig')!;
    url.searchParams.set('sig', (sig[0] === '0' ? '1' : '0') + sig.slice(1));
    const res = await fetch(url);
    expect(res.status).toBe(403);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await res.text()).toBe('invalid signature');
  });

  it('a download name added to or changed in a signed link is refused', async () => {
    const plain = new URL(await h.store.presignGet(key, 60));
    plain.searchParams.set('name', 'evil.html');
    expect((await fetch(plain)).status).toBe(403);
    const named = new URL(await h.store.presignGet(key, 60, { downloadName: 'notes.txt' }));
    named.searchParams.set('name', 'other.txt');
    expect((await fetch(named)).status).toBe(403);
  });

  it('a link for another key is refused', async () => {
    const url = new URL(await h.store.presignGet(key, 60));
    url.pathname = url.pathname.replace('notes.txt', 'other.txt');
    expect((await fetch(url)).status).toBe(403);
  });

  it('a correctly signed but expired link is refused with 403', async () => {
    const res = await fetch(`${h.baseUrl}/files/${key}?${signedQuery(key, Math.floor(Date.now() / 1000) - 5)}`);
    expect(res.status).toBe(403);
    expect(await res.text()).toBe('link expired');
  });

  it('missing or malformed exp and sig are refused with 403', async () => {
    for (const query of ['', 'exp=abc&sig=00', `exp=${inAMinute()}`, `sig=${'0'.repeat(64)}`]) {
      expect((await fetch(`${h.baseUrl}/files/${key}?${query}`)).status).toBe(403);
    }
  });

  it('a validly signed link to a missing object answers 404', async () => {
    const missing = 'acme/conv-9/msg-2/gone.txt';
    const res = await fetch(`${h.baseUrl}/files/${missing}?${signedQuery(missing, inAMinute())}`);
    expect(res.status).toBe(404);
    expect(await res.text()).toBe('not found');
  });

  it('traversal through the handler never reaches files outside the store, even when signed', async () => {
    fs.writeFileSync(path.join(h.dir, 'outside.txt'), 'outside');
    fs.writeFileSync(path.join(h.dir, 'files', 'outside.txt'), 'outside');
    const attempts = [
      '../outside.txt',
      '../../outside.txt',
      'acme/../../../outside.txt',
      '..%2F..%2Foutside.txt',
      '%2e%2e/%2e%2e/outside.txt',
      '%2Fetc%2Fpasswd',
      'acme%5C..%5C..%5Coutside.txt',
      'acme/%00/x',
      '%E0%A4%A', // not valid percent-encoding
    ];
    for (const attempt of attempts) {
      const decoded = attempt.replace(/%2F/gi, '/');
      const res = await rawGet(`/files/${attempt}?${signedQuery(decoded, inAMinute())}`);
      expect(res, attempt).toEqual({ status: 400, body: 'invalid key' });
    }
  });

  it('serves HEAD with the headers and no body', async () => {
    const res = await fetch(await h.store.presignGet(key, 60), { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe('12');
    expect(res.headers.get('content-type')).toBe('text/plain');
    expect(await res.text()).toBe('');
  });

  it('refuses other methods with 405', async () => {
    const res = await fetch(await h.store.presignGet(key, 60), { method: 'POST' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
  });

  it('serves active content (HTML, SVG) as an attachment with nosniff', async () => {
    const page = 'acme/conv-9/msg-3/page.html';
    const html = text('<script>alert(document.cookie)</script>');
    await h.store.put(page, html, { size: html.length, contentType: 'text/html' });
    const res = await fetch(await h.store.presignGet(page, 60));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe('attachment');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    await res.arrayBuffer();
    const inline = await fetch(await h.store.presignGet(key, 60));
    expect(inline.headers.get('content-disposition')).toBeNull();
    await inline.arrayBuffer();
  });

  it('removes the emptied directories on delete', async () => {
    const nested = 'acme/conv-9/msg-4/tmp.txt';
    await h.store.put(nested, text('t'), { size: 1, contentType: 'text/plain' });
    await h.store.delete(nested);
    const objects = path.join(h.dir, 'files', 'objects');
    expect(fs.existsSync(path.join(objects, 'acme', 'conv-9', 'msg-4'))).toBe(false);
    expect(fs.existsSync(path.join(objects, 'acme', 'conv-9', 'msg-1', 'notes.txt'))).toBe(true);
  });

  it('ping fails when the directory is gone', async () => {
    const store = createLocalStore({ dir: path.join(h.dir, 'never-created'), publicUrl: h.baseUrl, secret: h.secret });
    await expect(store.ping()).rejects.toThrow();
  });
});
