import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../../generated/prisma/client';
import { pgConnectionFields } from './url';

export type Db = InstanceType<typeof PrismaClient>;
export { Prisma } from '../../generated/prisma/client';

export function createDb(url: string, opts: { poolSize?: number } = {}): Db {
  const adapter = new PrismaPg({ ...pgConnectionFields(url), max: opts.poolSize ?? 10 });
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
