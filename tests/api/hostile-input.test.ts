/**
 * Hostile input, property-based (fast-check): every procedure of the app router, called over real
 * HTTP by a signed-in admin with generated junk — wrong types, huge and odd unicode strings,
 * negative and non-finite numbers, SQL and HTML in strings, real ids of another company — never
 * answers a 500, never shows a stack trace, and a refused call never writes a row.
 *
 * The runs are bounded (RUNS per procedure) and the seed is fixed so CI is deterministic; set
 * FC_SEED to explore other inputs and FC_RUNS to try harder locally.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRouter } from '../../src/server/router';
import { listProcedures } from '../helpers/procedures';
import { budget } from '../helpers/time';
import { startTestServer, type TestServer } from '../helpers/server';
import { anonymousVisitor, serviceCompany, type ClientSocket } from '../helpers/service';
import { signIn } from '../helpers/fixtures';
import { callProcedure, type TrpcResult } from '../helpers/trpc';

const RUNS = Number(process.env.FC_RUNS ?? 10);
const SEED = Number(process.env.FC_SEED ?? 20261123);

let server: TestServer;
const sockets: ClientSocket[] = [];
/**
 * Tables a refused call must leave alone. Left out: RateLimit (counting refused attempts is its
 * job), and what timers write on their own schedule while the test runs — the unread-messages
 * e-mails (OutboxMessage, every minute), the queue alarm's claims (QueueAlarm), presence.
 */
let tables: string[] = [];
let own: Awaited<ReturnType<typeof serviceCompany>>;
let ids: string[] = [];

beforeAll(async () => {
  server = await startTestServer();
  own = await serviceCompany(server, sockets);
  const victim = await serviceCompany(server, sockets);
  // Rows of both companies, so generated inputs name real things: the caller's own (reaching the
  // services' rules) and another company's (which must stay out of reach).
  for (const c of [own, victim]) {
    const member = await c.attendant('Marta', { groupIds: [c.group('member')] });
    const { conversationId } = await c.admin.call('chat.startDirect', { domain: c.domain, userId: member.userId });
    const msg = await c.admin.call('chat.send', { domain: c.domain, conversationId, clientId: 'seed', text: 'olá' });
    const v = await anonymousVisitor(server, sockets);
    const req = await v.call('customer.request', { domain: c.domain, queueKey: 'faleconosco', name: 'Vera', text: 'Oi' });
    ids.push(c.company.id, c.admin.userId, member.userId, v.userId, conversationId, req.conversationId, msg.id, c.queue.id, c.group('member'), c.group('admin'));
  }
  ids = [...new Set(ids)];
  const rows = await server.db.$queryRaw<{ tablename: string }[]>`SELECT tablename FROM pg_tables WHERE schemaname = 'public'`;
  const skip = new Set(['RateLimit', 'OutboxMessage', 'QueueAlarm', 'PresenceAnnouncement', '_prisma_migrations', 'socket_io_attachments']);
  tables = rows.map((r) => r.tablename).filter((t) => !skip.has(t)).sort();
}, 60_000);
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await server?.close();
});

async function rowCounts(): Promise<Record<string, number>> {
  const sql = `SELECT ${tables.map((t) => `(SELECT count(*)::int FROM "${t}") AS "${t}"`).join(', ')}`;
  const [row] = await server.db.$queryRawUnsafe<Record<string, number>[]>(sql);
  return row!;
}

/** After a call that succeeded, work it started after answering (pushes, notifications) may still write. */
async function quietCounts(): Promise<Record<string, number>> {
  let last = await rowCounts();
  for (let i = 0; i < 20; i++) {
    await new Promise((r) => setTimeout(r, 25));
    const next = await rowCounts();
    if (JSON.stringify(next) === JSON.stringify(last)) return next;
    last = next;
  }
  return last;
}

// ------------------------------------------------------------------------------------------------
// Junk

const sql = fc.constantFrom(`'; DROP TABLE "User"; --`, `' OR '1'='1`, `1; SELECT pg_sleep(5)`, `"; DELETE FROM "Message"; --`, `%' --`, `\\'`, `$1`, `::uuid`);
const html = fc.constantFrom('<img src=x onerror=alert(1)>', '<script>alert(document.cookie)</script>', '"><svg onload=alert(1)>', 'javascript:alert(1)', '{{7*7}}', '${7*7}');
const oddStrings = fc.constantFrom('', ' ', '\u0000', '\uD800', 'a\u0000b', '\u202Egnp.exe', '🙂'.repeat(400), 'x'.repeat(20_000), '../../etc/passwd', '__proto__', 'constructor', '-1', '1e309', 'NaN', 'null', 'true');
const numbers = fc.oneof(
  fc.integer(),
  fc.constantFrom(-1, 0, -0, -(2 ** 31), 2 ** 31, 2 ** 53, -(2 ** 53), 1e308, 0.5, -0.0001, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY),
  fc.double(),
);
function junkOf(ids: string[]) {
const scalar = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  sql,
  html,
  oddStrings,
  numbers,
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.uuid(),
  fc.date(),
  fc.constantFrom(...ids),
);
const junk = fc.oneof(
  { depthSize: 'small', withCrossShrink: true },
  { arbitrary: scalar, weight: 6 },
  { arbitrary: fc.array(scalar, { maxLength: 4 }), weight: 1 },
  { arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), scalar, { maxKeys: 3 }), weight: 1 },
);
return junk;
}

/**
 * Values of the shape a schema asks for, filled with the nastiest things of that type (SQL, HTML,
 * odd unicode and 20,000-character strings; negative, huge and fractional numbers; real ids of
 * both companies), so inputs get past validation and into the services' rules and queries.
 */
function plausible(schema: any, junk: fc.Arbitrary<unknown>, depth = 0): fc.Arbitrary<unknown> {
  const def = schema?._zod?.def;
  if (!def || depth > 4) return junk;
  const mix = (a: fc.Arbitrary<unknown>) => fc.oneof({ arbitrary: a, weight: 5 }, { arbitrary: junk, weight: 1 });
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
      return fc.oneof(plausible(def.innerType, junk, depth + 1), fc.constant(undefined));
    case 'pipe':
      return plausible(def.in, junk, depth + 1);
    case 'lazy':
      return junk;
    case 'string':
      return schema._zod.bag?.format === 'uuid'
        ? mix(fc.constantFrom(...ids))
        : mix(fc.oneof(sql, html, oddStrings, fc.string({ unit: 'grapheme', maxLength: 60 }), fc.constantFrom(own.domain, 'faleconosco', 'a@b.co')));
    case 'number':
    case 'bigint':
      return mix(fc.oneof(numbers, fc.integer({ min: -5, max: 5 })));
    case 'boolean':
      return mix(fc.boolean());
    case 'date':
      return mix(fc.date());
    case 'enum':
      return mix(fc.constantFrom(...Object.values(def.entries as Record<string, unknown>)));
    case 'literal':
      return mix(fc.constantFrom(...(def.values as unknown[])));
    case 'array':
      return mix(fc.array(plausible(def.element, junk, depth + 1), { maxLength: 3 }));
    case 'union':
      return fc.oneof(...(def.options as unknown[]).map((o) => plausible(o, junk, depth + 1)));
    case 'record':
      return mix(fc.dictionary(fc.string({ maxLength: 6 }), plausible(def.valueType, junk, depth + 1), { maxKeys: 3 }));
    case 'object':
      return mix(fc.record(Object.fromEntries(Object.entries(def.shape as Record<string, unknown>).map(([k, v]) => [k, plausible(v, junk, depth + 1)]))));
    default:
      return junk;
  }
}

/** The merged input schemas of one procedure (member procedures add `domain` to their own). */
function shapeOf(path: string): Record<string, unknown> {
  const inputs = ((appRouter._def.procedures as Record<string, any>)[path]?._def.inputs ?? []) as any[];
  return Object.assign({}, ...inputs.map((i) => i?._zod?.def?.shape ?? {}));
}

/**
 * An input for a procedure: its own keys with values of their type but hostile content, or with
 * plain junk (a real id now and then), or not an object at all.
 */
function inputFor(path: string, keys: string[]) {
  const junk = junkOf(ids);
  const shape = shapeOf(path);
  const typed = fc.record(
    Object.fromEntries(
      Object.entries(shape).map(([k, v]) => [k, k === 'domain' ? fc.oneof({ arbitrary: fc.constant(own.domain), weight: 8 }, { arbitrary: junk, weight: 1 }) : plausible(v, junk)]),
    ),
  );
  const idLike = fc.oneof(fc.constantFrom(...ids), junk);
  const domain = fc.oneof({ arbitrary: fc.constant(own.domain), weight: 6 }, { arbitrary: junk, weight: 1 });
  const record = fc.record(
    Object.fromEntries(keys.map((k) => [k, k === 'domain' ? domain : /id$/i.test(k) ? idLike : fc.oneof(junk, fc.constantFrom(...ids))])),
    { requiredKeys: keys.includes('domain') ? ['domain'] : [] },
  );
  return fc.oneof({ arbitrary: typed, weight: 6 }, { arbitrary: record, weight: 3 }, { arbitrary: junk, weight: 1 });
}

const STACK = /\bat [\w.<>]+ \(|\.ts:\d+:\d+|node_modules|\/src\/server\//;

describe('hostile input across the whole app router', () => {
  const procedures = listProcedures(appRouter).filter((p) => p.type !== 'subscription');

  it(`${procedures.length} procedures x ${RUNS} junk inputs: no 500, no stack trace, no row written by a refused call`, async () => {
    const problems: string[] = [];
    const stats = new Map<string, number>();
    let counts = await rowCounts();
    let cookie = await signIn(server.db, own.admin.userId);
    for (const p of procedures) {
      await fc
        .assert(
          fc.asyncProperty(inputFor(p.path, p.inputKeys), async (input) => {
            const res: TrpcResult = await callProcedure(server.url, p.path, input, { cookie, type: p.type === 'mutation' ? 'mutation' : 'query' });
            stats.set(`${res.status} ${res.error?.code ?? 'ok'}`, (stats.get(`${res.status} ${res.error?.code ?? 'ok'}`) ?? 0) + 1);
            const after = res.error || res.status >= 400 ? await rowCounts() : await quietCounts();
            try {
              if (res.status >= 500 || res.error?.code === 'INTERNAL_SERVER_ERROR') throw new Error(`answered ${res.status} ${res.error?.code}: ${res.error?.message}`);
              if (STACK.test(res.raw)) throw new Error(`shows a stack trace: ${res.raw.slice(0, 300)}`);
              if (res.error || res.status >= 400) {
                const written = tables.filter((t) => after[t] !== counts[t]).map((t) => `${t} ${counts[t]} -> ${after[t]}`);
                if (written.length) throw new Error(`refused (${res.error?.code ?? res.status}) yet changed rows: ${written.join(', ')}`);
              }
            } finally {
              counts = after;
              // A junk call that signed the caller out (auth.signOut, account.revokeSession) must not blind the rest.
              if (!res.error && /signOut|revokeSession/.test(p.path)) cookie = await signIn(server.db, own.admin.userId);
              if (!res.error) counts = await quietCounts();
            }
          }),
          { numRuns: RUNS, seed: SEED, endOnFailure: true },
        )
        .catch((err: Error) => {
          const lines = err.message.split('\n');
          const counterexample = lines.find((l) => l.startsWith('Counterexample')) ?? '';
          // fast-check keeps the property's own error as the cause; its message says what went wrong.
          const cause = (err as Error & { cause?: unknown }).cause;
          const why = cause instanceof Error ? cause.message : (lines.find((l) => /answered|stack trace|changed rows/.test(l)) ?? lines.slice(0, 3).join(' '));
          problems.push(`${p.path}: ${why.trim().slice(0, 400)} | ${counterexample.slice(0, 400)}`);
        });
    }
    if (process.env.FC_STATS) console.info([...stats].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k}: ${n}`).join('\n'));
    expect(problems).toEqual([]);
  }, budget(180_000));
});
