import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../../generated/prisma/client';
import { pgConnectionFields } from './url';

export type Db = InstanceType<typeof PrismaClient>;
export { Prisma } from '../../generated/prisma/client';

/**
 * `onError`: a pooled connection the server closed (a restart, a failover, the database dropped).
 * Without a listener pg throws it as an uncaught exception and takes the process down; the next
 * query fails on its own and /healthz says so, so a log line is all it needs.
 */
export function createDb(url: string, opts: { poolSize?: number; onError?: (err: Error) => void } = {}): Db {
  const onError = opts.onError ?? (() => {});
  const adapter = new PrismaPg({ ...pgConnectionFields(url), max: opts.poolSize ?? 10 }, { onPoolError: onError, onConnectionError: onError });
  return new PrismaClient({ adapter });
}

/** A round trip to the database, for health checks. Rejects when it is unreachable. */
export async function pingDb(db: Db, timeoutMs = 2000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`database did not answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([db.$queryRaw`SELECT 1`, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
