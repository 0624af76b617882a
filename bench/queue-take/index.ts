/**
 * queue-take: requests waiting in a queue, attendants racing to take them through service.take.
 * First every attendant takes the oldest request at the same moment; then each takes random ones
 * among those still waiting, so collisions keep happening; what one learns (taken by me, or "already taken") is
 * shared, standing in for the queue push every attendant's screen receives. Proves from the
 * database: every request taken exactly once, none lost. Baseline: the same race as bare
 * `UPDATE ... WHERE taken_by IS NULL` claims over as many connections as the app's pool.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { pgConnectionFields } from '../../src/server/db/url';
import { pool, trpc, usersWithSessions } from '../lib/http';
import { startProfile } from '../lib/profile';
import { startBenchServer } from '../lib/server';
import { fmt, ratio, sampleProcess, summarize, type Benchmark, type Summary } from '../lib/stats';

interface RaceResult {
  seconds: number;
  takes: number;
  conflicts: number;
  /** Of the head-of-line burst (everyone on the oldest request at once). */
  headConflicts: number;
  errors: number;
  latency: Summary;
  winners: Map<string, string>;
  doubleWins: number;
  firstError?: string;
}

/**
 * `attendants` racers over `ids` (oldest first). First the head of the line: every attendant
 * takes the oldest request at the same moment (one may win). Then each takes a random one among
 * those it has not seen taken, until every request is known taken.
 */
async function race(ids: string[], attendants: string[], take: (attendant: string, id: string) => Promise<'won' | 'conflict' | string>): Promise<RaceResult> {
  const known = new Set<string>();
  const winners = new Map<string, string>();
  let doubleWins = 0;
  let conflicts = 0;
  let errors = 0;
  let firstError: string | undefined;
  const latencies: number[] = [];
  const attempt = async (attendant: string, id: string) => {
    const s = performance.now();
    const outcome = await take(attendant, id);
    latencies.push(performance.now() - s);
    known.add(id);
    if (outcome === 'won') {
      if (winners.has(id)) doubleWins++;
      winners.set(id, attendant);
    } else if (outcome === 'conflict') conflicts++;
    else {
      errors++;
      firstError ??= outcome;
    }
  };
  const t0 = performance.now();
  await Promise.all(attendants.map((a) => attempt(a, ids[0]!)));
  const headConflicts = conflicts;
  await Promise.all(
    attendants.map(async (attendant) => {
      for (;;) {
        const open = ids.filter((id) => !known.has(id));
        if (open.length === 0) return;
        await attempt(attendant, open[Math.floor(Math.random() * open.length)]!);
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  return { seconds, takes: winners.size, conflicts, headConflicts, errors, latency: summarize(latencies), winners, doubleWins, firstError };
}

const bench: Benchmark = {
  name: 'queue-take',
  description: 'attendants racing to take waiting requests through service.take',
  async run({ quick, log }) {
    const requests = quick ? 20 : 200;
    const attendantsN = quick ? 10 : 100;
    const server = await startBenchServer();
    try {
      const db = server.db;
      const [owner] = await usersWithSessions(db, 1, 'Owner');
      const domain = `qt${Date.now().toString(36)}`;
      const reg = await trpc(server.url, 'company.register', { domain, name: 'Queue Bench' }, { cookie: owner!.cookie });
      if (!reg.ok) throw new Error(`company.register: ${reg.message}`);
      const company = await db.company.findUniqueOrThrow({ where: { domain } });
      const memberGroup = await db.group.findFirstOrThrow({ where: { companyId: company.id, key: 'member' } });
      const attendants = await usersWithSessions(db, attendantsN, 'Attendant');
      const now = new Date();
      await db.member.createMany({ data: attendants.map((a) => ({ companyId: company.id, userId: a.id, profile: 'M01', inviteAccepted: true, joinedAt: now })) });
      const members = await db.member.findMany({ where: { companyId: company.id, userId: { in: attendants.map((a) => a.id) } } });
      await db.groupMember.createMany({ data: members.map((m) => ({ groupId: memberGroup.id, memberId: m.id })) });
      // Customers ask through the real procedure, one after another: the queue's order is theirs.
      const customers = await usersWithSessions(db, requests, 'Customer');
      const ids: string[] = [];
      for (const c of customers) {
        const r = await trpc<{ conversationId: string }>(server.url, 'customer.request', { domain, queueKey: 'faleconosco', name: 'Cliente', text: 'Preciso de ajuda' }, { cookie: c.cookie });
        if (!r.ok) throw new Error(`customer.request: ${r.message}`);
        ids.push(r.data.conversationId);
      }
      log(`${requests} requests waiting, ${attendantsN} attendants`);

      const cookies = new Map(attendants.map((a) => [a.id, a.cookie]));
      const profile = await startProfile(process.env.BENCH_CPU_PROFILE, 'queue-take');
      const sampler = sampleProcess();
      const app = await race(ids, attendants.map((a) => a.id), async (attendant, id) => {
        const r = await trpc(server.url, 'service.take', { domain, conversationId: id }, { cookie: cookies.get(attendant) });
        return r.ok ? 'won' : r.code === 'CONFLICT' ? 'conflict' : `${r.status} ${r.code}: ${r.message}`;
      });
      const cpu = sampler.stop();
      await profile.stop();
      const attempts = app.takes + app.conflicts + app.errors;
      log(`app: ${app.takes} takes in ${fmt(app.seconds, 2)} s, ${app.conflicts} conflicts, ${app.errors} errors${app.firstError ? ` (${app.firstError})` : ''}`);
      // The HTTP clients share this process, so this CPU is the server's plus theirs (light).
      log(`app: process CPU ${fmt(cpu.cpuMs / attempts, 2)} ms per attempt (${fmt(cpu.cpuMs / app.takes, 2)} ms per take)`);

      // The database's word: each request left the queue once, to the attendant told they won.
      const rows = await db.conversation.findMany({ where: { id: { in: ids } }, select: { id: true, inQueue: true, takenById: true, responsibleId: true } });
      const takenInfos = await db.$queryRaw<{ conversationId: string; n: number }[]>`
        SELECT "conversationId", count(*)::int AS n FROM "Message"
        WHERE "conversationId" = ANY(${ids}::uuid[]) AND "type" = 'info' AND "data"->>'info' = 'taken' GROUP BY 1`;
      const infoCount = new Map(takenInfos.map((r) => [r.conversationId, r.n]));
      const lost = rows.filter((r) => r.inQueue || !r.takenById).length + (ids.length - rows.length);
      const doubleTakes = app.doubleWins + takenInfos.filter((r) => r.n > 1).length + rows.filter((r) => app.winners.get(r.id) !== r.takenById).length;
      const responsibles = await db.participant.groupBy({ by: ['conversationId'], where: { conversationId: { in: ids }, responsible: true }, _count: true });
      const badResponsible = responsibles.filter((r) => r._count !== 1).length + (ids.length - responsibles.length);
      const missingInfo = ids.filter((id) => infoCount.get(id) !== 1).length;

      // Baseline: bare claims.
      const claims = new pg.Pool({ ...pgConnectionFields(server.database.url), max: 10 });
      // An idle client the server closes (a restart, a terminated backend) must not crash the run:
      // node-postgres emits that on the pool, and an unheard 'error' event kills the process.
      claims.on('error', (err) => log(`baseline pool: idle connection closed (${err.message})`));
      await claims.query('CREATE TABLE bench_claim (id uuid PRIMARY KEY, queued_at timestamptz NOT NULL, taken_by uuid, taken_at timestamptz)');
      const claimIds = ids.map(() => randomUUID());
      await claims.query('INSERT INTO bench_claim (id, queued_at) SELECT unnest($1::uuid[]), now()', [claimIds]);
      const bare = await race(claimIds, attendants.map((a) => a.id), async (attendant, id) => {
        const r = await claims.query('UPDATE bench_claim SET taken_by = $1, taken_at = now() WHERE id = $2 AND taken_by IS NULL', [attendant, id]);
        return r.rowCount === 1 ? 'won' : 'conflict';
      });
      const bareLeft = Number((await claims.query('SELECT count(*) FROM bench_claim WHERE taken_by IS NULL')).rows[0].count);
      await claims.end();

      const appRate = app.takes / app.seconds;
      const bareRate = bare.takes / bare.seconds;
      const ok = lost === 0 && doubleTakes === 0 && badResponsible === 0 && missingInfo === 0 && app.errors === 0 && app.takes === requests;
      return {
        tables: [
          {
            title: `queue-take: ${requests} waiting requests, ${attendantsN} attendants racing: all on the oldest at once, then random picks`,
            columns: ['claimer', 'takes', 'seconds', 'takes/s', 'attempts', 'conflicts', 'p50 ms', 'p99 ms', 'double-takes', 'lost'],
            rows: [
              ['service.take (tRPC + Postgres)', app.takes, fmt(app.seconds, 2), fmt(appRate, 0), app.takes + app.conflicts + app.errors, app.conflicts, fmt(app.latency.p50), fmt(app.latency.p99), doubleTakes, lost],
              ['bare UPDATE ... WHERE taken_by IS NULL', bare.takes, fmt(bare.seconds, 2), fmt(bareRate, 0), bare.takes + bare.conflicts, bare.conflicts, fmt(bare.latency.p50), fmt(bare.latency.p99), bare.doubleWins, bareLeft],
              ['ratio app / bare', '', '', ratio(appRate, bareRate), '', '', ratio(app.latency.p50, bare.latency.p50), ratio(app.latency.p99, bare.latency.p99), '', ''],
            ],
          },
        ],
        summary: {
          requests,
          attendants: attendantsN,
          ok,
          app: { headConflicts: app.headConflicts, takes: app.takes, seconds: app.seconds, takesPerSecond: appRate, conflicts: app.conflicts, errors: app.errors, latency: app.latency, firstError: app.firstError },
          checks: { lost, doubleTakes, badResponsible, missingInfo },
          bare: { takes: bare.takes, seconds: bare.seconds, takesPerSecond: bareRate, conflicts: bare.conflicts, latency: bare.latency, left: bareLeft },
          serverCpuPct: cpu.cpuPct,
          serverCpuMsPerAttempt: cpu.cpuMs / (app.takes + app.conflicts + app.errors),
          serverCpuMsPerTake: cpu.cpuMs / app.takes,
          serverRssMaxMb: cpu.rssMaxMb,
        },
        notes: [
          `Head of the line: ${attendantsN} simultaneous takes of the oldest request -> ${attendantsN - app.headConflicts} won, ${app.headConflicts} "already taken" (bare claims: ${attendantsN - bare.headConflicts} won).`,
          `Checks from the database: ${lost} lost, ${doubleTakes} double-takes, ${badResponsible} requests without exactly one responsible, ${missingInfo} without exactly one "taken" info message -> ${ok ? 'OK' : 'FAILED'}.`,
        ],
      };
    } finally {
      await server.close();
    }
  },
};
export default bench;
