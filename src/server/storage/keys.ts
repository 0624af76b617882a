import { InvalidKeyError } from './types';

/** S3 limits keys to 1024 bytes of UTF-8, so that is the limit for every driver. */
const MAX_KEY_BYTES = 1024;
const CONTROL_CHAR = /[\u0000-\u001f\u007f]/;
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * The single gate for object keys, shared by both drivers. Beyond traversal ('..'), it refuses
 * '.' and empty segments: S3 would keep `a//b` and `a/./b` distinct from `a/b`, a disk cannot.
 */
export function assertValidKey(key: string): void {
  if (typeof key !== 'string' || key.length === 0) throw new InvalidKeyError('empty');
  if (Buffer.byteLength(key, 'utf8') > MAX_KEY_BYTES) throw new InvalidKeyError(`longer than ${MAX_KEY_BYTES} bytes`);
  if (key.startsWith('/')) throw new InvalidKeyError('absolute path');
  if (key.includes('\\')) throw new InvalidKeyError('backslash');
  if (CONTROL_CHAR.test(key)) throw new InvalidKeyError('control character');
  if (LONE_SURROGATE.test(key)) throw new InvalidKeyError('malformed unicode');
  for (const segment of key.split('/')) {
    if (segment === '' || segment === '.' || segment === '..') throw new InvalidKeyError(`bad segment "${segment}"`);
  }
}

/** URL path for a key: each segment percent-encoded, the separators kept. */
export function encodeKeyPath(key: string): string {
  return key.split('/').map(encodeURIComponent).join('/');
}
