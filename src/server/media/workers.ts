/**
 * The pool of mediasoup worker processes (the C++ SFU). Calls are optional: a missing or broken
 * worker binary leaves the rest of the app running and `status()` says why calls are unavailable.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type { types } from 'mediasoup';
import type { Logger } from 'pino';
import type { MediaStatus } from './status';

type Worker = types.Worker;

const HOW_TO_FIX = 'run `npm run build:worker` (see README, Calls)';
/** A worker that crash-loops points at the binary or the host, not at one call: stop retrying. */
const MAX_RESTARTS_PER_MINUTE = 5;
/** createWorker() has no timeout of its own; a binary that never reports "running" would hang start. */
const START_TIMEOUT_MS = 10_000;
const CLOSE_TIMEOUT_MS = 3_000;

export type WorkerBinResolution = { bin: string } | { bin: undefined; reason: string };

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The installed mediasoup package's directory and version, without loading the package. */
function mediasoupPackage(): { dir: string; version: string } | undefined {
  try {
    // The package's `exports` hide package.json; its entry point is <dir>/node/lib/index.js.
    const entry = createRequire(import.meta.url).resolve('mediasoup');
    const dir = path.resolve(path.dirname(entry), '..', '..');
    const { version } = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string };
    return { dir, version };
  } catch {
    return undefined;
  }
}

/**
 * Which worker binary to run: MEDIASOUP_WORKER_BIN when set (no fallback, so a typo is reported
 * instead of silently running another build), else the one `npm run build:worker` caches for the
 * installed mediasoup version, else the one mediasoup's own postinstall would have built.
 */
export function resolveWorkerBin(configured: string | undefined): WorkerBinResolution {
  if (configured) {
    if (isExecutable(configured)) return { bin: path.resolve(configured) };
    return {
      bin: undefined,
      reason: `MEDIASOUP_WORKER_BIN is set to ${configured} but no executable file is there; fix or unset it, or ${HOW_TO_FIX}`,
    };
  }
  const pkg = mediasoupPackage();
  if (!pkg) return { bin: undefined, reason: 'the mediasoup package is not installed (run `npm ci`)' };
  const cacheDir = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  const candidates = [
    path.join(cacheDir, 'mediasoup-worker', pkg.version, 'mediasoup-worker'),
    path.join(pkg.dir, 'worker', 'out', 'Release', 'mediasoup-worker'),
  ];
  const bin = candidates.find(isExecutable);
  if (bin) return { bin: path.resolve(bin) };
  return {
    bin: undefined,
    reason: `no mediasoup worker binary for mediasoup ${pkg.version} (looked at ${candidates.join(', ')}); ${HOW_TO_FIX}`,
  };
}

export interface MediaWorkersOptions {
  /** MEDIASOUP_WORKER_BIN; see resolveWorkerBin for the fallbacks. */
  workerBin?: string;
  /** 0 disables calls. */
  numWorkers: number;
  rtcMinPort: number;
  rtcMaxPort: number;
  logger: Logger;
}

export interface WorkerDiedEvent {
  index: number;
  pid: number;
  error: Error;
}

type Mediasoup = typeof import('mediasoup');

interface Slot {
  index: number;
  worker: Worker | undefined;
  /** Successful replacements at this index since start. */
  restarts: number;
  /** Times this index died or failed to restart, within the last minute. */
  failures: number[];
  timer: NodeJS.Timeout | undefined;
  /** Set when this index stopped being restarted. */
  gaveUp: string | undefined;
}

function withTimeout<T>(promise: Promise<T>, ms: number, onLate: (value: T) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let late = false;
    const timer = setTimeout(() => {
      late = true;
      reject(new Error(`did not start within ${ms / 1000} s`));
    }, ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        if (late) onLate(value);
        else resolve(value);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err);
      },
    );
  });
}

function waitForExit(worker: Worker): Promise<void> {
  if (worker.subprocessClosed) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, CLOSE_TIMEOUT_MS);
    worker.on('subprocessclose', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

export class MediaWorkers {
  private readonly slots: Slot[] = [];
  private readonly diedListeners = new Set<(event: WorkerDiedEvent) => void>();
  private cursor = 0;
  private closed = false;

  private constructor(
    private readonly mediasoup: Mediasoup | undefined,
    private readonly opts: MediaWorkersOptions,
    /** Why calls are unavailable from the start (no binary, disabled, failed to start). */
    private readonly unavailable: string | undefined,
  ) {}

  /** Never rejects because of the worker binary: problems end up in `status()`. */
  static async start(opts: MediaWorkersOptions): Promise<MediaWorkers> {
    const { logger } = opts;
    const unavailable = (reason: string) => new MediaWorkers(undefined, opts, reason);
    if (opts.numWorkers <= 0) return unavailable('calls are disabled (MEDIASOUP_NUM_WORKERS=0)');

    const resolved = resolveWorkerBin(opts.workerBin);
    if (resolved.bin === undefined) return unavailable(resolved.reason);

    // mediasoup reads MEDIASOUP_WORKER_BIN once, when its module is first loaded, and has no
    // per-worker option for it: set it first, and load mediasoup only here so that a machine
    // without a worker never pays for (or fails on) loading it.
    process.env.MEDIASOUP_WORKER_BIN = resolved.bin;
    let mediasoup: Mediasoup;
    try {
      mediasoup = await import('mediasoup');
    } catch (err) {
      return unavailable(`could not load mediasoup: ${(err as Error).message}`);
    }
    if (path.resolve(mediasoup.workerBin) !== resolved.bin) {
      return unavailable(
        `mediasoup was already loaded with worker ${mediasoup.workerBin}, not ${resolved.bin}; restart the process`,
      );
    }
    mediasoup.setLogEventListeners({
      onwarn: (namespace, log) => logger.warn({ namespace }, log),
      onerror: (namespace, log, err) => logger.error({ namespace, err }, log),
    });

    const pool = new MediaWorkers(mediasoup, opts, undefined);
    const started = await Promise.allSettled(
      Array.from({ length: opts.numWorkers }, async (_, index) => {
        const slot: Slot = { index, worker: undefined, restarts: 0, failures: [], timer: undefined, gaveUp: undefined };
        pool.slots.push(slot);
        pool.attach(slot, await pool.createWorker());
      }),
    );
    const failed = started.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) {
      // One broken start means a broken binary or host, not bad luck: report it instead of limping.
      await pool.close();
      const message = failed.reason instanceof Error ? failed.reason.message : String(failed.reason);
      return unavailable(`mediasoup worker ${resolved.bin} failed to start: ${message}`);
    }
    logger.info({ bin: resolved.bin, workers: opts.numWorkers, version: mediasoup.version }, 'mediasoup workers started');
    return pool;
  }

  status(): MediaStatus {
    if (this.unavailable) return { available: false, reason: this.unavailable };
    if (this.closed) return { available: false, reason: 'mediasoup workers are shut down' };
    // A slot being restarted still counts as available: its replacement is milliseconds away.
    if (this.slots.every((s) => s.gaveUp)) return { available: false, reason: this.slots[0]!.gaveUp! };
    const live = this.slots.filter((s) => s.worker);
    return { available: true, workers: live.map((s) => ({ index: s.index, pid: s.worker!.pid, restarts: s.restarts })) };
  }

  /** The worker for a new router, round-robin over the live ones. Throws when none is live. */
  nextWorker(): { index: number; worker: Worker } {
    for (let i = 0; i < this.slots.length; i++) {
      const slot = this.slots[(this.cursor + i) % this.slots.length]!;
      if (slot.worker) {
        this.cursor = (slot.index + 1) % this.slots.length;
        return { index: slot.index, worker: slot.worker };
      }
    }
    const status = this.status();
    throw new Error(status.available ? 'no mediasoup worker is ready (restarting)' : `calls unavailable: ${status.reason}`);
  }

  /**
   * Called after a worker died, before its replacement starts. Its routers and transports are
   * already gone: end the calls that were on `index`. Returns an unsubscribe function.
   */
  onWorkerDied(listener: (event: WorkerDiedEvent) => void): () => void {
    this.diedListeners.add(listener);
    return () => this.diedListeners.delete(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    const workers: Worker[] = [];
    for (const slot of this.slots) {
      clearTimeout(slot.timer);
      if (slot.worker) workers.push(slot.worker);
      slot.worker = undefined;
    }
    for (const worker of workers) worker.close();
    // close() only asks the worker to exit; wait so no orphan process outlives the app.
    await Promise.all(workers.map(waitForExit));
  }

  private createWorker(): Promise<Worker> {
    return withTimeout(
      this.mediasoup!.createWorker({ logLevel: 'warn', rtcMinPort: this.opts.rtcMinPort, rtcMaxPort: this.opts.rtcMaxPort }),
      START_TIMEOUT_MS,
      (late) => late.close(),
    );
  }

  private attach(slot: Slot, worker: Worker): void {
    slot.worker = worker;
    worker.on('died', (error) => this.handleDeath(slot, worker, error));
  }

  private handleDeath(slot: Slot, worker: Worker, error: Error): void {
    if (this.closed || slot.worker !== worker) return;
    slot.worker = undefined;
    this.opts.logger.error({ err: error, index: slot.index, pid: worker.pid }, 'mediasoup worker died; its calls ended');
    for (const listener of this.diedListeners) {
      try {
        listener({ index: slot.index, pid: worker.pid, error });
      } catch (err) {
        this.opts.logger.error({ err, index: slot.index }, 'workerDied listener failed');
      }
    }
    this.scheduleRestart(slot, `died (${error.message})`);
  }

  private scheduleRestart(slot: Slot, why: string): void {
    const now = Date.now();
    slot.failures = slot.failures.filter((t) => now - t < 60_000);
    slot.failures.push(now);
    if (slot.failures.length > MAX_RESTARTS_PER_MINUTE) {
      slot.gaveUp = `mediasoup worker ${slot.index} failed ${slot.failures.length} times within a minute (last: ${why}); restart the app after fixing the cause`;
      this.opts.logger.error({ index: slot.index }, slot.gaveUp);
      return;
    }
    // The first death restarts at once; a worker that keeps failing is retried more slowly.
    const delay = Math.min(1000 * (slot.failures.length - 1), 5000);
    slot.timer = setTimeout(() => void this.restart(slot), delay);
  }

  private async restart(slot: Slot): Promise<void> {
    slot.timer = undefined;
    if (this.closed) return;
    try {
      const worker = await this.createWorker();
      if (this.closed) {
        worker.close();
        return;
      }
      slot.restarts += 1;
      this.attach(slot, worker);
      this.opts.logger.warn({ index: slot.index, pid: worker.pid, restarts: slot.restarts }, 'mediasoup worker restarted');
    } catch (err) {
      this.opts.logger.error({ err, index: slot.index }, 'mediasoup worker failed to restart');
      this.scheduleRestart(slot, `restart failed (${(err as Error).message})`);
    }
  }
}
