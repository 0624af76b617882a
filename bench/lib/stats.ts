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
