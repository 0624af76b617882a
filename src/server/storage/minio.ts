import type { Readable } from 'node:stream';
import type { Client } from 'minio';
import { lazyPackage } from '../lazy-package';
import { attachmentDisposition } from './disposition';
import { assertValidExpiry, assertValidPutOptions, exactSize } from './guards';
import { assertValidKey } from './keys';
import { ObjectNotFoundError, type ObjectStat, type ObjectStore } from './types';

export interface MinioStoreConfig {
  endpoint: string;
  accessKey: string;
  secretKey: string;
  bucket: string;
  region: string;
}

const minio = lazyPackage<typeof import('minio')>('minio');

/** GET answers NoSuchKey; HEAD (statObject) has no body, so the client reports NotFound. */
const MISSING_OBJECT_CODES = new Set(['NoSuchKey', 'NotFound']);
/** makeBucket racing another instance's makeBucket. */
const BUCKET_EXISTS_CODES = new Set(['BucketAlreadyOwnedByYou', 'BucketAlreadyExists']);

function s3Code(err: unknown): string | undefined {
  return err instanceof minio().S3Error ? err.code : undefined;
}

function mapMissing(err: unknown, key: string): never {
  if (MISSING_OBJECT_CODES.has(s3Code(err) ?? '')) throw new ObjectNotFoundError(key);
  throw err;
}

/** The minio client wants host, port and TLS apart; the config carries one URL. */
function clientFor(cfg: MinioStoreConfig): Client {
  const url = new URL(cfg.endpoint);
  if (url.pathname !== '/' || url.search) {
    throw new Error(`S3_ENDPOINT must be an origin without a path (got ${cfg.endpoint})`);
  }
  const useSSL = url.protocol === 'https:';
  return new (minio().Client)({
    endPoint: url.hostname,
    port: url.port ? Number(url.port) : useSSL ? 443 : 80,
    useSSL,
    accessKey: cfg.accessKey,
    secretKey: cfg.secretKey,
    // Path style works with MinIO behind any host name; virtual-host style needs wildcard DNS.
    pathStyle: true,
    // A fixed region also spares the client a GetBucketLocation round trip before each request.
    region: cfg.region,
  });
}

export function createMinioStore(cfg: MinioStoreConfig): ObjectStore {
  const client = clientFor(cfg);
  const { bucket } = cfg;

  async function init(): Promise<void> {
    if (await client.bucketExists(bucket)) return;
    try {
      await client.makeBucket(bucket, cfg.region);
    } catch (err) {
      if (!BUCKET_EXISTS_CODES.has(s3Code(err) ?? '')) throw err;
    }
  }

  async function put(key: string, body: Readable | Buffer, opts: { size: number; contentType: string }): Promise<void> {
    assertValidKey(key);
    assertValidPutOptions(opts);
    await client.putObject(bucket, key, exactSize(key, body, opts.size), opts.size, { 'Content-Type': opts.contentType });
  }

  async function get(key: string): Promise<Readable> {
    assertValidKey(key);
    return client.getObject(bucket, key).catch((err: unknown) => mapMissing(err, key));
  }

  async function stat(key: string): Promise<ObjectStat> {
    assertValidKey(key);
    const info = await client.statObject(bucket, key).catch((err: unknown) => mapMissing(err, key));
    return {
      size: info.size,
      contentType: String(info.metaData['content-type'] ?? 'application/octet-stream'),
      lastModified: info.lastModified,
    };
  }

  async function presignGet(key: string, expiresSeconds: number, opts: { downloadName?: string } = {}): Promise<string> {
    assertValidKey(key);
    assertValidExpiry(expiresSeconds);
    const overrides: Record<string, string> = {};
    if (opts.downloadName) overrides['response-content-disposition'] = attachmentDisposition(opts.downloadName);
    return client.presignedGetObject(bucket, key, expiresSeconds, overrides);
  }

  async function remove(key: string): Promise<void> {
    assertValidKey(key);
    await client.removeObject(bucket, key).catch((err: unknown) => {
      if (!MISSING_OBJECT_CODES.has(s3Code(err) ?? '')) throw err;
    });
  }

  async function ping(): Promise<void> {
    if (!(await client.bucketExists(bucket))) throw new Error(`Bucket ${bucket} does not exist`);
  }

  return { driver: 'minio', init, put, get, stat, presignGet, delete: remove, ping };
}
