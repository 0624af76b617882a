import type { Logger } from 'pino';
import type { Config } from '../config';
import { startEmbeddedPostgres } from './embedded';
import { migrate } from './migrate';

/** The app's database, reachable and migrated; `stop` ends the embedded server, if it is ours. */
export interface OpenDatabase {
  url: string;
  stop(): Promise<void>;
}

/**
 * The configured PostgreSQL (or the embedded one, started), migrated. Light on purpose: the
 * server's entry runs it while the rest of the app is still loading (src/server/main.ts).
 */
export async function openDatabase(
  config: Config['database'],
  logger: Logger,
  opts: { callerHandlesSignals?: boolean } = {},
): Promise<OpenDatabase> {
  let database: OpenDatabase;
  if (config.kind === 'embedded') {
    database = await startEmbeddedPostgres({ ...config, logger, callerHandlesSignals: opts.callerHandlesSignals });
    logger.info({ dir: config.dir, port: config.port }, 'database: embedded PostgreSQL');
  } else {
    database = { url: config.url, stop: async () => {} };
    logger.info({ host: new URL(config.url).host }, 'database: external PostgreSQL (DATABASE_URL)');
  }
  try {
    await migrate(database.url, logger);
  } catch (err) {
    await database.stop().catch(() => {});
    throw err;
  }
  return database;
}
