/** Percentiles, process sampling and the table a benchmark prints. */
import fs from 'node:fs';
import path from 'node:path';

export interface Summary {
  n: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
}

/** Nearest-rank percentiles (ms in, ms out). Empty input gives NaN everywhere. */
export function summarize(values: number[]): Summary {
  const s = [...values].sort((a, b) => a - b);
  const at = (p: number) => (s.length ? s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]! : NaN);
  return { n: s.length, p50: at(50), p95: at(95), p99: at(99), max: s.length ? s[s.length - 1]! : NaN, mean: s.length ? s.reduce((a, b) => a + b, 0) / s.length : NaN };
}

export interface ProcessSample {
  /** CPU time of this process over the sample, ms. */
  cpuMs: number;
  /** CPU time of this process over wall time, in % of ONE core (200% = both cores of a 2-core box). */
  cpuPct: number;
  rssMaxMb: number;
  rssEndMb: number;
}

/** Samples this process (where the bench server runs) until stopped. */
export function sampleProcess(intervalMs = 200) {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let rssMax = process.memoryUsage().rss;
  const timer = setInterval(() => {
    rssMax = Math.max(rssMax, process.memoryUsage().rss);
  }, intervalMs);
  return {
    stop(): ProcessSample {
      clearInterval(timer);
      const cpu = process.cpuUsage(cpu0);
      const wall = performance.now() - t0;
      const rss = process.memoryUsage().rss;
      rssMax = Math.max(rssMax, rss);
      return { cpuMs: (cpu.user + cpu.system) / 1000, cpuPct: ((cpu.user + cpu.system) / 1000 / wall) * 100, rssMaxMb: rssMax / 2 ** 20, rssEndMb: rss / 2 ** 20 };
    },
  };
}

/** CPU of the machine's PostgreSQL processes over a sample; null where it cannot be read (no /proc, a remote server). */
export interface DatabaseSample {
  /** CPU time of every process named `postgres` (backends, WAL writer, checkpointer...), ms. */
  cpuMs: number;
  /** The same in % of ONE core. */
  cpuPct: number;
  /** The whole machine's busy share over the sample, in % of ALL its cores (100 = every core busy). */
  machineBusyPct: number;
}

const CLOCK_TICKS_PER_S = 100; // USER_HZ: what /proc counts in, 100 on every Linux we run on

/** utime + stime of each process whose name is `postgres`, in ms, by pid. */
function postgresCpuMs(): Map<string, number> {
  const byPid = new Map<string, number>();
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    // "pid (comm) state ppid ...": comm may hold spaces, so split after its closing parenthesis.
    const close = stat.lastIndexOf(')');
    if (stat.slice(stat.indexOf('(') + 1, close) !== 'postgres') continue;
    const fields = stat.slice(close + 2).split(' ');
    byPid.set(pid, ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_S); // utime, stime (fields 14 and 15 of stat(5))
  }
  return byPid;
}

/**
 * CPU the PostgreSQL processes used between two readings: each process alive at the end, from its
 * first reading (0 for one started meanwhile). A process that ended meanwhile (a closed connection)
 * takes its share with it: an undercount, never a negative.
 */
function postgresCpuSince(start: Map<string, number>): number {
  let ms = 0;
  for (const [pid, now] of postgresCpuMs()) ms += Math.max(0, now - (start.get(pid) ?? 0));
  return ms;
}

/** Busy and total jiffies of the whole machine (/proc/stat's first line). */
function machineTicks() {
  const [, ...values] = fs.readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/);
  const n = values.map(Number);
  const idle = n[3]! + (n[4] ?? 0); // idle + iowait
  return { busy: n.reduce((a, b) => a + b, 0) - idle, total: n.reduce((a, b) => a + b, 0) };
}

/**
 * Samples the PostgreSQL processes of this machine (where the benchmark's database runs locally)
 * and the machine's busy share: where a step's time went besides the server process.
 */
export function sampleDatabase(): { stop(): DatabaseSample | null } {
  if (!fs.existsSync('/proc/stat')) return { stop: () => null };
  const db0 = postgresCpuMs();
  const m0 = machineTicks();
  const t0 = performance.now();
  return {
    stop() {
      const cpuMs = postgresCpuSince(db0);
      const m1 = machineTicks();
      const wall = performance.now() - t0;
      const total = m1.total - m0.total;
      return { cpuMs, cpuPct: (cpuMs / wall) * 100, machineBusyPct: total > 0 ? ((m1.busy - m0.busy) / total) * 100 : NaN };
    },
  };
}

export interface Table {
  title: string;
  columns: string[];
  rows: (string | number)[][];
}

export const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '-');
export const ratio = (a: number, b: number) => (Number.isFinite(a) && Number.isFinite(b) && b !== 0 ? `${(a / b).toFixed(2)}x` : '-');

export function renderTable(t: Table): string {
  const cells = [t.columns, ...t.rows.map((r) => r.map(String))];
  const widths = t.columns.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) => '| ' + r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ') + ' |';
  const sep = '|' + widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : '-'.repeat(w + 1) + ':')).join('|') + '|';
  return [`### ${t.title}`, '', line(t.columns), sep, ...cells.slice(1).map(line)].join('\n');
}

export interface BenchOptions {
  quick: boolean;
  log: (msg: string) => void;
}

export interface BenchResult {
  tables: Table[];
  /** Machine-readable figures: what docs/performance.md quotes. */
  summary: Record<string, unknown>;
  notes?: string[];
}

export interface Benchmark {
  name: string;
  description: string;
  run(opts: BenchOptions): Promise<BenchResult>;
}

export function writeResult(name: string, data: unknown) {
  const dir = process.env.BENCH_RESULTS_DIR ?? path.resolve('bench/results');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.json`);
  fs.writeFileSync(file, JSON.stringify(data, null, 2) + '\n');
  return file;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
