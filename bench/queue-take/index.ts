/**
 * queue-take: requests waiting in a queue, attendants racing to take them, twice: over each
 * desk's open Socket.IO connection (service:take, acknowledged) and over HTTP (service.take
 * through tRPC), each series on its own company with its own requests and attendants.
 * First every attendant takes the oldest request at the same moment; then each takes random ones
 * among those still waiting, so collisions keep happening; what one learns (taken by me, or "already taken") is
 * shared, standing in for the queue push every attendant's screen receives. Proves from the
 * database: every request taken exactly once, none lost. Baseline: the same race as bare
 * `UPDATE ... WHERE taken_by IS NULL` claims over as many connections as the app's pool.
 * The socket series' desks are connected, so every take's pushes (queue:removed to 100 desks)
 * are delivered and decoded in this process too; the HTTP series has no sockets open, as before.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { io as connect, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '../../src/shared/realtime';
import { pgConnectionFields } from '../../src/server/db/url';
import { trpc, usersWithSessions } from '../lib/http';
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

type Server = Awaited<ReturnType<typeof startBenchServer>>;
type DeskSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

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

async function openDesk(url: string, cookie: string): Promise<DeskSocket> {
  const socket: DeskSocket = connect(url, { transports: ['websocket'], extraHeaders: { cookie }, reconnection: false, forceNew: true });
  await new Promise<void>((resolve, reject) => {
    socket.once('session:ready', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}

const bench: Benchmark = {
  name: 'queue-take',
  description: 'attendants racing to take waiting requests over their sockets (service:take) and over HTTP (service.take)',
  async run({ quick, log }) {
    const requests = quick ? 20 : 200;
    const attendantsN = quick ? 10 : 100;
    const server = await startBenchServer();
    const desks: DeskSocket[] = [];
    try {
      const bySocket = await seed(server, 's', requests, attendantsN);
      const byHttp = await seed(server, 'h', requests, attendantsN);
      log(`${requests} requests waiting and ${attendantsN} attendants, for each series`);

      // The socket series: each attendant's desk connected, as the browser's is.
      const deskOf = new Map<string, DeskSocket>();
      for (const a of bySocket.attendants) {
        const desk = await openDesk(server.url, a.cookie);
        desks.push(desk);
        deskOf.set(a.id, desk);
      }
      const series = async (label: string, ids: string[], attendants: string[], take: (attendant: string, id: string) => Promise<'won' | 'conflict' | string>) => {
        const profile = await startProfile(process.env.BENCH_CPU_PROFILE, `queue-take-${label}`);
        const sampler = sampleProcess();
        const result = await race(ids, attendants, take);
        const cpu = sampler.stop();
        await profile.stop();
        const attempts = result.takes + result.conflicts + result.errors;
        log(`${label}: ${result.takes} takes in ${fmt(result.seconds, 2)} s, ${result.conflicts} conflicts, ${result.errors} errors${result.firstError ? ` (${result.firstError})` : ''}`);
        // The clients share this process, so this CPU is the server's plus theirs.
        log(`${label}: process CPU ${fmt(cpu.cpuMs / attempts, 2)} ms per attempt (${fmt(cpu.cpuMs / result.takes, 2)} ms per take)`);
        return { result, cpu, attempts, checks: await check(server, ids, result) };
      };
      const socket = await series('socket', bySocket.ids, bySocket.attendants.map((a) => a.id), async (attendant, id) => {
        const ack = await deskOf.get(attendant)!.timeout(30_000).emitWithAck('service:take', { domain: bySocket.domain, conversationId: id });
        return ack.ok ? 'won' : ack.httpStatus === 409 ? 'conflict' : `${ack.httpStatus} ${ack.error}`;
      });
      for (const d of desks) d.disconnect();
      const cookies = new Map(byHttp.attendants.map((a) => [a.id, a.cookie]));
      const http = await series('http', byHttp.ids, byHttp.attendants.map((a) => a.id), async (attendant, id) => {
        const r = await trpc(server.url, 'service.take', { domain: byHttp.domain, conversationId: id }, { cookie: cookies.get(attendant) });
        return r.ok ? 'won' : r.code === 'CONFLICT' ? 'conflict' : `${r.status} ${r.code}: ${r.message}`;
      });

      // Baseline: bare claims.
      const claims = new pg.Pool({ ...pgConnectionFields(server.database.url), max: 10 });
      // An idle client the server closes (a restart, a terminated backend) must not crash the run:
      // node-postgres emits that on the pool, and an unheard 'error' event kills the process.
      claims.on('error', (err) => log(`baseline pool: idle connection closed (${err.message})`));
      await claims.query('CREATE TABLE bench_claim (id uuid PRIMARY KEY, queued_at timestamptz NOT NULL, taken_by uuid, taken_at timestamptz)');
      const claimIds = bySocket.ids.map(() => randomUUID());
      await claims.query('INSERT INTO bench_claim (id, queued_at) SELECT unnest($1::uuid[]), now()', [claimIds]);
      const bare = await race(claimIds, bySocket.attendants.map((a) => a.id), async (attendant, id) => {
        const r = await claims.query('UPDATE bench_claim SET taken_by = $1, taken_at = now() WHERE id = $2 AND taken_by IS NULL', [attendant, id]);
        return r.rowCount === 1 ? 'won' : 'conflict';
      });
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
        processCpuMsPerTake: s.cpu.cpuMs / s.result.takes,
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
          ok,
          checks,
          socket: summaryOf(socket),
          app: summaryOf(http),
          bare: { takes: bare.takes, seconds: bare.seconds, takesPerSecond: bareRate, conflicts: bare.conflicts, latency: bare.latency, left: bareLeft },
        },
        notes: [
          `Head of the line: ${attendantsN} simultaneous takes of the oldest request -> socket ${attendantsN - socket.result.headConflicts} won, HTTP ${attendantsN - http.result.headConflicts} won (bare claims: ${attendantsN - bare.headConflicts} won).`,
          `Checks from the database (both series): ${checks.lost} lost, ${checks.doubleTakes} double-takes, ${checks.badResponsible} requests without exactly one responsible, ${checks.missingInfo} without exactly one "taken" info message -> ${ok ? 'OK' : 'FAILED'}.`,
          `CPU is the whole process (server and its clients); the socket series also delivers every take's pushes to the ${attendantsN} connected desks.`,
        ],
      };
    } finally {
      for (const d of desks) d.disconnect();
      await server.close();
    }
  },
};
export default bench;
