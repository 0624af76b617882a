import { createLocalStore } from './local';
import { createMinioStore, type MinioStoreConfig } from './minio';
import type { ObjectStore } from './types';

export { assertValidKey } from './keys';
export { createLocalStore, localFilesHandler, signLocalUrl, type LocalStoreConfig } from './local';
export { createMinioStore, type MinioStoreConfig } from './minio';
export {
  InvalidKeyError,
  ObjectNotFoundError,
  ObjectSizeMismatchError,
  type ObjectStat,
  type ObjectStore,
} from './types';

/** Mirrors `Config['storage']`. */
export type StorageConfig = ({ kind: 'minio' } & MinioStoreConfig) | { kind: 'local'; dir: string };

/** `publicUrl` and `secret` sign local-disk download links; MinIO signs its own. */
export function createStorage(config: StorageConfig, opts: { publicUrl: string; secret: string }): ObjectStore {
  if (config.kind === 'minio') return createMinioStore(config);
  return createLocalStore({ dir: config.dir, publicUrl: opts.publicUrl, secret: opts.secret });
}
