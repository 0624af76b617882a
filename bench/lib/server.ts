import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/server/config';
import { createLogger } from '../../src/server/logger';
import { startApp, type RunningApp } from '../../src/server/app';
import { freshDatabase, type FreshDatabase } from './db';

export interface BenchServer extends RunningApp {
  db: RunningApp['server']['deps']['db'];
  database: FreshDatabase;
  close(): Promise<void>;
}

/**
 * The real app (`startApp`, as `npm start` runs it) in this process on a fresh database, so the
 * harness can sample its CPU and memory directly. Clients run in other processes.
 */
export async function startBenchServer(env: Record<string, string> = {}): Promise<BenchServer> {
  const database = await freshDatabase();
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'atende-bench-'));
  const config = loadConfig({
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    DATABASE_URL: database.url,
    APP_SECRET: 'bench-secret-not-for-production',
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    MEDIASOUP_NUM_WORKERS: '0',
    ...env,
  });
  const app = await startApp(config, createLogger(config.logLevel));
  return {
    ...app,
    db: app.server.deps.db,
    database,
    close: async () => {
      await app.stop();
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}
