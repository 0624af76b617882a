/**
 * Once per test run: find a PostgreSQL (TEST_DATABASE_URL, the machine's server on 127.0.0.1:5432,
 * or an embedded one), and migrate a template database through the same code path `npm start`
 * uses. Each test file then clones the template (CREATE DATABASE ... TEMPLATE, ~0.1 s).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../src/server/db/embedded';
import { localMigrations, migrate } from '../../src/server/db/migrate';
import { pgConnectionFields, withDatabase } from '../../src/server/db/url';
import { createLogger } from '../../src/server/logger';
import { TEST_DB_PREFIX } from './names';

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
    templateDb: string;
    /** Prefix of this run's databases: concurrent runs on one server never drop each other's. */
    testDbPrefix: string;
  }
}

const logger = createLogger(process.env.TEST_LOG_LEVEL ?? 'warn');

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

async function admin<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client(pgConnectionFields(url));
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

function migrationsHash(): string {
  const h = createHash('sha256');
  for (const m of localMigrations()) h.update(m).update(fs.readFileSync(path.join('prisma/migrations', m, 'migration.sql')));
  return h.digest('hex').slice(0, 10);
}

let embedded: EmbeddedPostgres | undefined;

export async function setup(project: TestProject) {
  let adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    const local = 'postgresql://postgres@127.0.0.1:5432/postgres';
    if (await canConnect(local)) adminUrl = local;
    else {
      embedded = await startEmbeddedPostgres({ dir: path.resolve('.data/test-postgres'), port: 54339, logger });
      adminUrl = withDatabase(embedded.url, 'postgres');
    }
  }

  // The template's name carries the migrations' hash: unchanged migrations reuse it across runs.
  const templateDb = `atende_template_${migrationsHash()}`;
  const exists = await admin(adminUrl, async (c) => (await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [templateDb])).rowCount);
  if (!exists) {
    // Templates of other migration sets stay: another run on this server may be cloning one.
    await admin(adminUrl, async (c) => {
      await c.query(`DROP DATABASE IF EXISTS "${templateDb}_partial" WITH (FORCE)`);
      await c.query(`CREATE DATABASE "${templateDb}_partial"`);
    });
    // Migrate under a temporary name and rename when done, so an interrupted run never leaves a
    // half-migrated template behind.
    await migrate(withDatabase(adminUrl, `${templateDb}_partial`), logger);
    await admin(adminUrl, (c) => c.query(`ALTER DATABASE "${templateDb}_partial" RENAME TO "${templateDb}"`));
  }

  project.provide('pgAdminUrl', adminUrl);
  project.provide('templateDb', templateDb);
  const runPrefix = `${TEST_DB_PREFIX}${process.pid}_`;
  project.provide('testDbPrefix', runPrefix);

  return async () => {
    await admin(adminUrl!, async (c) => {
      const dbs = await c.query(`SELECT datname FROM pg_database WHERE datname LIKE '${runPrefix}%'`);
      for (const row of dbs.rows) await c.query(`DROP DATABASE IF EXISTS "${row.datname}" WITH (FORCE)`);
    });
    await embedded?.stop();
  };
}
