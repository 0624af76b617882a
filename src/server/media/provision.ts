/**
 * Getting a mediasoup worker binary when none is installed, so `npm install && npm start` gives
 * calls without a third command. `.npmrc` turns install scripts off for every package (mediasoup's
 * own postinstall fails offline and would take `npm install` down), so the app does at start what
 * that postinstall would have done, in the background while everything else already serves:
 *   1. download mediasoup's prebuilt worker for this platform (where the network allows it);
 *   2. else, where the machine has the build tools, build it from the package's own sources with
 *      scripts/mediasoup-worker/build-worker.sh (minutes; progress is reported);
 *   3. else say exactly which packages are missing.
 * The binary lands where `resolveWorkerBin` looks first (the per-version cache), so the next start
 * finds it at once. One process builds at a time per machine (a lock next to the binary).
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Logger } from 'pino';
import { ROOT } from '../paths';

/** mediasoup's GitHub releases; MEDIASOUP_WORKER_PREBUILT_DOWNLOAD_BASE_URL overrides it, as in mediasoup's own script. */
export const PREBUILT_BASE_URL = 'https://github.com/versatica/mediasoup/releases/download';
const DOWNLOAD_TIMEOUT_MS = 60_000;
/** A lock older than this belongs to a build that died without cleaning up. */
const STALE_LOCK_MS = 60 * 60_000;
/** The Debian packages build-worker.sh needs (it lists the same). */
export const BUILD_PACKAGES = [
  'g++', 'meson', 'ninja-build', 'pkg-config', 'libssl-dev', 'libuv1-dev', 'libsrtp2-dev', 'libabsl-dev',
  'libflatbuffers-dev', 'flatbuffers-compiler', 'libusrsctp-dev',
] as const;

const BUILD_SCRIPT = path.join(ROOT, 'scripts/mediasoup-worker/build-worker.sh');

export interface ProvisionProgress {
  step: 'download' | 'build' | 'wait';
  /** 0-100 while building; undefined while the step cannot tell. */
  percent?: number;
}

export interface ProvisionOptions {
  /** The installed mediasoup package: where its sources are and which version to fetch. */
  pkg: { dir: string; version: string };
  /** Where the binary must end up (resolveWorkerBin's first candidate). */
  target: string;
  logger: Logger;
  onProgress?: (progress: ProvisionProgress) => void;
  download?: boolean;
  build?: boolean;
  downloadBaseUrl?: string;
  /** Which of BUILD_PACKAGES are missing; the machine's dpkg by default. */
  missingPackages?: () => string[];
  /** The build script (arguments: package dir, output path); scripts/mediasoup-worker/build-worker.sh by default. */
  buildScript?: string;
}

export type ProvisionResult = { bin: string } | { bin: undefined; reason: string };

/** mediasoup's prebuilt archive name for this host (npm-scripts.mjs getWorkerPrebuildTarName). */
export function prebuiltArchiveName(version: string): string {
  let name = `mediasoup-worker-${version}-${os.platform()}-${os.arch()}`;
  if (os.platform() === 'linux') name += `-kernel${Number(os.release().split('.')[0])}`;
  return `${name}.tgz`;
}

/** Debian packages of BUILD_PACKAGES that dpkg does not report installed (all of them without dpkg). */
export function missingBuildPackages(): string[] {
  return BUILD_PACKAGES.filter((p) => spawnSync('dpkg', ['-s', p], { stdio: 'ignore' }).status !== 0);
}

/**
 * A worker binary refuses to run without MEDIASOUP_VERSION and exits with 41: that exit code proves
 * it loads on this host (libc, shared libraries) without starting anything.
 */
export function runsOnThisHost(bin: string): boolean {
  return spawnSync(bin, [], { env: {}, stdio: 'ignore', timeout: 10_000 }).status === 41;
}

export async function provisionWorkerBinary(opts: ProvisionOptions): Promise<ProvisionResult> {
  const { target, logger } = opts;
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const lock = await acquireLock(`${target}.lock`, target, opts);
  if (lock === 'done') return { bin: target };
  try {
    const reasons: string[] = [];
    if (opts.download !== false) {
      opts.onProgress?.({ step: 'download' });
      const downloaded = await downloadPrebuilt(opts);
      if (downloaded === true) return { bin: target };
      reasons.push(downloaded);
      logger.info({ why: downloaded }, 'calls: no prebuilt mediasoup worker; trying to build it');
    }
    if (opts.build !== false) {
      const missing = (opts.missingPackages ?? missingBuildPackages)();
      if (missing.length) {
        reasons.push(
          `building it needs the Debian packages ${missing.join(' ')}: run \`sudo apt-get install ${missing.join(' ')}\` and restart, ` +
            'or run `npm run build:worker` (it installs them)',
        );
      } else {
        const built = await buildFromSources(opts);
        if (built === true) return { bin: target };
        reasons.push(built);
      }
    }
    return { bin: undefined, reason: `no mediasoup worker binary: ${reasons.join('; ') || 'getting one is turned off (MEDIASOUP_WORKER_AUTO=off)'}` };
  } finally {
    fs.rmSync(`${target}.lock`, { recursive: true, force: true });
  }
}

/**
 * mkdir is atomic: the process that creates the lock works, the others wait for the binary. A lock
 * whose owner is gone (or that is older than any build) is taken over.
 */
async function acquireLock(lock: string, target: string, opts: ProvisionOptions): Promise<'mine' | 'done'> {
  for (;;) {
    try {
      fs.mkdirSync(lock);
      fs.writeFileSync(path.join(lock, 'pid'), String(process.pid));
      return 'mine';
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    if (fs.existsSync(target)) return 'done';
    if (lockIsStale(lock)) {
      fs.rmSync(lock, { recursive: true, force: true });
      continue;
    }
    opts.onProgress?.({ step: 'wait' });
    await new Promise((r) => setTimeout(r, 2000).unref());
    if (fs.existsSync(target)) return 'done';
  }
}

function lockIsStale(lock: string): boolean {
  try {
    const pid = Number(fs.readFileSync(path.join(lock, 'pid'), 'utf8'));
    if (Date.now() - fs.statSync(lock).mtimeMs > STALE_LOCK_MS) return true;
    process.kill(pid, 0);
    return false;
  } catch (err) {
    // ESRCH: no such process. A lock without a pid file yet is being written: not stale.
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** true when the prebuilt binary is in place, else why not. */
async function downloadPrebuilt(opts: ProvisionOptions): Promise<true | string> {
  const base = opts.downloadBaseUrl ?? PREBUILT_BASE_URL;
  const url = `${base}/${opts.pkg.version}/${prebuiltArchiveName(opts.pkg.version)}`;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'mediasoup-prebuilt-'));
  try {
    let res: Response;
    try {
      res = await fetch(url, { signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS) });
    } catch (err) {
      return `the prebuilt worker could not be downloaded from ${url} (${(err as Error).cause ?? (err as Error).message})`;
    }
    if (!res.ok) return `the prebuilt worker download from ${url} answered ${res.status}`;
    const archive = path.join(work, 'worker.tgz');
    fs.writeFileSync(archive, Buffer.from(await res.arrayBuffer()));
    const tar = spawnSync('tar', ['-xzf', archive, '-C', work], { encoding: 'utf8' });
    const bin = path.join(work, 'mediasoup-worker');
    if (tar.status !== 0 || !fs.existsSync(bin)) return `the prebuilt worker archive from ${url} holds no mediasoup-worker`;
    fs.chmodSync(bin, 0o755);
    if (!runsOnThisHost(bin)) return 'the prebuilt worker does not run on this host';
    install(bin, opts.target);
    opts.logger.info({ url, bin: opts.target }, 'calls: downloaded the prebuilt mediasoup worker');
    return true;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** Copy then rename: a reader never sees half a binary. */
function install(from: string, target: string): void {
  fs.copyFileSync(from, `${target}.tmp`);
  fs.chmodSync(`${target}.tmp`, 0o755);
  fs.renameSync(`${target}.tmp`, target);
}

/** Runs build-worker.sh (never apt-get: a web server does not install system packages). */
function buildFromSources(opts: ProvisionOptions): Promise<true | string> {
  const { logger, target } = opts;
  logger.info({ target }, 'calls: building the mediasoup worker from its sources (several minutes); the app serves everything else meanwhile');
  opts.onProgress?.({ step: 'build', percent: 0 });
  return new Promise((resolve) => {
    const child = spawn('sh', [opts.buildScript ?? BUILD_SCRIPT, opts.pkg.dir, target], {
      env: { ...process.env, BUILD_WORKER_NO_APT: '1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let lastLogged = -10;
    let tail = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      tail = (tail + chunk).slice(-4000);
      // ninja prints "[done/total] Compiling ..." for each step of the worker's compilation.
      for (const [, done, total] of chunk.matchAll(/\[(\d+)\/(\d+)\]/g)) {
        const percent = Math.floor((Number(done) / Number(total)) * 100);
        opts.onProgress?.({ step: 'build', percent });
        if (percent >= lastLogged + 10) {
          lastLogged = percent;
          logger.info({ percent }, 'calls: building the mediasoup worker');
        }
      }
    });
    child.on('error', (err) => resolve(`the worker build could not start (${err.message})`));
    child.on('close', (code) => {
      if (code === 0 && fs.existsSync(target) && runsOnThisHost(target)) {
        logger.info({ bin: target }, 'calls: mediasoup worker built');
        resolve(true);
      } else {
        logger.error({ code, output: tail.split('\n').slice(-15).join('\n') }, 'calls: the mediasoup worker build failed');
        resolve(`the worker build failed (exit ${code}; the log has its last lines); \`npm run build:worker\` shows the whole output`);
      }
    });
  });
}
