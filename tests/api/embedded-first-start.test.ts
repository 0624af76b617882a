/**
 * The first start on embedded defaults: `npm start` runs initdb in scripts/setup.mjs (--initdb),
 * beside the builds, and the server then starts that cluster without initialising it again and
 * migrates it. Real embedded PostgreSQL in a temporary DATA_DIR.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../src/server/db/embedded';
import { localMigrations, migrate } from '../../src/server/db/migrate';
import { pgConnectionFields } from '../../src/server/db/url';
import { createLogger } from '../../src/server/logger';

async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as net.AddressInfo;
  await new Promise((resolve) => srv.close(resolve));
  return port;
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'atende-first-start-'));
// As root, embedded PostgreSQL initialises its directory as the `postgres` user: let it in.
fs.chmodSync(dataDir, 0o755);
let running: EmbeddedPostgres | undefined;
afterAll(async () => {
  await running?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('first start on embedded defaults', () => {
  it('setup initialises the cluster the server then starts and migrates', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
    delete env.DATABASE_URL;
    const setup = spawnSync(process.execPath, ['scripts/setup.mjs', '--initdb'], { env, encoding: 'utf8' });
    expect(setup.status, setup.stderr).toBe(0);
    expect(setup.stdout).toMatch(/\[setup\] phase initdb: \d+ ms/);
    const cluster = path.join(dataDir, 'postgres');
    expect(fs.existsSync(path.join(cluster, 'PG_VERSION'))).toBe(true);

    // Done already: a second setup leaves it alone, and so does the server.
    const again = spawnSync(process.execPath, ['scripts/setup.mjs', '--initdb'], { env, encoding: 'utf8' });
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).not.toContain('phase initdb');

    const lines: string[] = [];
    const logger = createLogger('info');
    logger.info = ((obj: unknown) => void lines.push(JSON.stringify(obj))) as typeof logger.info;
    running = await startEmbeddedPostgres({ dir: cluster, port: await freePort(), logger });
    expect(lines.join('\n')).not.toContain('"phase":"initdb"');
    expect(await migrate(running.url, createLogger('silent'))).toEqual({ applied: true });
    const client = new pg.Client(pgConnectionFields(running.url));
    await client.connect();
    const applied = await client.query('SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL ORDER BY 1');
    await client.end();
    expect(applied.rows.map((r) => r.migration_name)).toEqual(localMigrations());
  }, 120_000);

  it('the server stops on SIGTERM in its own order: connections closed, then PostgreSQL, exit 0', async () => {
    await running?.stop();
    running = undefined;
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), EMBEDDED_PG_PORT: String(await freePort()), LOG_LEVEL: 'info' };
    delete env.DATABASE_URL;
    const server = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    server.stdout.on('data', (d) => (output += d));
    server.stderr.on('data', (d) => (output += d));
    const exited = new Promise<number | null>((resolve) => server.on('exit', (code) => resolve(code)));
    await expect
      .poll(async () => (await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => null))?.status, { timeout: 90_000, interval: 100 })
      .toBe(200);
    server.kill('SIGTERM');
    expect(await exited, output).toBe(0);
    expect(output).toContain('shutting down');
    // The embedded PostgreSQL's hooks used to stop it at the signal, under the app's shutdown.
    expect(output).not.toContain('database connection lost');
    expect(fs.existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
  }, 120_000);
});
