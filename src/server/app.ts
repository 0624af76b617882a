/**
 * Boot order: config -> db (with the sfu's workers starting beside it) -> storage -> http (trpc + socket.io) -> jobs.
 * `startApp` is what the server's entry (src/server/main.ts: `npm start`, the Docker image) and
 * the tests run.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { systemClock, type Clock } from './clock';
import type { Config } from './config';
import { closeDb, createDb } from './db/client';
import { openDatabase, type OpenDatabase } from './db/open';
import { createServer, type AppServer } from './http';
import { startJobs } from './jobs';
import { createLogger, type Logger } from './logger';
import { createMailer } from './mail';
import { MediaWorkers } from './media';
import { startCalls } from './modules/calls/service';
import { createSocketAdapter } from './realtime/adapter';
import { createSmsSender } from './sms';
import { createStorage } from './storage';

export interface RunningApp {
  url: string;
  server: AppServer;
  stop(): Promise<void>;
}

const SHUTDOWN_STEP_MS = 15_000;

export async function startApp(
  config: Config,
  logger: Logger = createLogger(config.logLevel),
  opts: {
    clock?: Clock;
    beforeListen?: () => Promise<void>;
    /** The database already being opened (by the entry, while this module loaded); else opened here. */
    database?: Promise<OpenDatabase>;
  } = {},
): Promise<RunningApp> {
  const clock = opts.clock ?? systemClock;
  const cleanups: (() => Promise<void>)[] = [];
  // Each step gets a deadline: a transaction still running when the sockets drop (a call's
  // leave or charge) must not keep the process, or a test's server, from ever stopping.
  const stop = async () => {
    for (const cleanup of cleanups.reverse()) {
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          logger.warn({ ms: SHUTDOWN_STEP_MS }, 'shutdown step did not finish in time; going on');
          resolve();
        }, SHUTDOWN_STEP_MS);
      });
      await Promise.race([cleanup().catch((err) => logger.error({ err }, 'shutdown step failed')), deadline]);
      clearTimeout(timer);
    }
  };
  // The media workers start while the database does and migrates (neither needs the other).
  let mediaStarting: Promise<MediaWorkers> | undefined;
  let mediaOwned = false;
  try {
    mediaStarting = MediaWorkers.start({
      workerBin: config.media.workerBin,
      provision: config.media.provision,
      numWorkers: config.media.numWorkers,
      rtcMinPort: config.media.minPort,
      rtcMaxPort: config.media.maxPort,
      logger,
    });
    mediaStarting.catch(() => {}); // awaited below; a failure before then must not go unhandled
    const database = await (opts.database ?? openDatabase(config.database, logger));
    cleanups.push(() => database.stop());
    const databaseUrl = database.url;
    const db = createDb(databaseUrl, { onError: (err) => logger.error({ err }, 'database connection lost') });
    cleanups.push(() => closeDb(db));

    const appSecret = config.appSecret ?? readOrCreateSecret(config.dataDir);
    const storage = createStorage(config.storage, { publicUrl: config.publicUrl, secret: appSecret });
    await storage.init();
    logger.info(
      config.storage.kind === 'minio'
        ? { endpoint: config.storage.endpoint, bucket: config.storage.bucket }
        : { dir: config.storage.dir },
      `storage: ${config.storage.kind === 'minio' ? 'MinIO/S3' : 'local disk'}`,
    );

    const media = await mediaStarting;
    mediaOwned = true;
    cleanups.push(() => media.close());
    const mediaStatus = media.status();
    if (mediaStatus.available) logger.info({ workers: mediaStatus.workers.length }, 'calls: mediasoup workers ready');
    else logger.warn({ reason: mediaStatus.reason }, 'calls unavailable');

    const mailer = createMailer({ ...config.mail, db, logger });
    const sms = createSmsSender({ ...config.sms, db, logger });
    logger.info({ mail: mailer.kind, sms: sms.kind }, 'mail and SMS');

    const socketAdapter = await createSocketAdapter(config.realtime.adapter, databaseUrl, logger);
    cleanups.push(() => socketAdapter.close());
    logger.info({ adapter: socketAdapter.kind }, 'realtime: Socket.IO adapter');

    const server = createServer({ config: { ...config, appSecret }, db, logger, storage, media, clock, mailer, sms }, { socketAdapter: socketAdapter.factory });
    // Calls this instance hosted before a crash or restart lost their media: end them first.
    await startCalls({ ...server.deps, hub: server.deps.calls });
    await opts.beforeListen?.();
    const url = await server.listen(config.port, config.host);
    cleanups.push(() => server.close());
    const jobs = startJobs(server.deps);
    cleanups.push(() => jobs.stop());
    return { url, server, stop };
  } catch (err) {
    await stop();
    // Workers started but not yet handed to the cleanups (the database failed first): closed too.
    if (mediaStarting && !mediaOwned) await mediaStarting.then((m) => m.close()).catch(() => {});
    throw err;
  }
}

/** Without APP_SECRET, one is generated on first start and kept with the data. */
function readOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'app-secret');
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  fs.mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('hex');
  fs.writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
