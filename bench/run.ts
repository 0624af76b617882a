/**
 * `npm run bench [-- name ...] [--quick]`: runs the benchmarks (all of them by default), prints each
 * one's tables and writes bench/results/<name>.json (BENCH_RESULTS_DIR elsewhere). `--quick` is a
 * seconds-long smoke run of the same code paths; tests/bench/quick.test.ts runs it in `npm test`.
 */
import os from 'node:os';
import { postgresVersion, stopPostgres } from './lib/db';
import { renderTable, writeResult, type Benchmark } from './lib/stats';

const ALL = ['chat-fanout', 'queue-take', 'recents', 'cold-start', 'client-lists', 'sfu'] as const;

async function load(name: string): Promise<Benchmark> {
  if (!(ALL as readonly string[]).includes(name)) throw new Error(`unknown benchmark "${name}" (known: ${ALL.join(', ')})`);
  return ((await import(new URL(`./${name}/index.ts`, import.meta.url).href)) as { default: Benchmark }).default;
}

export function machine() {
  return {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    ramGb: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    loadAvg: os.loadavg().map((l) => Number(l.toFixed(2))),
  };
}

async function main() {
  const args = process.argv.slice(2);
  const quick = args.includes('--quick');
  const names = args.filter((a) => !a.startsWith('--'));
  const selected = names.length ? names : [...ALL];
  const benchmarks = await Promise.all(selected.map(load));
  let failed = false;
  for (const b of benchmarks) {
    const started = performance.now();
    console.log(`\n== ${b.name}${quick ? ' (quick)' : ''}: ${b.description}`);
    const before = machine();
    try {
      const result = await b.run({ quick, log: (m) => console.log(`   ${m}`) });
      const seconds = (performance.now() - started) / 1000;
      for (const t of result.tables) console.log('\n' + renderTable(t));
      for (const n of result.notes ?? []) console.log(`\n${n}`);
      const file = writeResult(b.name, {
        name: b.name,
        quick,
        at: new Date().toISOString(),
        seconds: Number(seconds.toFixed(1)),
        machine: { ...before, loadAvgAtStart: before.loadAvg, loadAvgAtEnd: machine().loadAvg, postgres: await postgresVersion().catch(() => 'n/a') },
        ...result,
      });
      console.log(`\n   ${b.name}: ${seconds.toFixed(1)} s, written to ${file}`);
    } catch (err) {
      failed = true;
      console.error(`\n   ${b.name} FAILED:`, err);
    }
  }
  await stopPostgres();
  process.exit(failed ? 1 : 0);
}

await main();
