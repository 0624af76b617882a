import { randomUUID } from 'node:crypto';
import superjson from 'superjson';
import type { Db } from '../../src/server/db/client';
import { createSession, SESSION_COOKIE } from '../../src/server/modules/identity/sessions';

/** One tRPC call over real HTTP, as the browser makes it (superjson, no batching). */
export async function trpc<T = any>(url: string, path: string, input: unknown, opts: { cookie?: string; type?: 'query' | 'mutation' } = {}) {
  const payload = JSON.stringify(superjson.serialize(input));
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(opts.cookie && { cookie: opts.cookie }) };
  const res =
    opts.type === 'query'
      ? await fetch(`${url}/trpc/${path}?input=${encodeURIComponent(payload)}`, { headers })
      : await fetch(`${url}/trpc/${path}`, { method: 'POST', headers, body: payload });
  const body = (await res.json()) as any;
  if (body.error) {
    const e = body.error.json ?? body.error;
    return { ok: false as const, status: res.status, code: e.data?.code as string, message: e.message as string };
  }
  return { ok: true as const, status: res.status, data: superjson.deserialize(body.result.data) as T };
}

/** Users with sessions, inserted directly (setup is not what is measured). */
export async function usersWithSessions(db: Db, n: number, prefix: string) {
  const ids = Array.from({ length: n }, () => randomUUID());
  await db.user.createMany({ data: ids.map((id, i) => ({ id, name: `${prefix} ${i}`, email: `${prefix.toLowerCase().replace(/\W/g, '')}-${i}-${id.slice(0, 8)}@example.test` })) });
  const now = new Date();
  const out: { id: string; cookie: string }[] = [];
  for (let i = 0; i < ids.length; i += 50) {
    out.push(
      ...(await Promise.all(ids.slice(i, i + 50).map(async (id) => ({ id, cookie: `${SESSION_COOKIE}=${(await createSession(db, id, { userAgent: 'bench' }, now)).token}` })))),
    );
  }
  return out;
}

/** Runs `fn` over `items` with at most `n` at a time. */
export async function pool<T, R>(items: T[], n: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!, i);
      }
    }),
  );
  return out;
}
