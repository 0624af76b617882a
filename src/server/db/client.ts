import { createHash } from 'node:crypto';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { Prisma, PrismaClient } from '../../generated/prisma/client';
import { pgConnectionFields } from './url';

export type Db = InstanceType<typeof PrismaClient>;
export { Prisma } from '../../generated/prisma/client';

/**
 * The pg pools under each client made by createDb: `orm`, the ORM's own connections (also
 * `hotQuery`'s unprepared statements), and `prepared`, connections of their own for
 * `hotQuery`'s prepared statements, where PostgreSQL always runs the generic plan (see HOT_OPTIONS).
 */
const pools = new WeakMap<object, { orm: pg.Pool; prepared: pg.Pool }>();

/**
 * The prepared hot statements take arrays (one element per send or attempt of the batch). Under
 * the default `plan_cache_mode = auto` PostgreSQL plans such a statement again at every bind: the
 * custom plan knows the arrays' lengths, so its estimate always beats the generic one, and that
 * planning cost more than running the statement (the send's read: bind 1.42 ms, execute 0.28 ms;
 * the take's claim ~5 ms per bind; docs/performance.md sections 25 and 26). Forcing the generic plan is
 * right for these statements only: every one of them finds its rows by index from the arrays'
 * elements. The ORM's statements keep `auto` on their own pool (pg applies the setting to unnamed
 * statements too, where a custom plan is usually the better one).
 */
const HOT_OPTIONS = '-c plan_cache_mode=force_generic_plan';

/**
 * `onError`: a pooled connection the server closed (a restart, a failover, the database dropped).
 * Without a listener pg throws it as an uncaught exception and takes the process down; the next
 * query fails on its own and /healthz says so, so a log line is all it needs.
 * The pool is made here and handed to the adapter, so `hotQuery` can use the same connections.
 */
export function createDb(url: string, opts: { poolSize?: number; onError?: (err: Error) => void } = {}): Db {
  const onError = opts.onError ?? (() => {});
  const poolSize = opts.poolSize ?? 10;
  const pool = new pg.Pool({ ...pgConnectionFields(url), max: poolSize });
  // As many as the ORM's: a group-commit batch waiting for a row lock holds its connection, and the
  // next turn's reads must still find one (pg opens them only when that many are busy at once).
  const prepared = new pg.Pool({ ...pgConnectionFields(url), max: poolSize, options: HOT_OPTIONS });
  // From the start, not only once the adapter connects (lazily, at Prisma's first query): `hotQuery`
  // may use the pool first. And on every connection, checked out or idle.
  for (const p of [pool, prepared]) {
    p.on('error', onError);
    p.on('connect', (client) => client.on('error', onError));
  }
  const adapter = new PrismaPg(pool, { onPoolError: onError, onConnectionError: onError, disposeExternalPool: true });
  const db = new PrismaClient({ adapter });
  pools.set(db, { orm: pool, prepared });
  return db;
}

/**
 * Closes a client made by createDb and waits for its connections to be closed: pg's `Pool.end()`
 * (which `$disconnect` calls) resolves once it has asked each connection to end, not once they
 * have, and an embedded PostgreSQL stopped right after would cut them off, each cut logged as a
 * lost connection.
 */
export async function closeDb(db: Db): Promise<void> {
  const both = pools.get(db);
  const all = both ? [both.orm, both.prepared] : [];
  const closed = all.map(
    (pool) =>
      new Promise<void>((resolve) => {
        let open = pool.totalCount;
        if (open === 0) return resolve();
        pool.on('remove', () => --open === 0 && resolve());
      }),
  );
  await db.$disconnect();
  // The ORM ends its pool only if it ever connected; `hotQuery` alone may have used it.
  for (const pool of all) if (!pool.ending) await pool.end();
  await Promise.all(closed);
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
  const both = pools.get(db);
  if (!both) return db.$queryRaw<T[]>(sql);
  const query = { text: sql.text, values: sql.values.map(asParam), types: TYPES };
  const res = opts.prepared ? await both.prepared.query({ ...query, name: preparedName(sql.text) }) : await both.orm.query(query);
  return res.rows as T[];
}

const preparedNames = new Map<string, string>();
/**
 * `prepared`: the statement is parsed once per pooled connection (a named statement) and planned
 * once (HOT_OPTIONS) instead of on every call: for the few long statements every take or send
 * runs, whose parsing and planning cost the database more than running them.
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
