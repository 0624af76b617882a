import { APP_VERSION } from '../../../shared/constants';
import { pingDb } from '../../db/client';
import type { AppDeps } from '../../deps';
import type { ProvisionProgress } from '../../media';

export interface Health {
  ok: boolean;
  version: string;
  db: { up: boolean; error?: string };
  storage: { driver: 'minio' | 'local'; up: boolean; error?: string };
  /** `preparing` while the worker binary is being downloaded or built (calls start by themselves after). */
  media: { available: boolean; reason?: string; workers?: number; preparing?: ProvisionProgress };
}

/** Liveness plus the state of each part the app depends on. Only the database decides `ok`. */
export async function checkHealth(deps: Pick<AppDeps, 'db' | 'storage' | 'media'>): Promise<Health> {
  const [db, storage] = await Promise.all([probe(() => pingDb(deps.db)), probe(() => deps.storage.ping())]);
  const media = deps.media.status();
  return {
    ok: db.up,
    version: APP_VERSION,
    db,
    storage: { driver: deps.storage.driver, ...storage },
    media: media.available
      ? { available: true, workers: media.workers.length }
      : { available: false, reason: media.reason, ...(media.preparing && { preparing: media.preparing }) },
  };
}

async function probe(check: () => Promise<void>): Promise<{ up: boolean; error?: string }> {
  try {
    await check();
    return { up: true };
  } catch (err) {
    return { up: false, error: err instanceof Error ? err.message : String(err) };
  }
}
