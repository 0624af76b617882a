import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { Logger } from 'pino';
import { pgConnectionFields } from './url';
import { ROOT } from '../paths';

const root = ROOT;
const migrationsDir = path.join(root, 'prisma/migrations');

export function localMigrations(): string[] {
  return fs
    .readdirSync(migrationsDir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}

async function appliedMigrations(url: string): Promise<Set<string>> {
  const client = new pg.Client(pgConnectionFields(url));
  await client.connect();
  try {
    const table = await client.query(`SELECT to_regclass('public._prisma_migrations') AS t`);
    if (!table.rows[0].t) return new Set();
    const rows = await client.query(
      `SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    return new Set(rows.rows.map((r) => r.migration_name as string));
  } finally {
    await client.end();
  }
}

/**
 * Brings the database to the latest schema with `prisma migrate deploy` — the one code path used
 * by `npm start`, the Docker image and the test template. The JavaScript schema engine takes about
 * 10 s even with nothing to do, so a database that already has every migration is left alone.
 */
export async function migrate(url: string, logger: Logger): Promise<{ applied: boolean }> {
  const applied = await appliedMigrations(url);
  const pending = localMigrations().filter((m) => !applied.has(m));
  if (pending.length === 0) {
    logger.debug('database schema is up to date');
    return { applied: false };
  }
  logger.info({ pending }, 'applying database migrations');
  const prismaCli = path.join(root, 'node_modules/prisma/build/index.js');
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [prismaCli, 'migrate', 'deploy'], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: url },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`prisma migrate deploy failed (exit ${code}):\n${output.trim()}`)),
    );
  });
  return { applied: true };
}
