import { spawnSync } from 'node:child_process';
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
