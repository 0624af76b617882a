import { createHash } from 'node:crypto';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { Prisma, PrismaClient } from '../../generated/prisma/client';
import { pgConnectionFields } from './url';

export type Db = InstanceType<typeof PrismaClient>;
export { Prisma } from '../../generated/prisma/client';

/** The pg pool under each client made by createDb (the ORM's own connections). */
const pools = new WeakMap<object, pg.Pool>();

/**
 * `onError`: a pooled connection the server closed (a restart, a failover, the database dropped).
 * Without a listener pg throws it as an uncaught exception and takes the process down; the next
 * query fails on its own and /healthz says so, so a log line is all it needs.
 * The pool is made here and handed to the adapter, so `hotQuery` can use the same connections.
 */
export function createDb(url: string, opts: { poolSize?: number; onError?: (err: Error) => void } = {}): Db {
  const onError = opts.onError ?? (() => {});
  const pool = new pg.Pool({ ...pgConnectionFields(url), max: opts.poolSize ?? 10 });
  // From the start, not only once the adapter connects (lazily, at Prisma's first query): `hotQuery`
  // may use the pool first. And on every connection, checked out or idle.
  pool.on('error', onError);
  pool.on('connect', (client) => client.on('error', onError));
  const adapter = new PrismaPg(pool, { onPoolError: onError, onConnectionError: onError, disposeExternalPool: true });
  const db = new PrismaClient({ adapter });
  pools.set(db, pool);
  return db;
}

/**
 * Closes a client made by createDb and waits for its connections to be closed: pg's `Pool.end()`
 * (which `$disconnect` calls) resolves once it has asked each connection to end, not once they
 * have, and an embedded PostgreSQL stopped right after would cut them off, each cut logged as a
 * lost connection.
 */
export async function closeDb(db: Db): Promise<void> {
  const pool = pools.get(db);
  let open = pool?.totalCount ?? 0;
  const closed = new Promise<void>((resolve) => {
    if (!pool || open === 0) return resolve();
    pool.on('remove', () => --open === 0 && resolve());
  });
  await db.$disconnect();
  // The ORM ends the pool only if it ever connected; `hotQuery` alone may have used it.
  if (pool && !pool.ending) await pool.end();
  await closed;
}

/** Result types as the ORM's raw queries give them (pg's defaults differ for these). */
const TYPES = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    switch (oid) {
      case 1114: // timestamp (every DateTime column): stored as UTC, pg alone would read it as local time
        return (v: string) => new Date(`${v.replace(' ', 'T')}Z`);
      case 20: // bigint
        return (v: string) => BigInt(v);
      case 1700: // numeric
        return (v: string) => new Prisma.Decimal(v);
      default:
        return pg.types.getTypeParser(oid, format as 'text');
    }
  },
} as pg.CustomTypesConfig;

const asParam = (v: unknown) => (v instanceof Date ? v.toISOString() : typeof v === 'bigint' ? v.toString() : v);

/**
 * One raw statement straight on the ORM's pool, without the ORM's query runtime (about 0.2 ms of
 * CPU per call, most of what a statement costs the process): for the few statements every chat
 * message runs. Same SQL as `$queryRaw` (a `Prisma.sql` template), rows typed as it types them.
 * A transaction client (not made by createDb) falls back to `$queryRaw`, inside its transaction.
 * Errors are pg's own (`code` is the SQLSTATE): see raw-errors.ts.
 */
export async function hotQuery<T = Record<string, unknown>>(db: Db | Prisma.TransactionClient, sql: Prisma.Sql, opts: { prepared?: boolean } = {}): Promise<T[]> {
  const pool = pools.get(db);
  if (!pool) return db.$queryRaw<T[]>(sql);
  const name = opts.prepared ? preparedName(sql.text) : undefined;
  const res = await pool.query({ text: sql.text, values: sql.values.map(asParam), types: TYPES, ...(name && { name }) });
  return res.rows as T[];
}

const preparedNames = new Map<string, string>();
/**
 * `prepared`: the statement is parsed and planned once per pooled connection (a named statement)
 * instead of on every call: for the few long statements every take or send runs, whose planning
 * costs the database more than running them.
 */
function preparedName(text: string): string {
  let name = preparedNames.get(text);
  if (!name) preparedNames.set(text, (name = `hot_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`));
  return name;
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
