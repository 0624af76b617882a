/**
 * The PostgreSQL a benchmark runs against: BENCH_PG_ADMIN_URL (the quick test passes its own),
 * TEST_DATABASE_URL, the machine's server on 127.0.0.1:5432, or an embedded one. Every benchmark
 * gets a fresh database cloned from a migrated template (the same template name the tests use, so
 * a machine that ran the tests already has it), and drops it when done.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../src/server/db/embedded';
import { localMigrations, migrate } from '../../src/server/db/migrate';
import { pgConnectionFields, withDatabase } from '../../src/server/db/url';
import { createLogger } from '../../src/server/logger';

const logger = createLogger('warn');
let embedded: EmbeddedPostgres | undefined;
let cached: { adminUrl: string; templateDb: string } | undefined;

export async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client(pgConnectionFields(url));
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function canConnect(url: string): Promise<boolean> {
  const client = new pg.Client({ ...pgConnectionFields(url), connectionTimeoutMillis: 1500 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

function migrationsHash(): string {
  const h = createHash('sha256');
  for (const m of localMigrations()) h.update(m).update(fs.readFileSync(path.join('prisma/migrations', m, 'migration.sql')));
  return h.digest('hex').slice(0, 10);
}

async function postgres() {
  if (cached) return cached;
  let adminUrl = process.env.BENCH_PG_ADMIN_URL ?? process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    const local = 'postgresql://postgres@127.0.0.1:5432/postgres';
    if (await canConnect(local)) adminUrl = local;
    else {
      embedded = await startEmbeddedPostgres({ dir: path.resolve('.data/bench-postgres'), port: 54349, logger });
      adminUrl = withDatabase(embedded.url, 'postgres');
    }
  }
  const templateDb = process.env.BENCH_TEMPLATE_DB ?? `atende_template_${migrationsHash()}`;
  const exists = await withClient(adminUrl, async (c) => (await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [templateDb])).rowCount);
  if (!exists) {
    // Same dance as tests/helpers/global-setup.ts: migrate under a temporary name, then rename.
    await withClient(adminUrl, async (c) => {
      await c.query(`DROP DATABASE IF EXISTS "${templateDb}_partial" WITH (FORCE)`);
      await c.query(`CREATE DATABASE "${templateDb}_partial"`);
    });
    await migrate(withDatabase(adminUrl, `${templateDb}_partial`), logger);
    await withClient(adminUrl, (c) => c.query(`ALTER DATABASE "${templateDb}_partial" RENAME TO "${templateDb}"`));
  }
  cached = { adminUrl, templateDb };
  return cached;
}

export interface FreshDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** A fresh, migrated database of the benchmark's own. */
export async function freshDatabase(): Promise<FreshDatabase> {
  const { adminUrl, templateDb } = await postgres();
  const name = `atende_bench_${process.pid}_${randomBytes(4).toString('hex')}`;
  await withClient(adminUrl, (c) => c.query(`CREATE DATABASE "${name}" TEMPLATE "${templateDb}"`));
  return {
    url: withDatabase(adminUrl, name),
    name,
    drop: () => withClient(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined),
  };
}

/** The PostgreSQL server's version line, for the results. */
export async function postgresVersion(): Promise<string> {
  const { adminUrl } = await postgres();
  return withClient(adminUrl, async (c) => (await c.query('SHOW server_version')).rows[0].server_version as string);
}

export async function stopPostgres() {
  await embedded?.stop();
  embedded = undefined;
  cached = undefined;
}
