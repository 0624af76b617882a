import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { Logger } from 'pino';
import { pgConnectionFields } from './url';
import { ROOT } from '../paths';

const migrationsDir = path.join(ROOT, 'prisma/migrations');

/** The lock `prisma migrate deploy` takes: our runner and Prisma's never migrate one database at once. */
const PRISMA_MIGRATE_LOCK = 72707369;

/** Prisma's migrations table, as its schema engine creates it on PostgreSQL (byte for byte). */
const CREATE_MIGRATIONS_TABLE = `CREATE TABLE _prisma_migrations (
    id                      VARCHAR(36) PRIMARY KEY NOT NULL,
    checksum                VARCHAR(64) NOT NULL,
    finished_at             TIMESTAMPTZ,
    migration_name          VARCHAR(255) NOT NULL,
    logs                    TEXT,
    rolled_back_at          TIMESTAMPTZ,
    started_at              TIMESTAMPTZ NOT NULL DEFAULT now(),
    applied_steps_count     INTEGER NOT NULL DEFAULT 0
)`;

export function localMigrations(): string[] {
  return fs
    .readdirSync(migrationsDir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}

/**
 * A migration's statements, split the way @prisma/adapter-pg's executeScript splits them (at every
 * semicolon, quoted or not: hence `\073` inside function bodies), so a file behaves here exactly
 * as under `prisma migrate deploy`: each statement on its own, in autocommit.
 */
export function migrationStatements(script: string): string[] {
  return script
    .split(';')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

async function appliedMigrations(client: pg.Client): Promise<Set<string> | null> {
  const table = await client.query(`SELECT to_regclass('public._prisma_migrations') AS t`);
  if (!table.rows[0].t) return null;
  const rows = await client.query(`SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`);
  return new Set(rows.rows.map((r) => r.migration_name as string));
}

/**
 * Brings the database to the latest schema: what `prisma migrate deploy` does, without starting
 * Prisma's schema engine (JavaScript + WebAssembly, ~10 s of CPU even for an empty database: most
 * of a first start). The one code path used by `npm start`, the Docker image and the test
 * template. Each pending migration's migration.sql runs statement by statement as Prisma's adapter
 * runs it, and is recorded in `_prisma_migrations` as Prisma records it (same table, SHA-256
 * checksum of the file, started/finished times, one applied step; the error in `logs` on failure),
 * under Prisma's advisory lock, so `prisma migrate status` and `prisma migrate deploy` agree
 * (tests/api/migrations.test.ts). Like Prisma, it refuses a database with a failed migration or a
 * non-empty schema it never migrated.
 */
export async function migrate(url: string, logger: Logger): Promise<{ applied: boolean }> {
  const client = new pg.Client(pgConnectionFields(url));
  await client.connect();
  try {
    const before = await appliedMigrations(client);
    if (before && localMigrations().every((m) => before.has(m))) {
      logger.debug('database schema is up to date');
      return { applied: false };
    }
    const t0 = performance.now();
    await client.query('SELECT pg_advisory_lock($1)', [PRISMA_MIGRATE_LOCK]);
    try {
      // Another process may have migrated while we waited for the lock: read again under it.
      let applied = await appliedMigrations(client);
      if (!applied) {
        const tables = await client.query(`SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'`);
        if (tables.rows[0].n > 0) {
          throw new Error('The database schema is not empty and was never migrated (Prisma P3005): baseline it with `prisma migrate resolve` first.');
        }
        await client.query(CREATE_MIGRATIONS_TABLE);
        applied = new Set();
      }
      const failed = await client.query(`SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NULL AND rolled_back_at IS NULL`);
      if (failed.rowCount) {
        throw new Error(
          `Migration ${failed.rows.map((r) => r.migration_name).join(', ')} failed earlier (Prisma P3009): fix the database, then mark it with \`prisma migrate resolve\`.`,
        );
      }
      const pending = localMigrations().filter((m) => !applied.has(m));
      if (pending.length === 0) return { applied: false };
      logger.info({ pending: pending.length }, 'applying database migrations');
      // A crash loses at most the last commits, in order: a prefix of the statements stays, which
      // the row written before them marks as a failed migration, as a crash under Prisma would.
      await client.query('SET synchronous_commit = off');
      for (const name of pending) await applyOne(client, name);
      await client.query('RESET synchronous_commit');
      logger.info({ phase: 'migrations', migrations: pending.length, ms: Math.round(performance.now() - t0) }, 'database migrations applied');
      return { applied: true };
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [PRISMA_MIGRATE_LOCK]).catch(() => undefined);
    }
  } finally {
    await client.end();
  }
}

async function applyOne(client: pg.Client, name: string) {
  const file = fs.readFileSync(path.join(migrationsDir, name, 'migration.sql'));
  const id = randomUUID();
  const checksum = createHash('sha256').update(file).digest('hex');
  await client.query('INSERT INTO _prisma_migrations (id, checksum, started_at, migration_name) VALUES ($1, $2, $3, $4)', [id, checksum, new Date(), name]);
  try {
    for (const statement of migrationStatements(file.toString('utf8'))) await client.query(statement);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    await client.query('UPDATE _prisma_migrations SET logs = $1 WHERE id = $2', [message, id]);
    throw new Error(`Migration ${name} failed: ${message}`, { cause: err });
  }
  await client.query('UPDATE _prisma_migrations SET finished_at = $1, applied_steps_count = applied_steps_count + 1 WHERE id = $2', [new Date(), id]);
}
