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
import { provisionWorkerBinary, type ProvisionProgress } from './provision';
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
export function mediasoupPackage(): { dir: string; version: string } | undefined {
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
  if (!pkg) return { bin: undefined, reason: 'the mediasoup package is not installed (run `npm install`)' };
  const candidates = [cachedWorkerPath(pkg.version), path.join(pkg.dir, 'worker', 'out', 'Release', 'mediasoup-worker')];
  const bin = candidates.find(isExecutable);
  if (bin) return { bin: path.resolve(bin) };
  return {
    bin: undefined,
    reason: `no mediasoup worker binary for mediasoup ${pkg.version} (looked at ${candidates.join(', ')}); ${HOW_TO_FIX}`,
  };
}

/** Where `npm run build:worker` and the start-up provisioning put the binary of a mediasoup version. */
export function cachedWorkerPath(version: string): string {
  const cacheDir = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(cacheDir, 'mediasoup-worker', version, 'mediasoup-worker');
}

export interface MediaWorkersOptions {
  /** MEDIASOUP_WORKER_BIN; see resolveWorkerBin for the fallbacks. */
  workerBin?: string;
  /** 0 disables calls. */
  numWorkers: number;
  rtcMinPort: number;
  rtcMaxPort: number;
  logger: Logger;
  /**
   * With no binary found (and MEDIASOUP_WORKER_BIN unset): download mediasoup's prebuilt worker,
   * then build it from sources, in the background (see provision.ts). Calls start when it is ready.
   */
  provision?: { download: boolean; build: boolean; downloadBaseUrl?: string; missingPackages?: () => string[]; buildScript?: string };
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

function preparingReason(p: ProvisionProgress): string {
  if (p.step === 'download') return 'calls are being prepared: downloading the mediasoup worker';
  if (p.step === 'wait') return 'calls are being prepared: another process is building the mediasoup worker';
  return `calls are being prepared: building the mediasoup worker (${p.percent ?? 0}%)`;
}

export class MediaWorkers {
  private readonly slots: Slot[] = [];
  private readonly diedListeners = new Set<(event: WorkerDiedEvent) => void>();
  private cursor = 0;
  private closed = false;

  private mediasoup: Mediasoup | undefined;
  /** Why calls are unavailable (no binary, disabled, failed to start); undefined once workers run. */
  private unavailable: string | undefined;
  /** Set while a worker binary is being downloaded or built. */
  private preparing: ProvisionProgress | undefined;
  private provisioning: Promise<void> | undefined;

  private constructor(private readonly opts: MediaWorkersOptions) {}

  /** Never rejects because of the worker binary: problems end up in `status()`. */
  static async start(opts: MediaWorkersOptions): Promise<MediaWorkers> {
    const pool = new MediaWorkers(opts);
    if (opts.numWorkers <= 0) {
      pool.unavailable = 'calls are disabled (MEDIASOUP_NUM_WORKERS=0)';
      return pool;
    }
    const resolved = resolveWorkerBin(opts.workerBin);
    const pkg = mediasoupPackage();
    if (resolved.bin !== undefined) {
      pool.unavailable = await pool.boot(resolved.bin);
    } else if (opts.provision && !opts.workerBin && pkg && (opts.provision.download || opts.provision.build)) {
      pool.unavailable = resolved.reason;
      pool.preparing = { step: 'download' };
      pool.provisioning = pool.provisionThenBoot(pkg, opts.provision);
    } else {
      pool.unavailable = resolved.reason;
    }
    return pool;
  }

  /** Resolves when a background download or build has finished (at once when none runs). */
  whenPrepared(): Promise<void> {
    return this.provisioning ?? Promise.resolve();
  }

  private async provisionThenBoot(pkg: { dir: string; version: string }, provision: NonNullable<MediaWorkersOptions['provision']>) {
    const { logger } = this.opts;
    logger.info('calls: no mediasoup worker binary yet; getting one in the background');
    const result = await provisionWorkerBinary({
      pkg,
      target: cachedWorkerPath(pkg.version),
      logger,
      ...provision,
      onProgress: (progress) => {
        this.preparing = progress;
      },
    }).catch((err: unknown) => ({ bin: undefined, reason: `getting a mediasoup worker failed: ${(err as Error).message}` }));
    this.preparing = undefined;
    if (this.closed) return;
    if (result.bin === undefined) {
      this.unavailable = result.reason;
      logger.warn({ reason: result.reason }, 'calls unavailable');
      return;
    }
    this.unavailable = await this.boot(result.bin);
    if (this.unavailable) logger.warn({ reason: this.unavailable }, 'calls unavailable');
  }

  /** Loads mediasoup with `bin` and starts the workers. Returns why calls are unavailable, or undefined. */
  private async boot(bin: string): Promise<string | undefined> {
    const { logger, numWorkers } = this.opts;
    // mediasoup reads MEDIASOUP_WORKER_BIN once, when its module is first loaded, and has no
    // per-worker option for it: set it first, and load mediasoup only here so that a machine
    // without a worker never pays for (or fails on) loading it.
    process.env.MEDIASOUP_WORKER_BIN = bin;
    let mediasoup: Mediasoup;
    try {
      mediasoup = await import('mediasoup');
    } catch (err) {
      return `could not load mediasoup: ${(err as Error).message}`;
    }
    if (path.resolve(mediasoup.workerBin) !== bin) {
      return `mediasoup was already loaded with worker ${mediasoup.workerBin}, not ${bin}; restart the process`;
    }
    mediasoup.setLogEventListeners({
      onwarn: (namespace, log) => logger.warn({ namespace }, log),
      onerror: (namespace, log, err) => logger.error({ namespace, err }, log),
    });
    this.mediasoup = mediasoup;
    const slots: Slot[] = Array.from({ length: numWorkers }, (_, index) => ({
      index, worker: undefined, restarts: 0, failures: [], timer: undefined, gaveUp: undefined,
    }));
    const started = await Promise.allSettled(slots.map(async (slot) => this.attach(slot, await this.createWorker())));
    const failed = started.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed || this.closed) {
      // One broken start means a broken binary or host, not bad luck: report it instead of limping.
      for (const slot of slots) slot.worker?.close();
      await Promise.all(slots.flatMap((s) => (s.worker ? [waitForExit(s.worker)] : [])));
      if (!failed) return 'mediasoup workers are shut down';
      const message = failed.reason instanceof Error ? failed.reason.message : String(failed.reason);
      return `mediasoup worker ${bin} failed to start: ${message}`;
    }
    this.slots.push(...slots);
    logger.info({ bin, workers: numWorkers, version: mediasoup.version }, 'mediasoup workers started');
    return undefined;
  }

  status(): MediaStatus {
    if (this.preparing) return { available: false, reason: preparingReason(this.preparing), preparing: this.preparing };
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

  /** Every live worker with its index: a large room spreads its consumers over them (rooms.ts). */
  liveWorkers(): { index: number; worker: Worker }[] {
    return this.slots.flatMap((s) => (s.worker ? [{ index: s.index, worker: s.worker }] : []));
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
