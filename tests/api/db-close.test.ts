/**
 * Stopping the app closes its database connections before it stops an embedded PostgreSQL:
 * closeDb returns once every connection has ended, not once each was asked to (pg's Pool.end), so
 * a shutdown no longer logs each cut connection as lost. And the prepared hot statements run on
 * connections of their own, where PostgreSQL plans them once.
 */
import pg from 'pg';
import { expect, it } from 'vitest';
import { closeDb, createDb, hotQuery, Prisma } from '../../src/server/db/client';
import { pgConnectionFields } from '../../src/server/db/url';
import { createTestDatabase } from '../helpers/db';

/** A connection of its own, opened beforehand, so that it asks at once after the close. */
async function observe(url: string) {
  const observer = new pg.Client(pgConnectionFields(url));
  await observer.connect();
  return {
    alive: async (pids: number[]) =>
      (await observer.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE pid = ANY($1::int[])', [pids])).rows[0]!.n,
    /** What a PostgreSQL stopping does to the connections left: cuts them. */
    terminate: (pids: number[]) => observer.query('SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid', [pids]),
    end: () => observer.end(),
  };
}

it('closes every connection, the ORM’s and the raw ones, before it returns', async () => {
  const url = await createTestDatabase();
  const lost: Error[] = [];
  const db = createDb(url, { poolSize: 3, onError: (err) => lost.push(err) });
  // Three at once: three connections.
  const pids = await Promise.all(
    [0, 1, 2].map(async () => (await hotQuery<{ pid: number }>(db, Prisma.sql`SELECT pg_backend_pid() AS pid, pg_sleep(0.1)`))[0]!.pid),
  );
  // And the prepared statements' own connection.
  const [prepared] = await hotQuery<{ pid: number }>(db, Prisma.sql`SELECT pg_backend_pid() AS pid`, { prepared: true });
  pids.push(prepared!.pid);
  await db.user.count();
  expect(new Set(pids).size).toBe(4);
  const observer = await observe(url);
  expect(await observer.alive(pids)).toBe(4);

  await closeDb(db);
  await observer.terminate(pids);
  expect(await observer.alive(pids)).toBe(0);
  expect(lost).toEqual([]);
  await observer.end();
});

it('closes a pool only raw statements used (the ORM never connected)', async () => {
  const url = await createTestDatabase();
  const db = createDb(url, { poolSize: 2 });
  const [{ pid }] = await hotQuery<{ pid: number }>(db, Prisma.sql`SELECT pg_backend_pid() AS pid`);
  const observer = await observe(url);
  await closeDb(db);
  expect(await observer.alive([pid!])).toBe(0);
  await observer.end();
});

it('plans the prepared hot statements once (the generic plan), and leaves the ORM’s to PostgreSQL', async () => {
  const db = createDb(await createTestDatabase(), { poolSize: 2 });
  const mode = Prisma.sql`SELECT current_setting('plan_cache_mode') AS mode`;
  expect(await hotQuery(db, mode, { prepared: true })).toEqual([{ mode: 'force_generic_plan' }]);
  expect(await hotQuery(db, mode)).toEqual([{ mode: 'auto' }]);
  expect(await db.$queryRaw(mode)).toEqual([{ mode: 'auto' }]);
  // A prepared statement whose array decides how many rows it finds: the generic plan answers the
  // same as any plan would.
  const many = (n: number) => Prisma.sql`SELECT count(*)::int AS n FROM unnest(${Array.from({ length: n }, (_, i) => i)}::int[]) x WHERE x >= 0`;
  for (const n of [1, 3, 200]) expect(await hotQuery(db, many(n), { prepared: true })).toEqual([{ n }]);
  await closeDb(db);
});
