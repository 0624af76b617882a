/**
 * The session and membership lookups of requests arriving together are read in one statement each
 * (src/server/db/batch.ts). Each caller must still get exactly their own answer: their user, their
 * membership as it is now (a blocked member refused, another company's member not let in).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batched } from '../../src/server/db/batch';
import { addMember, createCompany, createUser, signIn } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/server';
import { callProcedure } from '../helpers/trpc';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

describe('lookups gathered per turn of the event loop', () => {
  it('answers each of many simultaneous callers as themselves', async () => {
    const db = server.db;
    const owner = await createUser(db);
    const [a, b] = [await createCompany(db, owner.id), await createCompany(db, owner.id)];
    const people = await Promise.all(Array.from({ length: 12 }, () => createUser(db)));
    // 0-3 members of A, 4-7 members of B, 8-9 blocked in A, 10-11 no company.
    await Promise.all(people.slice(0, 4).map((p) => addMember(db, a.id, p.id)));
    await Promise.all(people.slice(4, 8).map((p) => addMember(db, b.id, p.id)));
    await Promise.all(people.slice(8, 10).map((p) => addMember(db, a.id, p.id, { blocked: true })));
    const cookies = await Promise.all(people.map((p) => signIn(db, p.id)));
    const calls: Promise<{ kind: 'me' | 'a'; i: number; r: Awaited<ReturnType<typeof callProcedure>> }>[] = people.flatMap((p, i) => [
      callProcedure(server.url, 'auth.me', {}, { cookie: cookies[i] }).then((r) => ({ kind: 'me' as const, i, r })),
      callProcedure(server.url, 'service.queueCount', { domain: a.domain }, { cookie: cookies[i] }).then((r) => ({ kind: 'a' as const, i, r })),
    ]);
    calls.push(callProcedure(server.url, 'auth.me', {}, { cookie: 'atende_sid=nope' }).then((r) => ({ kind: 'me' as const, i: -1, r })));
    for (const { kind, i, r } of await Promise.all(calls)) {
      if (kind === 'me') {
        expect((r.data as { user: { id: string } | null }).user?.id ?? null).toBe(i < 0 ? null : people[i]!.id);
      } else if (i < 4) expect(r.error).toBeUndefined();
      else if (i < 8 || i >= 10) expect(r.error?.code).toBe('FORBIDDEN');
      else expect(r.error?.message).toBe('You no longer have access to this organization!');
    }
  });

  it('reads a key asked twice in one turn once, and fails every caller of a failed read', async () => {
    const reads: string[][] = [];
    const lookup = batched(async (keys: string[]) => {
      reads.push(keys);
      return new Map(keys.map((k) => [k, k.toUpperCase()]));
    }, (k: string) => k);
    expect(await Promise.all([lookup('a'), lookup('b'), lookup('a')])).toEqual(['A', 'B', 'A']);
    expect(reads).toEqual([['a', 'b']]);
    expect(await lookup('c')).toBe('C');
    expect(reads).toHaveLength(2);
    const failing = batched(async () => {
      throw new Error('database gone');
    }, (k: string) => k);
    const results = await Promise.allSettled([failing('x'), failing('y')]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });
});
