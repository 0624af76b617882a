import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { constants as fsConstants, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Request, RequestHandler, Response } from 'express';
import { attachmentDisposition } from './disposition';
import { assertValidExpiry, assertValidPutOptions, exactSize, isValidContentType } from './guards';
import { assertValidKey, encodeKeyPath } from './keys';
import { InvalidKeyError, ObjectNotFoundError, type ObjectStat, type ObjectStore } from './types';

export interface LocalStoreConfig {
  dir: string;
  /** Origin the app is reached at; download links are `${publicUrl}/files/...`. */
  publicUrl: string;
  secret: string;
}

/**
 * Layout under `dir`:
 *   objects/<key>        the bytes, at the key's own path, so the tree mirrors the bucket layout
 *                        (an operator can inspect it, or copy it into MinIO with `mc mirror`);
 *   meta/<key>.json      the content type, in a separate tree so no key can collide with it;
 *   tmp/                 writes in progress, on the same filesystem so the final rename is atomic.
 * The sidecar holds only the content type (a file system has nowhere portable to keep it:
 * extended attributes are not on every filesystem nor kept by every backup tool). Size and
 * modification time come from the data file itself, so they can never disagree with the bytes.
 */
const OBJECTS = 'objects';
const META = 'meta';
const TMP = 'tmp';
const DEFAULT_CONTENT_TYPE = 'application/octet-stream';
/** Temp files this old belong to a write that crashed. */
const STALE_TMP_MS = 24 * 3600 * 1000;
/** Errors meaning "nothing at this path": a missing file, or a file where a directory was expected. */
const MISSING = new Set(['ENOENT', 'ENOTDIR']);

function errCode(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | undefined)?.code;
}

export function signLocalUrl(secret: string, key: string, exp: number, downloadName = ''): string {
  return createHmac('sha256', secret).update(`${key}\n${exp}\n${downloadName}`).digest('hex');
}

export function createLocalStore(cfg: LocalStoreConfig): ObjectStore {
  const root = path.resolve(cfg.dir);
  const objectsRoot = path.join(root, OBJECTS);
  const metaRoot = path.join(root, META);
  const tmpRoot = path.join(root, TMP);
  const publicUrl = cfg.publicUrl.replace(/\/+$/, '');

  /** Validation already forbids traversal; the containment check guards against a future gap in it. */
  function under(base: string, key: string, suffix = ''): string {
    assertValidKey(key);
    const full = path.join(base, ...key.split('/')) + suffix;
    const rel = path.relative(base, full);
    if (rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) throw new InvalidKeyError('escapes the storage directory');
    return full;
  }

  async function init(): Promise<void> {
    await Promise.all([objectsRoot, metaRoot, tmpRoot].map((d) => fs.mkdir(d, { recursive: true })));
    await removeStaleTemps();
  }

  async function removeStaleTemps(): Promise<void> {
    const cutoff = Date.now() - STALE_TMP_MS;
    for (const name of await fs.readdir(tmpRoot)) {
      const file = path.join(tmpRoot, name);
      const info = await fs.stat(file).catch(() => undefined);
      if (info && info.mtimeMs < cutoff) await fs.rm(file, { force: true });
    }
  }

  /** Renames into place, creating parents; retried once because `delete` may prune them meanwhile. */
  async function moveInto(from: string, to: string): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      await fs.mkdir(path.dirname(to), { recursive: true });
      try {
        return await fs.rename(from, to);
      } catch (err) {
        if (errCode(err) !== 'ENOENT' || attempt > 0) throw err;
      }
    }
  }

  async function put(key: string, body: Readable | Buffer, opts: { size: number; contentType: string }): Promise<void> {
    const file = under(objectsRoot, key);
    const metaFile = under(metaRoot, key, '.json');
    assertValidPutOptions(opts);
    const source = exactSize(key, body, opts.size);
    const tmpData = path.join(tmpRoot, randomUUID());
    const tmpMeta = `${tmpData}.json`;
    try {
      // flush: the bytes reach the disk before the rename makes them visible.
      await pipeline(source, createWriteStream(tmpData, { flags: 'wx', flush: true }));
      await fs.writeFile(tmpMeta, JSON.stringify({ contentType: opts.contentType }), { flag: 'wx' });
      // Metadata first: once the data file is visible, its content type already is.
      await moveInto(tmpMeta, metaFile);
      await moveInto(tmpData, file);
    } finally {
      await Promise.all([fs.rm(tmpData, { force: true }), fs.rm(tmpMeta, { force: true })]);
    }
  }

  async function readContentType(key: string): Promise<string> {
    try {
      const meta = JSON.parse(await fs.readFile(under(metaRoot, key, '.json'), 'utf8')) as { contentType?: unknown };
      // The sidecar is a plain file an operator may edit; a bad value must not break responses.
      const { contentType } = meta;
      return typeof contentType === 'string' && isValidContentType(contentType) ? contentType : DEFAULT_CONTENT_TYPE;
    } catch (err) {
      if (MISSING.has(errCode(err) ?? '') || err instanceof SyntaxError) return DEFAULT_CONTENT_TYPE;
      throw err;
    }
  }

  async function get(key: string): Promise<Readable> {
    const file = under(objectsRoot, key);
    // Open once and read from that handle: a concurrent put or delete cannot swap the file mid-read.
    const handle = await fs.open(file, 'r').catch((err: unknown) => {
      throw MISSING.has(errCode(err) ?? '') ? new ObjectNotFoundError(key) : err;
    });
    if (!(await handle.stat()).isFile()) {
      await handle.close();
      throw new ObjectNotFoundError(key);
    }
    return handle.createReadStream();
  }

  async function stat(key: string): Promise<ObjectStat> {
    const file = under(objectsRoot, key);
    const info = await fs.stat(file).catch((err: unknown) => {
      throw MISSING.has(errCode(err) ?? '') ? new ObjectNotFoundError(key) : err;
    });
    if (!info.isFile()) throw new ObjectNotFoundError(key);
    return { size: info.size, contentType: await readContentType(key), lastModified: info.mtime };
  }

  async function presignGet(key: string, expiresSeconds: number, opts: { downloadName?: string } = {}): Promise<string> {
    assertValidKey(key);
    assertValidExpiry(expiresSeconds);
    const exp = Math.floor(Date.now() / 1000) + expiresSeconds;
    const name = opts.downloadName ?? '';
    const query = new URLSearchParams({ exp: String(exp), sig: signLocalUrl(cfg.secret, key, exp, name) });
    if (name) query.set('name', name);
    return `${publicUrl}/files/${encodeKeyPath(key)}?${query}`;
  }

  async function unlinkIfPresent(file: string): Promise<void> {
    await fs.unlink(file).catch((err: unknown) => {
      if (!MISSING.has(errCode(err) ?? '')) throw err;
    });
  }

  /** Empty per-message directories would otherwise pile up by the million; stops at the first non-empty one. */
  async function pruneEmptyParents(file: string, base: string): Promise<void> {
    for (let dir = path.dirname(file); dir !== base && dir.startsWith(base); dir = path.dirname(dir)) {
      try {
        await fs.rmdir(dir);
      } catch {
        return;
      }
    }
  }

  async function remove(key: string): Promise<void> {
    const file = under(objectsRoot, key);
    const metaFile = under(metaRoot, key, '.json');
    await unlinkIfPresent(file);
    await unlinkIfPresent(metaFile);
    await Promise.all([pruneEmptyParents(file, objectsRoot), pruneEmptyParents(metaFile, metaRoot)]);
  }

  async function ping(): Promise<void> {
    await fs.access(objectsRoot, fsConstants.W_OK);
  }

  return { driver: 'local', init, put, get, stat, presignGet, delete: remove, ping };
}

/** Only these are shown inline; anything else (HTML, SVG, XML...) could run script on the app's origin. */
const INLINE_SAFE = /^(image\/(png|jpeg|gif|webp|avif|bmp)|audio\/[\w.+-]+|video\/[\w.+-]+|text\/plain|application\/pdf)(;|$)/i;
const SIGNATURE = /^[0-9a-f]{64}$/;

function reject(res: Response, status: number, reason: string): void {
  res.status(status).type('text/plain').send(reason);
}

/** The key from the URL path below the mount point, or undefined when it is not a valid key. */
function keyFromPath(req: Request): string | undefined {
  try {
    const key = req.path.replace(/^\//, '').split('/').map(decodeURIComponent).join('/');
    assertValidKey(key);
    return key;
  } catch {
    return undefined;
  }
}

function single(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** Why the link is refused, or undefined when signature and expiry are good. */
function linkProblem(secret: string, key: string, exp: string | undefined, sig: string | undefined, name: string): string | undefined {
  if (!exp || !/^\d{1,12}$/.test(exp) || !sig || !SIGNATURE.test(sig)) return 'invalid link';
  const expected = Buffer.from(signLocalUrl(secret, key, Number(exp), name), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(sig, 'hex'))) return 'invalid signature';
  if (Number(exp) < Date.now() / 1000) return 'link expired';
  return undefined;
}

function setObjectHeaders(res: Response, info: ObjectStat, name: string, exp: number): void {
  res.setHeader('Content-Type', info.contentType);
  res.setHeader('Content-Length', String(info.size));
  res.setHeader('Last-Modified', info.lastModified.toUTCString());
  res.setHeader('X-Content-Type-Options', 'nosniff');
  // A browser may reuse the bytes for as long as the link itself stays valid.
  res.setHeader('Cache-Control', `private, max-age=${Math.max(0, exp - Math.floor(Date.now() / 1000))}`);
  if (name) res.setHeader('Content-Disposition', attachmentDisposition(name));
  else if (!INLINE_SAFE.test(info.contentType)) res.setHeader('Content-Disposition', 'attachment');
}

async function sendObject(store: ObjectStore, req: Request, res: Response, key: string, name: string, exp: number): Promise<void> {
  const info = await store.stat(key);
  const body = req.method === 'HEAD' ? undefined : await store.get(key);
  setObjectHeaders(res, info, name, exp);
  if (body) await pipeline(body, res);
  else res.end();
}

/**
 * Serves signed links made by the local store's `presignGet`. Mount at `/files`. Never passes an
 * error on to Express, whose default handler would show a stack trace outside production.
 */
export function localFilesHandler(store: ObjectStore, secret: string): RequestHandler {
  return async (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      return reject(res, 405, 'method not allowed');
    }
    const key = keyFromPath(req);
    if (!key) return reject(res, 400, 'invalid key');
    const exp = single(req.query.exp);
    const name = single(req.query.name) ?? '';
    const problem = linkProblem(secret, key, exp, single(req.query.sig), name);
    if (problem) return reject(res, 403, problem);
    try {
      await sendObject(store, req, res, key, name, Number(exp));
    } catch (err) {
      if (res.headersSent) res.destroy();
      else if (err instanceof ObjectNotFoundError) reject(res, 404, 'not found');
      else {
        (req as { log?: { error(obj: object, msg: string): void } }).log?.error({ err, key }, 'serving a stored file failed');
        reject(res, 500, 'internal error');
      }
    }
  };
}
