import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Clock } from '../../src/server/clock';
import { loadConfig, type Config } from '../../src/server/config';
import { createLogger } from '../../src/server/logger';
import { startApp, type RunningApp } from '../../src/server/app';
import { createTestDatabase } from './db';

export interface TestServer extends RunningApp {
  db: RunningApp['server']['deps']['db'];
  databaseUrl: string;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * The real app (same `startApp` as `npm start`) on 127.0.0.1 with a random port, its own fresh
 * database and a temporary data directory. `env` overrides any setting (e.g. S3_* for MinIO).
 */
export async function startTestServer(
  opts: { env?: Record<string, string>; databaseUrl?: string; clock?: Clock } = {},
): Promise<TestServer> {
  const databaseUrl = opts.databaseUrl ?? (await createTestDatabase());
  // A known port rather than 0: links the server signs (downloads, e-mails) must carry it.
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'atende-test-'));
  const config: Config = loadConfig({
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    APP_SECRET: 'test-secret-not-for-production',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    // Media workers are exercised by their own tests; API tests do not pay for starting them.
    MEDIASOUP_NUM_WORKERS: '0',
    // Tests stand in for a proxy on this machine (X-Forwarded-For gives each "browser" its address);
    // tests/api/doors.test.ts checks the real default (none) by setting TRUST_PROXY to ''.
    TRUST_PROXY: 'loopback',
    // Each test server's own media port (UDP and TCP), as RTC_PORT's default gives one in production.
    RTC_PORT: String(await freePort()),
    ...opts.env,
  });
  const app = await startApp(config, createLogger(config.logLevel), { clock: opts.clock });
  return {
    ...app,
    db: app.server.deps.db,
    databaseUrl,
    dataDir,
    close: async () => {
      await app.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}
