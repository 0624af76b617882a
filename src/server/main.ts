/**
 * The server's entry (`npm start`, the Docker image): config, then the database opened (the
 * embedded PostgreSQL started, migrations checked) while the app itself loads. Loading the app's
 * modules takes most of a restart, and PostgreSQL's start is another process's work, so the entry
 * imports only what opening the database needs and the app (src/server/app.ts) dynamically: the
 * bundle keeps it in a chunk of its own (scripts/setup.mjs, `splitting`).
 */
import { ConfigError, loadConfig, type Config } from './config';
import { openDatabase } from './db/open';
import { createLogger } from './logger';
import type { RunningApp } from './app';

/**
 * A first `npm start` boots the server (database, migrations, media workers) while the browser
 * app is still being built (scripts/setup.mjs --start): it listens, and /healthz answers, only
 * once setup says the build is there, so nobody is served a missing app.
 */
function waitForClientBuild(): Promise<void> {
  if (!process.send || process.env.ATENDE_LISTEN_AFTER_CLIENT_BUILD !== '1') return Promise.resolve();
  return new Promise((resolve) => {
    const onMessage = (m: unknown) => {
      if (m !== 'client built') return;
      process.off('message', onMessage);
      process.disconnect?.();
      resolve();
    };
    process.on('message', onMessage);
    process.send!('waiting for the client build');
  });
}

async function main() {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(78); // EX_CONFIG
    }
    throw err;
  }
  const logger = createLogger(config.logLevel);
  let app: RunningApp | undefined;
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 15_000).unref();
    // Before the app is up, only the database is ours to stop.
    (app ? app.stop() : database.then((d) => d.stop(), () => {})).then(
      () => {
        clearTimeout(force);
        process.exit(0);
      },
      () => process.exit(1),
    );
  };
  // Before the database opens: its embedded server is stopped here, last (the app's shutdown
  // still uses it), and the package's own signal hooks, added after these, are removed.
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  const database = openDatabase(config.database, logger, { callerHandlesSignals: true });
  database.catch(() => {}); // handed to startApp below; a failure before then must not go unhandled

  const { startApp } = await import('./app');
  const beforeListen = async () => {
    logger.info({ phase: 'server boot', ms: Math.round(performance.now()) }, 'booted; listening next');
    await waitForClientBuild();
  };
  app = await startApp(config, logger, { beforeListen, database });
  // From the process's start (its time origin) to listening: the last phase of a first start.
  logger.info({ phase: 'server start to listen', ms: Math.round(performance.now()) }, `Atende is running at ${app.url}`);
  console.log(`\n  Atende is running at ${app.url}\n`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
