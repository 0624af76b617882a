/**
 * cold-start: `npm start` to /healthz 200 on embedded defaults (a fresh data directory: initdb and
 * every migration; then a restart on that data), and the JavaScript a browser downloads to show
 * /i/recent, gzip, with the code-split chunks it fetched. Baselines: `node -e` of an empty
 * Express server (the floor of starting Node at all), and the whole client bundle.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { launchBrowser } from '../../tests/helpers/browser';
import { SESSION_COOKIE } from '../../src/server/modules/identity/sessions';
import { freshDatabase } from '../lib/db';
import { usersWithSessions } from '../lib/http';
import { freePort, startBenchServer } from '../lib/server';
import { fmt, ratio, type Benchmark } from '../lib/stats';
import { CONVERSATION_PREFETCH_MARK } from '../../src/client/features/recent/prefetch';

const ASSETS = path.resolve('dist/client/assets');
/**
 * What /i/recent downloads first, gzip: the target of issue 22 is 200 KB, and it is the ceiling
 * (the benchmark, and so `npm test`, fails above it). It was ~351 KiB while one 'aria' chunk
 * (React Aria, ~95 KiB), zod and the whole catalogue came with the shell; it is ~193 KiB (198 KB)
 * with the shell on native buttons, its menus and dialogs loaded on use, no zod and only the
 * messages of the first download (docs/performance.md, 'the first download of /i/recent').
 * Decimal kilobytes (the stricter).
 */
export const INITIAL_JS_TARGET_GZIP = 200_000;
export const INITIAL_JS_BUDGET_GZIP = Number(process.env.BENCH_INITIAL_JS_BUDGET ?? INITIAL_JS_TARGET_GZIP);

/**
 * The phases a start prints with their durations: scripts/setup.mjs's "[setup] phase <name>: <n> ms"
 * lines (Prisma generate, client build, server build, initdb; side by side, so they overlap) and
 * the server's log lines with `phase` and `ms` (postgres start, migrations, start to listen).
 */
export function phasesOf(output: string): Record<string, number> {
  const phases: Record<string, number> = {};
  for (const line of output.split('\n')) {
    const setup = line.match(/^\[setup\] phase (.+): (\d+) ms$/);
    if (setup) phases[setup[1]!] = Number(setup[2]);
    else if (line.startsWith('{') && line.includes('"phase"')) {
      try {
        const entry = JSON.parse(line) as { phase?: string; ms?: number };
        if (entry.phase && typeof entry.ms === 'number') phases[entry.phase] = entry.ms;
      } catch {}
    }
  }
  return phases;
}

/** Spawns `cmd` in its own process group and times it until GET /healthz answers 200. */
async function timeToHealthy(cmd: string, args: string[], env: Record<string, string | undefined>, port: number, timeoutMs: number, cwd?: string) {
  const t0 = performance.now();
  const child = spawn(cmd, args, { cwd, env: env as NodeJS.ProcessEnv, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let phaseLines = '';
  const collect = (d: Buffer) => {
    const text = d.toString();
    output = (output + text).slice(-4000);
    phaseLines += text.split('\n').filter((l) => l.includes('phase')).map((l) => `${l}\n`).join('');
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${cmd} ${args.join(' ')} exited with ${child.exitCode}:\n${output}`);
      if (performance.now() - t0 > timeoutMs) throw new Error(`${cmd} ${args.join(' ')}: no /healthz 200 within ${timeoutMs} ms:\n${output}`);
      const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) return { ms: performance.now() - t0, child, phases: () => phasesOf(phaseLines) };
      await new Promise((r) => setTimeout(r, 25));
    }
  } catch (err) {
    await stopGroup(child);
    throw err;
  }
}

/** SIGTERM to the process group we started (npm, node, embedded postgres), SIGKILL if it lingers. */
async function stopGroup(child: ChildProcess) {
  if (child.exitCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {}
  }, 20_000);
  await exited;
  clearTimeout(timer);
  // The group outlives npm by a moment while node and postgres finish shutting down.
  for (let i = 0; i < 400; i++) {
    try {
      process.kill(-child.pid, 0);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

function baseEnv(port: number, dataDir: string): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info', NODE_ENV: 'production' };
  delete env.DATABASE_URL;
  delete env.npm_config_prefix;
  return env;
}

/** The committed tree in a temporary folder with this checkout's node_modules linked in. */
function freshClone(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'atende-clone-'));
  const r = spawnSync('sh', ['-c', `git archive HEAD | tar -x -C '${dir}'`], { stdio: 'inherit' });
  if (r.status !== 0) throw new Error('git archive HEAD failed');
  fs.symlinkSync(path.resolve('node_modules'), path.join(dir, 'node_modules'));
  fs.chmodSync(dir, 0o755);
  return dir;
}

const gz = (file: string) => zlib.gzipSync(fs.readFileSync(file)).length;

/** The scripts Chromium fetched to render /i/recent for a signed-in member. */
async function initialJs() {
  const server = await startBenchServer();
  const browser = await launchBrowser();
  try {
    const [me] = await usersWithSessions(server.db, 1, 'Ana Inicial');
    const company = await server.db.company.create({ data: { domain: `cs${Date.now().toString(36)}`, name: 'Cold Start', creatorId: me!.id } });
    await server.db.member.create({ data: { companyId: company.id, userId: me!.id, isAdmin: true, profile: 'A01', inviteAccepted: true, joinedAt: new Date() } });
    await server.db.user.update({ where: { id: me!.id }, data: { defaultCompanyId: company.id } });
    const context = await browser.newContext();
    const url = new URL(server.url);
    await context.addCookies([{ name: SESSION_COOKIE, value: me!.cookie.split('=')[1]!, domain: url.hostname, path: '/' }]);
    const page = await context.newPage();
    await page.goto(`${server.url}/i/recent`, { waitUntil: 'networkidle' });
    const landedOn = new URL(page.url()).pathname;
    // What the page asked for before the app, idle with the list shown, began fetching what
    // opening a conversation needs (features/recent/prefetch.ts): that later part is not needed
    // to render /i/recent and is reported apart.
    const fetched = (await page.evaluate(`(() => {
      const mark = performance.getEntriesByName(${JSON.stringify(CONVERSATION_PREFETCH_MARK)})[0];
      return performance.getEntriesByType('resource')
        .filter((e) => new URL(e.name).pathname.startsWith('/assets/') && e.name.endsWith('.js'))
        .map((e) => ({ name: new URL(e.name).pathname.split('/').pop(), later: !!mark && e.startTime >= mark.startTime }));
    })()`)) as { name: string; later: boolean }[];
    const entry = (fs.readFileSync(path.resolve('dist/client/index.html'), 'utf8').match(/<script[^>]+src="\/assets\/([^"]+)"/) ?? [])[1];
    const sized = (names: string[]) => [...new Set(names)].map((name) => ({ name, raw: fs.statSync(path.join(ASSETS, name)).size, gzip: gz(path.join(ASSETS, name)) }));
    return { landedOn, entry, chunks: sized(fetched.filter((f) => !f.later).map((f) => f.name)), prefetched: sized(fetched.filter((f) => f.later).map((f) => f.name)) };
  } finally {
    await browser.close();
    await server.close();
  }
}

const bench: Benchmark = {
  name: 'cold-start',
  description: 'npm start to /healthz 200, and the initial JavaScript of /i/recent',
  async run({ quick, log }) {
    const rows: (string | number)[][] = [];
    const timings: Record<string, number> = {};
    const phases: Record<string, Record<string, number>> = {};
    const phaseRows: (string | number)[][] = [];
    const notePhases = (key: string, label: string, found: Record<string, number>) => {
      phases[key] = found;
      for (const [name, ms] of Object.entries(found)) phaseRows.push([label, name, fmt(ms, 0)]);
    };

    // Baseline: Node plus an empty Express app answering /healthz.
    const basePort = await freePort();
    const empty = `const e=require('express');const a=e();a.get('/healthz',(q,r)=>r.send('ok'));a.listen(${basePort},'127.0.0.1')`;
    const base = await timeToHealthy(process.execPath, ['-e', empty], { ...process.env }, basePort, 30_000);
    await stopGroup(base.child);
    timings.emptyExpress = base.ms;
    log(`empty Express: ${fmt(base.ms, 0)} ms`);

    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'atende-cold-'));
    // Run as root, embedded PostgreSQL initialises its directory as another user: let it in.
    fs.chmodSync(dataDir, 0o755);
    try {
      if (!quick) {
        // A fresh clone after `npm install`: the committed tree (git archive), the installed
        // node_modules linked in, no dist/ and no generated Prisma client; its first `npm start`
        // generates the client, builds the browser app and the server, runs initdb and migrations.
        const clone = freshClone();
        try {
          const port = await freePort();
          const r = await timeToHealthy('npm', ['start'], { ...baseEnv(port, dataDir), EMBEDDED_PG_PORT: String(await freePort()) }, port, 300_000, clone);
          await stopGroup(r.child);
          timings.freshClone = r.ms;
          notePhases('freshClone', 'fresh clone', r.phases());
          rows.push(['npm start, fresh clone (Prisma generate, client + server builds, initdb, migrations)', fmt(r.ms, 0), ratio(r.ms, base.ms)]);
          log(`fresh clone: ${fmt(r.ms, 0)} ms`);
        } finally {
          fs.rmSync(clone, { recursive: true, force: true });
          fs.rmSync(dataDir, { recursive: true, force: true });
          fs.mkdirSync(dataDir, { mode: 0o755 });
          fs.chmodSync(dataDir, 0o755);
        }
        // The embedded defaults in this checkout (builds done): initdb + migrations, then restarts:
        // through npm (setup's checks, then the compiled server), the compiled server alone, and the
        // TypeScript sources through tsx (how the server ran before it was compiled).
        const pgPort = String(await freePort());
        for (const [key, label, cmd, args] of [
          ['firstStart', 'npm start, embedded defaults, fresh data dir (initdb + migrations)', 'npm', ['start']],
          ['restart', 'npm start, embedded defaults, restart on that data', 'npm', ['start']],
          ['compiledRestart', 'node dist/server/main.js (compiled), restart on that data', process.execPath, ['dist/server/main.js']],
          ['tsxRestart', 'node --import tsx src/server/main.ts, restart on that data', process.execPath, ['--import', 'tsx', 'src/server/main.ts']],
        ] as const) {
          const port = await freePort();
          const r = await timeToHealthy(cmd, [...args], { ...baseEnv(port, dataDir), EMBEDDED_PG_PORT: pgPort }, port, 180_000);
          await stopGroup(r.child);
          timings[key] = r.ms;
          if (key === 'firstStart' || key === 'restart') notePhases(key, key === 'firstStart' ? 'fresh data dir' : 'restart', r.phases());
          rows.push([label, fmt(r.ms, 0), ratio(r.ms, base.ms)]);
          log(`${label}: ${fmt(r.ms, 0)} ms`);
        }
      }
      // Against an already-migrated external database: the app's own boot, without PostgreSQL's.
      const db = await freshDatabase();
      try {
        const port = await freePort();
        const r = await timeToHealthy('npm', ['start'], { ...baseEnv(port, dataDir), DATABASE_URL: db.url }, port, 60_000);
        await stopGroup(r.child);
        timings.externalDb = r.ms;
        rows.push(['npm start, DATABASE_URL (migrated), same data dir', fmt(r.ms, 0), ratio(r.ms, base.ms)]);
        log(`external database: ${fmt(r.ms, 0)} ms`);
      } finally {
        await db.drop();
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
    rows.push(['baseline: node -e, empty Express app', fmt(base.ms, 0), '1.00x']);

    const js = await initialJs();
    const all = fs.readdirSync(ASSETS).filter((f) => f.endsWith('.js'));
    const whole = { raw: all.reduce((a, f) => a + fs.statSync(path.join(ASSETS, f)).size, 0), gzip: all.reduce((a, f) => a + gz(path.join(ASSETS, f)), 0) };
    const initial = { raw: js.chunks.reduce((a, c) => a + c.raw, 0), gzip: js.chunks.reduce((a, c) => a + c.gzip, 0) };
    const kb = (n: number) => fmt(n / 1024);
    // The budget (issue 22): a feature that pushes /i/recent's first download past it fails the
    // benchmark, quick mode included, so tests/bench/quick.test.ts catches it in `npm test`.
    if (initial.gzip > INITIAL_JS_BUDGET_GZIP) {
      throw new Error(
        `initial JavaScript of /i/recent is ${kb(initial.gzip)} KiB gzip, over the budget of ${kb(INITIAL_JS_BUDGET_GZIP)} KiB: ` +
          js.chunks.map((c) => `${c.name} ${kb(c.gzip)}`).join(', '),
      );
    }
    return {
      tables: [
        { title: 'cold-start: to /healthz 200', columns: ['start', 'ms', 'vs empty Express'], rows },
        ...(phaseRows.length
          ? [{ title: 'cold-start: phases of npm start (setup steps run side by side; server phases follow them)', columns: ['start', 'phase', 'ms'], rows: phaseRows }]
          : []),
        {
          title: `cold-start: JavaScript fetched to render /i/recent (landed on ${js.landedOn}), gzip -9 of the built files`,
          columns: ['chunk', 'KiB', 'KiB gzip'],
          rows: [
            ...js.chunks.sort((a, b) => b.gzip - a.gzip).map((c) => [c.name + (c.name === js.entry ? ' (entry)' : ''), kb(c.raw), kb(c.gzip)]),
            [`initial total (${js.chunks.length} chunks)`, kb(initial.raw), kb(initial.gzip)],
            [`then, idle, for opening a conversation (${js.prefetched.length} chunks, not initial)`, kb(js.prefetched.reduce((a, c) => a + c.raw, 0)), kb(js.prefetched.reduce((a, c) => a + c.gzip, 0))],
            [`baseline: whole bundle (${all.length} chunks)`, kb(whole.raw), kb(whole.gzip)],
            ['initial / whole', ratio(initial.raw, whole.raw), ratio(initial.gzip, whole.gzip)],
            [`ceiling (the benchmark fails above): ${fmt(INITIAL_JS_BUDGET_GZIP / 1000, 0)} KB gzip`, '', kb(INITIAL_JS_BUDGET_GZIP)],
            [`target (issue 22): ${fmt(INITIAL_JS_TARGET_GZIP / 1000, 0)} KB gzip, ${initial.gzip <= INITIAL_JS_TARGET_GZIP ? 'met' : 'not met'}`, '', kb(INITIAL_JS_TARGET_GZIP)],
          ],
        },
      ],
      summary: { timingsMs: timings, phasesMs: phases, initialJs: { ...initial, landedOn: js.landedOn, chunks: js.chunks, prefetched: js.prefetched }, wholeBundle: { ...whole, chunks: all.length } },
    };
  },
};
export default bench;
