import type { Readable } from 'node:stream';

export interface ObjectStat {
  size: number;
  contentType: string;
  lastModified: Date;
}

/**
 * One object store for the whole app. Keys are relative paths such as
 * `{domain}/{conversationId}/{messageId}/{filename}`; both drivers validate them with
 * `assertValidKey` so a key accepted by one is accepted by the other.
 */
export interface ObjectStore {
  readonly driver: 'minio' | 'local';
  /** Creates the bucket / directory if missing. Idempotent. */
  init(): Promise<void>;
  /** Rejects with ObjectSizeMismatchError (and stores nothing) when the body is not exactly `size` bytes. */
  put(key: string, body: Readable | Buffer, opts: { size: number; contentType: string }): Promise<void>;
  /** Throws ObjectNotFoundError when missing. */
  get(key: string): Promise<Readable>;
  /** Throws ObjectNotFoundError when missing. */
  stat(key: string): Promise<ObjectStat>;
  /** Absolute URL valid for `expiresSeconds` (1 s to 7 days); `downloadName` makes it an attachment. */
  presignGet(key: string, expiresSeconds: number, opts?: { downloadName?: string }): Promise<string>;
  /** Deleting a missing key is not an error (spec: object-not-found on delete is ignored). */
  delete(key: string): Promise<void>;
  /** Cheap reachability check (bucket exists / directory writable). */
  ping(): Promise<void>;
}

export class ObjectNotFoundError extends Error {
  constructor(public readonly key: string) {
    super(`Object not found: ${key}`);
    this.name = 'ObjectNotFoundError';
  }
}

export class InvalidKeyError extends Error {
  constructor(reason: string) {
    super(`Invalid object key: ${reason}`);
    this.name = 'InvalidKeyError';
  }
}

/** The declared size is what quotas count, so a body that disagrees with it is refused. */
export class ObjectSizeMismatchError extends Error {
  constructor(
    public readonly key: string,
    public readonly expected: number,
    public readonly actual: string,
  ) {
    super(`Object ${key}: expected ${expected} bytes, got ${actual}`);
    this.name = 'ObjectSizeMismatchError';
  }
}
