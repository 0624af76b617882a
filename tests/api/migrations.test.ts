import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { localMigrations, migrate } from '../../src/server/db/migrate';
import { pgConnectionFields } from '../../src/server/db/url';
import { createLogger } from '../../src/server/logger';
import { createTestDatabase } from '../helpers/db';

describe('migrations', () => {
  it('bring an empty database to the schema through the path npm start uses, then do nothing', async () => {
    const url = await createTestDatabase();
    const client = new pg.Client(pgConnectionFields(url));
    await client.connect();
    // Start from nothing: the template is already migrated, so empty this clone first.
    await client.query('DROP SCHEMA public CASCADE; CREATE SCHEMA public');
    const logger = createLogger('silent');

    expect(await migrate(url, logger)).toEqual({ applied: true });
    const tables = await client.query(`SELECT tablename FROM pg_tables WHERE schemaname = 'public'`);
    expect(tables.rows.map((r) => r.tablename)).toEqual(
      expect.arrayContaining(['User', 'Session', 'Company', 'Member', 'Invite', 'AppConfig', '_prisma_migrations']),
    );
    const applied = await client.query('SELECT migration_name FROM _prisma_migrations');
    expect(applied.rows.map((r) => r.migration_name).sort()).toEqual(localMigrations());
    const config = await client.query('SELECT "minimalVersion", "verifyEmail" FROM "AppConfig" WHERE id = 1');
    expect(config.rows).toEqual([{ minimalVersion: '0.0.0', verifyEmail: false }]);

    expect(await migrate(url, logger)).toEqual({ applied: false });
    await client.end();
  }, 90_000);

  it('are recorded as `prisma migrate deploy` records them: Prisma sees the database up to date', async () => {
    const url = await createTestDatabase();
    const client = new pg.Client(pgConnectionFields(url));
    await client.connect();
    await client.query('DROP SCHEMA public CASCADE; CREATE SCHEMA public');
    expect(await migrate(url, createLogger('silent'))).toEqual({ applied: true });
    const rows = await client.query('SELECT * FROM _prisma_migrations ORDER BY migration_name');
    expect(rows.rows.map((r) => r.migration_name)).toEqual(localMigrations());
    for (const row of rows.rows) {
      const file = fs.readFileSync(`prisma/migrations/${row.migration_name}/migration.sql`);
      expect(row).toMatchObject({ checksum: createHash('sha256').update(file).digest('hex'), logs: null, rolled_back_at: null, applied_steps_count: 1 });
      expect(row.finished_at.getTime()).toBeGreaterThanOrEqual(row.started_at.getTime());
    }
    await client.end();

    // Prisma's own CLI (its schema engine) reads our records: nothing pending, nothing to apply.
    const prisma = (...args: string[]) =>
      spawnSync(process.execPath, ['node_modules/prisma/build/index.js', ...args], { env: { ...process.env, DATABASE_URL: url }, encoding: 'utf8' });
    const status = prisma('migrate', 'status');
    expect(status.stdout).toContain('Database schema is up to date!');
    expect(status.status).toBe(0);
    const deploy = prisma('migrate', 'deploy');
    expect(deploy.stdout).toContain('No pending migrations to apply.');
    expect(deploy.status).toBe(0);
  }, 120_000);

  it('refuse a database with a failed migration, as Prisma does', async () => {
    const url = await createTestDatabase();
    const client = new pg.Client(pgConnectionFields(url));
    await client.connect();
    const last = localMigrations().at(-1)!;
    await client.query('UPDATE _prisma_migrations SET finished_at = NULL WHERE migration_name = $1', [last]);
    await expect(migrate(url, createLogger('silent'))).rejects.toThrow(/P3009/);
    await client.end();
  });

  it('produce exactly the schema in prisma/schema (no model changed without its migration)', () => {
    // The schema is one file per module and several branches change it at once: a model edited
    // without its migration (or a migration that drifts from its model) fails here, not in production.
    const diff = spawnSync('sh', ['scripts/db-diff.sh', '--exit-code'], {
      env: { ...process.env, DATABASE_URL: inject('pgAdminUrl') },
      encoding: 'utf8',
    });
    expect(diff.stdout.trim()).toBe('-- This is an empty migration.');
    expect(diff.status).toBe(0);
  }, 90_000);
});
