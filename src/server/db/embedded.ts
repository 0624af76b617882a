import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import { EMBEDDED_PASSWORD, embeddedPostgresServer, initialiseEmbeddedPostgres } from './embedded-init.mjs';

export interface EmbeddedPostgres {
  url: string;
  stop(): Promise<void>;
}

/**
 * A real PostgreSQL shipped inside an npm package, for `npm start` with nothing configured.
 * The cluster lives in `dir` and survives restarts; the first start initialises it (1-3 s).
 * Its settings are in embedded-init.mjs, shared with scripts/setup.mjs.
 */
export async function startEmbeddedPostgres(opts: {
  dir: string;
  port: number;
  logger: Logger;
  /**
   * The caller stops it on SIGINT and SIGTERM, in its own shutdown's order (the server's entry).
   * The package's own signal hooks would stop PostgreSQL at once, under a shutdown still using
   * it, and exit the process: they are removed.
   */
  callerHandlesSignals?: boolean;
}): Promise<EmbeddedPostgres> {
  const logs = {
    onLog: (m: unknown) => opts.logger.debug({ pg: String(m).trim() }, 'embedded postgres'),
    onError: (m: unknown) => opts.logger.debug({ pg: String(m).trim() }, 'embedded postgres'),
  };
  const listening = new Map(SIGNALS.map((signal) => [signal, new Set(process.listeners(signal))]));
  const pg = await embeddedPostgresServer({ dir: opts.dir, port: opts.port, ...logs });
  if (opts.callerHandlesSignals) {
    // Hooked when the package is first imported, just now. Whatever else added one meanwhile
    // would go too: the entry imports the app in the same window, and none of its modules hooks
    // these signals when loaded (checked on the bundle, 2026-11-27); a package that starts to
    // would need this narrowed to async-exit-hook's own listeners.
    for (const signal of SIGNALS) for (const l of process.listeners(signal)) if (!listening.get(signal)!.has(l)) process.off(signal, l);
  }
  let t0 = performance.now();
  // `npm start` usually did this already, while it built the app (scripts/setup.mjs --initdb).
  if (await initialiseEmbeddedPostgres(opts.dir, logs)) {
    opts.logger.info({ dir: opts.dir, phase: 'initdb', ms: Math.round(performance.now() - t0) }, 'embedded PostgreSQL initialised');
  }
  // A crash can leave a stale pid file behind, which would stop the server from starting.
  const pidFile = path.join(opts.dir, 'postmaster.pid');
  if (fs.existsSync(pidFile)) {
    const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
    if (!pid || !isAlive(pid)) fs.rmSync(pidFile);
  }
  t0 = performance.now();
  await pg.start();
  const client = pg.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  const exists = await client.query(`SELECT 1 FROM pg_database WHERE datname = 'atende'`);
  if (exists.rowCount === 0) await client.query('CREATE DATABASE atende');
  await client.end();
  opts.logger.info({ phase: 'postgres start', ms: Math.round(performance.now() - t0) }, 'embedded PostgreSQL started');
  return {
    url: `postgresql://postgres:${EMBEDDED_PASSWORD}@127.0.0.1:${opts.port}/atende`,
    stop: () => pg.stop(),
  };
}

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
