/**
 * queue-take: requests waiting in a queue, attendants racing to take them, twice: over each
 * desk's open Socket.IO connection (service:take, acknowledged) and over HTTP (service.take
 * through tRPC), each series on its own company with its own requests and attendants.
 * First every attendant takes the oldest request at the same moment; then each takes random ones
 * among those still waiting, so collisions keep happening; what one learns (taken by me, or "already taken") is
 * shared, standing in for the queue push every attendant's screen receives. Proves from the
 * database: every request taken exactly once, none lost. Baseline: the same race as bare
 * `UPDATE ... WHERE taken_by IS NULL` claims over as many connections as the app's pool.
 * The attendants (their desks' sockets, which receive every take's queue:removed push, and their
 * takes) live in forked client processes (clients.ts), as they live in browsers: this process
 * holds the server only, so its CPU is the server's. BENCH_QUEUE_TAKE_PROCESSES sets how many (2).
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { pgConnectionFields } from '../../src/server/db/url';
import { ClientProcesses } from '../lib/clients';
import { trpc, usersWithSessions } from '../lib/http';
import { startProfile } from '../lib/profile';
import { startBenchServer } from '../lib/server';
import { fmt, ratio, sampleDatabase, sampleProcess, summarize, type Benchmark, type Summary } from '../lib/stats';
import type { Attendant, FromClient, ToClient } from './clients';
import { race, type RaceOutcome } from './race';

const here = path.dirname(fileURLToPath(import.meta.url));

interface RaceResult {
  seconds: number;
  takes: number;
  conflicts: number;
  headConflicts: number;
  errors: number;
  latency: Summary;
  winners: Map<string, string>;
  doubleWins: number;
  firstError?: string;
  /** CPU of the client processes over the race (0 for the bare baseline, which races here). */
  clientCpuMs: number;
}

/** Several processes' (or one's) outcomes as one race; a request two processes were both told they won is a double win. */
function merge(seconds: number, parts: (RaceOutcome & { cpuMs?: number })[]): RaceResult {
  const winners = new Map<string, string>();
  let doubleWins = 0;
  for (const p of parts) {
    doubleWins += p.doubleWins;
    for (const [id, attendant] of p.winners) {
      if (winners.has(id)) doubleWins++;
      winners.set(id, attendant);
    }
  }
  const sum = (k: 'conflicts' | 'headConflicts' | 'errors') => parts.reduce((a, p) => a + p[k], 0);
  return {
    seconds,
    takes: winners.size,
    conflicts: sum('conflicts'),
    headConflicts: sum('headConflicts'),
    errors: sum('errors'),
    latency: summarize(parts.flatMap((p) => p.latencies)),
    winners,
    doubleWins,
    firstError: parts.find((p) => p.firstError)?.firstError,
    clientCpuMs: parts.reduce((a, p) => a + (p.cpuMs ?? 0), 0),
  };
}

type Server = Awaited<ReturnType<typeof startBenchServer>>;

/** A company with `attendantsN` attendants in its 'member' group and `requests` requests waiting, asked through the real procedure. */
async function seed(server: Server, label: string, requests: number, attendantsN: number) {
  const db = server.db;
  const [owner] = await usersWithSessions(db, 1, `Owner ${label}`);
  const domain = `qt${label}${Date.now().toString(36)}`;
  const reg = await trpc(server.url, 'company.register', { domain, name: `Queue Bench ${label}` }, { cookie: owner!.cookie });
  if (!reg.ok) throw new Error(`company.register: ${reg.message}`);
  const company = await db.company.findUniqueOrThrow({ where: { domain } });
  const memberGroup = await db.group.findFirstOrThrow({ where: { companyId: company.id, key: 'member' } });
  const attendants = await usersWithSessions(db, attendantsN, `Attendant ${label}`);
  const now = new Date();
  await db.member.createMany({ data: attendants.map((a) => ({ companyId: company.id, userId: a.id, profile: 'M01', inviteAccepted: true, joinedAt: now })) });
  const members = await db.member.findMany({ where: { companyId: company.id, userId: { in: attendants.map((a) => a.id) } } });
  await db.groupMember.createMany({ data: members.map((m) => ({ groupId: memberGroup.id, memberId: m.id })) });
  // Customers ask through the real procedure, one after another: the queue's order is theirs.
  const customers = await usersWithSessions(db, requests, `Customer ${label}`);
  const ids: string[] = [];
  for (const c of customers) {
    const r = await trpc<{ conversationId: string }>(server.url, 'customer.request', { domain, queueKey: 'faleconosco', name: 'Cliente', text: 'Preciso de ajuda' }, { cookie: c.cookie });
    if (!r.ok) throw new Error(`customer.request: ${r.message}`);
    ids.push(r.data.conversationId);
  }
  return { domain, attendants, ids };
}

/** The database's word: each request left the queue once, to the attendant told they won, with one responsible and one "taken" line. */
async function check(server: Server, ids: string[], result: RaceResult) {
  const db = server.db;
  const rows = await db.conversation.findMany({ where: { id: { in: ids } }, select: { id: true, inQueue: true, takenById: true, responsibleId: true } });
  const takenInfos = await db.$queryRaw<{ conversationId: string; n: number }[]>`
    SELECT "conversationId", count(*)::int AS n FROM "Message"
    WHERE "conversationId" = ANY(${ids}::uuid[]) AND "type" = 'info' AND "data"->>'info' = 'taken' GROUP BY 1`;
  const infoCount = new Map(takenInfos.map((r) => [r.conversationId, r.n]));
  const lost = rows.filter((r) => r.inQueue || !r.takenById).length + (ids.length - rows.length);
  const doubleTakes = result.doubleWins + takenInfos.filter((r) => r.n > 1).length + rows.filter((r) => result.winners.get(r.id) !== r.takenById).length;
  const responsibles = await db.participant.groupBy({ by: ['conversationId'], where: { conversationId: { in: ids }, responsible: true }, _count: true });
  const badResponsible = responsibles.filter((r) => r._count !== 1).length + (ids.length - responsibles.length);
  const missingInfo = ids.filter((id) => infoCount.get(id) !== 1).length;
  return { lost, doubleTakes, badResponsible, missingInfo };
}

const bench: Benchmark = {
  name: 'queue-take',
  description: 'attendants racing to take waiting requests over their sockets (service:take) and over HTTP (service.take)',
  async run({ quick, log }) {
    const requests = quick ? 20 : 200;
    const attendantsN = quick ? 10 : 100;
    const processes = Number(process.env.BENCH_QUEUE_TAKE_PROCESSES ?? 2);
    if (!Number.isInteger(processes) || processes < 1) throw new Error(`BENCH_QUEUE_TAKE_PROCESSES must be a positive integer, not ${process.env.BENCH_QUEUE_TAKE_PROCESSES}`);
    const server = await startBenchServer();
    // What one process's attendants learn is taken, the others' learn too (their screens' queue push).
    const relay = (m: FromClient, from: number) => m.type === 'known' && (clients.others(from, m), true);
    const exited = (code: number | null): FromClient => ({ type: 'raced', cpuMs: 0, conflicts: 0, headConflicts: 0, errors: 1, latencies: [], winners: [], doubleWins: 0, firstError: `client process exited with ${code}` });
    const clients: ClientProcesses<ToClient, FromClient> = new ClientProcesses(path.join(here, 'clients.ts'), processes, exited, relay);
    try {
      const bySocket = await seed(server, 's', requests, attendantsN);
      const byHttp = await seed(server, 'h', requests, attendantsN);
      log(`${requests} requests waiting and ${attendantsN} attendants, for each series, from ${processes} client processes`);
      const share = (attendants: Attendant[], i: number) => attendants.filter((_, j) => j % clients.size === i);

      // Warm-up, not counted: a server that has been running has compiled its take path; the first
      // race after boot spent about a sixth of its CPU in V8's optimising compiler (perf record,
      // docs/performance.md section 22). BENCH_QUEUE_TAKE_WARMUP=0 measures the cold server.
      if (process.env.BENCH_QUEUE_TAKE_WARMUP !== '0') {
        const warm = await seed(server, 'w', requests, attendantsN);
        await clients.all((i) => ({ type: 'open', url: server.url, attendants: share(warm.attendants, i) }));
        const parts = await clients.all<Extract<FromClient, { type: 'raced' }>>((i) => ({ type: 'race', via: 'socket', url: server.url, domain: warm.domain, ids: warm.ids, attendants: share(warm.attendants, i) }));
        await clients.all(() => ({ type: 'closeDesks' }));
        log(`warm-up race over sockets (not counted): ${merge(0, parts).takes} takes`);
      }

      // The socket series: each attendant's desk connected, as the browser's is.
      const ready = await clients.all<Extract<FromClient, { type: 'ready' }>>((i) => ({ type: 'open', url: server.url, attendants: share(bySocket.attendants, i) }));
      log(`${ready.reduce((a, r) => a + r.sockets, 0)} desks connected`);
      const series = async (via: 'socket' | 'http', seeded: typeof bySocket) => {
        const profile = await startProfile(process.env.BENCH_CPU_PROFILE, `queue-take-${via}`);
        const sampler = sampleProcess();
        const database = sampleDatabase();
        const t0 = performance.now();
        const parts = await clients.all<Extract<FromClient, { type: 'raced' }>>((i) => ({ type: 'race', via, url: server.url, domain: seeded.domain, ids: seeded.ids, attendants: share(seeded.attendants, i) }));
        const result = merge((performance.now() - t0) / 1000, parts);
        const cpu = sampler.stop();
        const dbCpu = database.stop();
        await profile.stop();
        const attempts = result.takes + result.conflicts + result.errors;
        log(`${via}: ${result.takes} takes in ${fmt(result.seconds, 2)} s, ${result.conflicts} conflicts, ${result.errors} errors${result.firstError ? ` (${result.firstError})` : ''}`);
        log(`${via}: server CPU ${fmt(cpu.cpuMs / attempts, 2)} ms per attempt (${fmt(cpu.cpuMs / result.takes, 2)} ms per take), clients ${fmt(result.clientCpuMs / attempts, 2)} ms per attempt`);
        if (dbCpu) log(`${via}: PostgreSQL CPU ${fmt(dbCpu.cpuMs / attempts, 2)} ms per attempt (${fmt(dbCpu.cpuPct, 0)} % of a core), machine ${fmt(dbCpu.machineBusyPct, 0)} % busy`);
        return { result, cpu, dbCpu, attempts, checks: await check(server, seeded.ids, result) };
      };
      const socket = await series('socket', bySocket);
      await clients.all(() => ({ type: 'closeDesks' }));
      const http = await series('http', byHttp);

      // Baseline: bare claims.
      const claims = new pg.Pool({ ...pgConnectionFields(server.database.url), max: 10 });
      // An idle client the server closes (a restart, a terminated backend) must not crash the run:
      // node-postgres emits that on the pool, and an unheard 'error' event kills the process.
      claims.on('error', (err) => log(`baseline pool: idle connection closed (${err.message})`));
      await claims.query('CREATE TABLE bench_claim (id uuid PRIMARY KEY, queued_at timestamptz NOT NULL, taken_by uuid, taken_at timestamptz)');
      const claimIds = bySocket.ids.map(() => randomUUID());
      await claims.query('INSERT INTO bench_claim (id, queued_at) SELECT unnest($1::uuid[]), now()', [claimIds]);
      const bareT0 = performance.now();
      const bareOutcome = await race(claimIds, bySocket.attendants.map((a) => a.id), async (attendant, id) => {
        const r = await claims.query('UPDATE bench_claim SET taken_by = $1, taken_at = now() WHERE id = $2 AND taken_by IS NULL', [attendant, id]);
        return r.rowCount === 1 ? 'won' : 'conflict';
      });
      const bare = merge((performance.now() - bareT0) / 1000, [bareOutcome]);
      const bareLeft = Number((await claims.query('SELECT count(*) FROM bench_claim WHERE taken_by IS NULL')).rows[0].count);
      await claims.end();

      const rate = (r: RaceResult) => r.takes / r.seconds;
      const bareRate = rate(bare);
      const checks = { lost: 0, doubleTakes: 0, badResponsible: 0, missingInfo: 0 };
      for (const s of [socket, http]) for (const k of Object.keys(checks) as (keyof typeof checks)[]) checks[k] += s.checks[k];
      const seriesOk = (s: typeof socket) => s.result.errors === 0 && s.result.takes === requests;
      const ok = Object.values(checks).every((n) => n === 0) && seriesOk(socket) && seriesOk(http);
      const row = (name: string, s: typeof socket) => [
        name,
        s.result.takes,
        fmt(s.result.seconds, 2),
        fmt(rate(s.result), 0),
        s.attempts,
        s.result.conflicts,
        fmt(s.result.latency.p50),
        fmt(s.result.latency.p99),
        fmt(s.cpu.cpuMs / s.attempts, 2),
        s.checks.doubleTakes,
        s.checks.lost,
      ];
      const summaryOf = (s: typeof socket) => ({
        headConflicts: s.result.headConflicts,
        takes: s.result.takes,
        seconds: s.result.seconds,
        takesPerSecond: rate(s.result),
        conflicts: s.result.conflicts,
        errors: s.result.errors,
        latency: s.result.latency,
        firstError: s.result.firstError,
        checks: s.checks,
        processCpuPct: s.cpu.cpuPct,
        processCpuMsPerAttempt: s.cpu.cpuMs / s.attempts,
        databaseCpuMsPerAttempt: s.dbCpu ? s.dbCpu.cpuMs / s.attempts : null,
        machineBusyPct: s.dbCpu?.machineBusyPct ?? null,
        processCpuMsPerTake: s.cpu.cpuMs / s.result.takes,
        clientCpuMsPerAttempt: s.result.clientCpuMs / s.attempts,
        rssMaxMb: s.cpu.rssMaxMb,
      });
      return {
        tables: [
          {
            title: `queue-take: ${requests} waiting requests, ${attendantsN} attendants racing: all on the oldest at once, then random picks`,
            columns: ['claimer', 'takes', 'seconds', 'takes/s', 'attempts', 'conflicts', 'p50 ms', 'p99 ms', 'CPU ms/attempt', 'double-takes', 'lost'],
            rows: [
              row('service:take (socket + Postgres)', socket),
              row('service.take (HTTP tRPC + Postgres)', http),
              ['bare UPDATE ... WHERE taken_by IS NULL', bare.takes, fmt(bare.seconds, 2), fmt(bareRate, 0), bare.takes + bare.conflicts, bare.conflicts, fmt(bare.latency.p50), fmt(bare.latency.p99), '', bare.doubleWins, bareLeft],
              ['ratio socket / bare', '', '', ratio(rate(socket.result), bareRate), '', '', ratio(socket.result.latency.p50, bare.latency.p50), ratio(socket.result.latency.p99, bare.latency.p99), '', '', ''],
              ['ratio HTTP / bare', '', '', ratio(rate(http.result), bareRate), '', '', ratio(http.result.latency.p50, bare.latency.p50), ratio(http.result.latency.p99, bare.latency.p99), '', '', ''],
              ['ratio socket / HTTP', '', '', ratio(rate(socket.result), rate(http.result)), '', '', ratio(socket.result.latency.p50, http.result.latency.p50), ratio(socket.result.latency.p99, http.result.latency.p99), ratio(socket.cpu.cpuMs / socket.attempts, http.cpu.cpuMs / http.attempts), '', ''],
            ],
          },
        ],
        summary: {
          requests,
          attendants: attendantsN,
          clientProcesses: processes,
          ok,
          checks,
          socket: summaryOf(socket),
          app: summaryOf(http),
          bare: { takes: bare.takes, seconds: bare.seconds, takesPerSecond: bareRate, conflicts: bare.conflicts, latency: bare.latency, left: bareLeft },
        },
        notes: [
          `Head of the line: ${attendantsN} simultaneous takes of the oldest request -> socket ${attendantsN - socket.result.headConflicts} won, HTTP ${attendantsN - http.result.headConflicts} won (bare claims: ${attendantsN - bare.headConflicts} won).`,
          `Checks from the database (both series): ${checks.lost} lost, ${checks.doubleTakes} double-takes, ${checks.badResponsible} requests without exactly one responsible, ${checks.missingInfo} without exactly one "taken" info message -> ${ok ? 'OK' : 'FAILED'}.`,
          `CPU ms/attempt is the server process's only: the attendants (desks and takes) run in ${processes} forked client processes, which spent ${fmt(socket.result.clientCpuMs / socket.attempts, 2)} (socket, decoding every take's pushes to the ${attendantsN} connected desks) and ${fmt(http.result.clientCpuMs / http.attempts, 2)} (HTTP) ms per attempt; the bare baseline races from the server process.`,
        ],
      };
    } finally {
      await clients.close({ type: 'close' });
      await server.close();
    }
  },
};
export default bench;
