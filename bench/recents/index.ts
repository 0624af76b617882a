/**
 * recents: one user with 10,000 conversations holding 1,000,000 messages in one company, bulk
 * loaded with generate_series (not through the API). p50/p99 of the recents list, a
 * conversation's first page and a search, called through tRPC like the browser does, against
 * EXPLAIN ANALYZE of the very statements those calls sent (captured at the driver): the database's
 * own floor, and what the rest (HTTP, tRPC, session and membership checks, Prisma) adds.
 */
import pg from 'pg';
import { pgConnectionFields } from '../../src/server/db/url';
import { captureSql, explainAnalyze, planNodes, type Statement } from '../lib/capture';
import { trpc, usersWithSessions } from '../lib/http';
import { startBenchServer, type BenchServer } from '../lib/server';
import { fmt, ratio, summarize, type Benchmark } from '../lib/stats';

const AREAS = ['Vendas', 'Suporte', 'Financeiro', 'Logística', 'Marketing', 'Compras', 'Jurídico', 'Diretoria'];

async function load(server: BenchServer, conversations: number, perConversation: number, others: number, log: (m: string) => void) {
  const db = server.db;
  const [me] = await usersWithSessions(db, 1, 'Maria Recente');
  const people = await usersWithSessions(db, others, 'Colega');
  const company = await db.company.create({ data: { domain: `rc${Date.now().toString(36)}`, name: 'Recents Bench', creatorId: me!.id } });
  const now = new Date();
  await db.member.createMany({
    data: [me!, ...people].map((u, i) => ({ companyId: company.id, userId: u.id, isAdmin: i === 0, profile: i === 0 ? 'A01' : 'M01', inviteAccepted: true, joinedAt: now })),
  });
  const client = new pg.Client(pgConnectionFields(server.database.url));
  await client.connect();
  try {
    const t0 = performance.now();
    await client.query(
      `INSERT INTO "Conversation" ("id", "companyId", "type", "state", "title", "protocol", "creatorId", "lastSeq", "lastMessageAt", "createdAt", "updatedAt")
       SELECT gen_random_uuid(), $1::uuid, 3, 1, ($2::text[])[1 + i % array_length($2::text[], 1)] || ' ' || i,
              lpad((700000000000000 + i)::text, 15, '0'), $3::uuid, $4::int, now() - make_interval(mins => i), now() - interval '90 days', now()
       FROM generate_series(1, $5::int) i`,
      [company.id, AREAS, me!.id, perConversation, conversations],
    );
    // Me and one colleague in each; one in ten has three messages I have not read.
    await client.query(
      `WITH c AS (SELECT "id", row_number() OVER (ORDER BY "id") AS rn FROM "Conversation" WHERE "companyId" = $1::uuid)
       INSERT INTO "Participant" ("id", "conversationId", "userId", "readSeq", "deliveredSeq", "joinedAt")
       SELECT gen_random_uuid(), c."id", $2::uuid, CASE WHEN c.rn % 10 = 0 THEN $4::int - 3 ELSE $4::int END, $4::int, now() FROM c
       UNION ALL
       SELECT gen_random_uuid(), c."id", ($3::uuid[])[1 + c.rn % array_length($3::uuid[], 1)], $4::int, $4::int, now() FROM c`,
      [company.id, me!.id, people.map((p) => p.id), perConversation],
    );
    await client.query(
      `INSERT INTO "Message" ("id", "conversationId", "seq", "authorId", "type", "text", "bytes", "mentions", "createdAt")
       SELECT gen_random_uuid(), c."id", s, CASE WHEN s % 2 = 0 THEN $2::uuid ELSE p."userId" END, 'texto',
              'Mensagem ' || s || ' sobre o pedido ' || ((hashtext(c."id"::text) & 65535) * 7 + s) % 100000 || ', ' || ($3::text[])[1 + s % array_length($3::text[], 1)],
              120, '{}', c."lastMessageAt" - make_interval(secs => ($4::int - s) * 30)
       FROM "Conversation" c
       JOIN "Participant" p ON p."conversationId" = c."id" AND p."userId" <> $2::uuid
       CROSS JOIN generate_series(1, $4::int) s
       WHERE c."companyId" = $1::uuid`,
      [company.id, me!.id, ['ok, obrigado', 'segue em anexo', 'pode confirmar a entrega?', 'reunião amanhã às 10h', 'boleto enviado'], perConversation],
    );
    // Trying an index before it goes into a migration: BENCH_RECENTS_SQL='CREATE INDEX ...; ...'.
    if (process.env.BENCH_RECENTS_SQL) await client.query(process.env.BENCH_RECENTS_SQL);
    await client.query('ANALYZE');
    log(`loaded ${conversations} conversations and ${conversations * perConversation} messages in ${fmt((performance.now() - t0) / 1000)} s`);
  } finally {
    await client.end();
  }
  const sample = await db.conversation.findMany({ where: { companyId: company.id }, select: { id: true }, take: 200 });
  return { me: me!, domain: company.domain, sampleIds: sample.map((c) => c.id) };
}

const bench: Benchmark = {
  name: 'recents',
  description: 'recents list, first page of a conversation and search over 10,000 conversations / 1,000,000 messages',
  async run({ quick, log }) {
    const conversations = quick ? 200 : 10_000;
    const perConversation = quick ? 20 : 100;
    const iterations = quick ? 20 : 200;
    const server = await startBenchServer();
    try {
      const { me, domain, sampleIds } = await load(server, conversations, perConversation, quick ? 20 : 300, log);
      const call = (path: string, input: Record<string, unknown>) => async () => {
        const r = await trpc(server.url, path, { domain, ...input }, { cookie: me.cookie, type: 'query' });
        if (!r.ok) throw new Error(`${path}: ${r.message}`);
        return r.data;
      };
      const searchTerm = quick ? 'Financeiro 1' : 'Financeiro 77';
      const cases = [
        { name: 'recents list (chat.recents, first page)', fn: () => call('chat.recents', {}) },
        { name: 'first page of a conversation (chat.messages)', fn: (i: number) => call('chat.messages', { conversationId: sampleIds[i % sampleIds.length] }) },
        { name: `search (chat.recents q="${searchTerm}")`, fn: () => call('chat.recents', { q: searchTerm }) },
      ];
      const explain = new pg.Client(pgConnectionFields(server.database.url));
      await explain.connect();
      const rows: (string | number)[][] = [];
      const detail: Record<string, unknown>[] = [];
      try {
        for (const c of cases) {
          for (let i = 0; i < 5; i++) await c.fn(i)(); // warm-up
          const times: number[] = [];
          for (let i = 0; i < iterations; i++) {
            const s = performance.now();
            await c.fn(i)();
            times.push(performance.now() - s);
          }
          const api = summarize(times);
          const statements: Statement[] = await captureSql(c.fn(0));
          // Each statement a few times; the median is the floor (the first run may read from disk).
          const floors: { planning: number; execution: number; nodes: string[]; sql: string }[] = [];
          for (const st of statements) {
            const runs: Awaited<ReturnType<typeof explainAnalyze>>[] = [];
            for (let i = 0; i < 5; i++) runs.push(await explainAnalyze(explain, st));
            const median = (k: 'planning' | 'execution') => summarize(runs.map((r) => r[k])).p50;
            floors.push({ planning: median('planning'), execution: median('execution'), nodes: planNodes(runs[0]!.plan), sql: st.text.replace(/\s+/g, ' ').slice(0, 200) });
          }
          const dbExec = floors.reduce((a, f) => a + f.execution, 0);
          const dbTotal = floors.reduce((a, f) => a + f.execution + f.planning, 0);
          const main = floors.reduce((a, f) => (f.execution > a.execution ? f : a), floors[0]!);
          rows.push([c.name, fmt(api.p50), fmt(api.p99), statements.length, fmt(dbExec), fmt(dbTotal), fmt(main.execution), ratio(api.p50, dbTotal)]);
          detail.push({ case: c.name, api, statements: floors });
          log(`${c.name}: p50 ${fmt(api.p50)} ms p99 ${fmt(api.p99)} ms; ${statements.length} statements, EXPLAIN ANALYZE ${fmt(dbTotal)} ms; slowest: ${main.nodes.slice(0, 6).join(' > ')}`);
        }
      } finally {
        await explain.end();
      }
      return {
        tables: [
          {
            title: `recents: 1 user, ${conversations} conversations, ${conversations * perConversation} messages; ${iterations} calls each, sequential`,
            columns: ['call', 'API p50 ms', 'API p99 ms', 'SQL statements', 'DB execution ms', 'DB plan+exec ms', 'slowest statement ms', 'API p50 / DB floor'],
            rows,
          },
        ],
        summary: { conversations, messages: conversations * perConversation, iterations, cases: detail },
      };
    } finally {
      await server.close();
    }
  },
};
export default bench;
