import { pipeline, Readable, Transform, type TransformCallback } from 'node:stream';
import { ObjectSizeMismatchError } from './types';

/** S3 (and so MinIO) refuses presigned URLs valid for longer than 7 days. */
export const MAX_PRESIGN_SECONDS = 7 * 24 * 3600;
const PRINTABLE_ASCII = /^[\x20-\x7e]{1,255}$/;

export function assertValidExpiry(expiresSeconds: number): void {
  if (!Number.isInteger(expiresSeconds) || expiresSeconds < 1 || expiresSeconds > MAX_PRESIGN_SECONDS) {
    throw new RangeError(`expiresSeconds must be an integer from 1 to ${MAX_PRESIGN_SECONDS}`);
  }
}

/** Content types end up in response headers, where CR/LF or non-ASCII would break or inject. */
export function isValidContentType(contentType: string): boolean {
  return PRINTABLE_ASCII.test(contentType);
}

export function assertValidPutOptions(opts: { size: number; contentType: string }): void {
  if (!Number.isSafeInteger(opts.size) || opts.size < 0) throw new RangeError('size must be a non-negative integer');
  if (!isValidContentType(opts.contentType)) throw new RangeError('contentType must be 1-255 printable ASCII characters');
}

/**
 * The body as a stream that fails unless it carries exactly `size` bytes. Failing inside the
 * stream (rather than after) makes either driver abort the write instead of storing a bad object.
 */
export function exactSize(key: string, body: Readable | Buffer, size: number): Readable {
  if (Buffer.isBuffer(body)) {
    if (body.length !== size) throw new ObjectSizeMismatchError(key, size, String(body.length));
    return Readable.from([body]);
  }
  let seen = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback) {
      seen += chunk.length;
      if (seen > size) done(new ObjectSizeMismatchError(key, size, `more than ${size}`));
      else done(null, chunk);
    },
    flush(done: TransformCallback) {
      done(seen === size ? null : new ObjectSizeMismatchError(key, size, String(seen)));
    },
  });
  // pipeline destroys both streams on failure; the error reaches the driver through `counter`.
  return pipeline(body, counter, () => {});
}
