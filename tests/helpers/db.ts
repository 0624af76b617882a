import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { pgConnectionFields, withDatabase } from '../../src/server/db/url';


/** A fresh, migrated database of its own (a clone of the run's template). Returns its URL. */
export async function createTestDatabase(): Promise<string> {
  const adminUrl = inject('pgAdminUrl');
  const name = `${inject('testDbPrefix')}${randomBytes(6).toString('hex')}`;
  const client = new pg.Client(pgConnectionFields(adminUrl));
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name}" TEMPLATE "${inject('templateDb')}"`);
  } finally {
    await client.end();
  }
  return withDatabase(adminUrl, name);
}
