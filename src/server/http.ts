import { withAbsentPush } from './modules/channels/absent-push';
import { randomUUID } from 'node:crypto';
import { serveFeed } from './modules/calendar/feed';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { createExpressMiddleware } from '@trpc/server/adapters/express';
import express, { type Request } from 'express';
import { pinoHttp } from 'pino-http';
import { outboxPage } from './mail/outbox-page';
import { createMetrics } from './metrics';
import type { AppDeps } from './deps';
import { createRealtime, type Io } from './realtime';
import type { SocketAdapter } from './realtime/adapter';
import { CallsHub } from './modules/calls/hub';
import type { CallsDeps } from './modules/calls/service';
import { appRouter } from './router';
import { localFilesHandler } from './storage';
import { serveCompanyImage, uploadCompanyImage } from './modules/company/image';
import { downloadCommercePdf } from './modules/commerce/http';
import { downloadFormPdf, uploadFormFile } from './modules/forms/http';
import { paymentWebhook } from './modules/billing/http';
import { serveAvatar, uploadAvatar } from './modules/identity/avatar';
import { uploadAttachment } from './uploads/attachments';
import { uploadContactsCsv } from './modules/contacts/upload';
import { uploadFeedAttachment } from './modules/feeds/upload';
import { uploadNoteAttachment } from './modules/notes/upload';
import { presenceSettled } from './modules/chat/presence';
import { checkHealth } from './modules/system/service';
import { channelWebhooks } from './modules/channels/http';
import { createContext } from './trpc';
import { uploadDoctorDocument } from './modules/telemedicine/upload';
import { doctorSocketChanged } from './modules/telemedicine/events';
import { checkPathIds, trpcDoor, withoutPaths } from './doors';
import { frameHeaders, serveWidgetConfig, serveWidgetScript } from './widget/http';
import { ROOT } from './paths';

const clientDir = path.join(ROOT, 'dist/client');
/** Paths the server owns; everything else is a client route (history mode). */
const SERVER_PATHS = /^\/(trpc|socket\.io|healthz|metrics|files|dev|uploads|avatars|companies|forms|commerce|calendar|webhooks|widget\.js|widget-config)(\/|$)/;

export interface AppServer {
  httpServer: http.Server;
  io: Io;
  deps: AppDeps;
  listen(port: number, host: string): Promise<string>;
  /** Stop accepting, close sockets, let in-flight requests finish. The caller closes the DB. */
  close(): Promise<void>;
}

export function createServer(base: Omit<AppDeps, 'realtime' | 'calls'>, opts: { socketAdapter?: SocketAdapter['factory'] } = {}): AppServer {
  const app = express();
  app.disable('x-powered-by');
  // X-Forwarded-For names the client only when the peer is a proxy the operator listed (TRUST_PROXY);
  // believed from anyone, it lets a client choose the address its rate limits are counted on.
  app.set('trust proxy', base.config.http.trustProxy);
  const httpServer = http.createServer(app);
  const metrics = createMetrics(new Set(Object.keys(appRouter._def.procedures)));
  const calls = new CallsHub(base);
  const callsDeps = (): CallsDeps => ({ ...base, realtime: calls.realtime, hub: calls });
  const { io, realtime: socketRealtime } = createRealtime(httpServer, {
    db: base.db,
    logger: base.logger,
    clock: base.clock,
    onSocketCount: (n) => metrics.openSockets.set(n),
    observeEvent: metrics.observeEvent,
    // A doctor's presence is their switch AND an open tab (the spec's presence database): the
    // admins and the waiting patients learn when the last tab closes or the first one opens.
    onUserSocket: (userId) => void doctorSocketChanged({ db: base.db, realtime: socketRealtime }, userId).catch((err) => base.logger.warn({ err, userId }, 'doctor presence push failed')),
    calls: callsDeps,
    chat: () => ({ storage: base.storage, config: base.config, realtime }),
    adapter: opts.socketAdapter,
    limits: {
      maxSocketsPerUser: base.config.realtime.maxSocketsPerUser,
      eventsPerSecond: base.config.realtime.eventsPerSecond,
      typingPerSecond: base.config.rates.typingPerSecond,
    },
    allowedOrigins: base.config.http.allowedOrigins,
  });
  // New messages and ringing calls also reach, by Web Push, recipients with no tab open (decided
  // after the services' commits, in batches, off the send path: channels/absent-push.ts).
  const realtime = withAbsentPush(socketRealtime, { db: base.db, logger: base.logger });
  calls.attach(realtime);
  const deps: AppDeps = { ...base, realtime, calls };

  app.use(
    pinoHttp({
      logger: deps.logger,
      genReqId: (req, res) => {
        const given = req.headers['x-request-id'];
        const id = typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
        res.setHeader('X-Request-Id', id);
        return id;
      },
      autoLogging: { ignore: (req) => req.url === '/healthz' || req.url === '/metrics' },
    }),
  );
  app.use(metrics.httpMiddleware);

  // Public: its failure texts lose their file-system paths (the log keeps them whole).
  app.get('/healthz', async (_req, res) => {
    const health = await checkHealth(deps);
    if (health.db.error) health.db.error = withoutPaths(health.db.error);
    if (health.storage.error) health.storage.error = withoutPaths(health.storage.error);
    if (health.media.reason) health.media.reason = withoutPaths(health.media.reason);
    res.status(health.ok ? 200 : 503).json(health);
  });
  app.get('/metrics', async (_req, res) => {
    res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
  if (deps.mailer.kind === 'outbox' && deps.config.env !== 'production') app.get('/dev/outbox', outboxPage(deps.db));
  if (deps.storage.driver === 'local') app.use('/files', localFilesHandler(deps.storage, deps.config.appSecret!));

  checkPathIds(app);
  app.put('/uploads/avatar', uploadAvatar(deps));
  app.get('/avatars/:userId', serveAvatar(deps));
  app.put('/uploads/company/:domain/image', uploadCompanyImage(deps));
  app.get('/companies/:domain/image', serveCompanyImage(deps));
  app.put('/uploads/chat/:domain/:conversationId', uploadAttachment(deps));
  app.put('/uploads/feed/:domain', uploadFeedAttachment(deps));
  app.put('/uploads/note/:domain/:noteId', uploadNoteAttachment(deps));
  app.put('/uploads/contacts/:domain/import', uploadContactsCsv(deps));
  app.put('/uploads/doctor/:enrolmentId', uploadDoctorDocument(deps));

  app.put('/uploads/form/:formId/:fieldId', uploadFormFile(deps));
  app.get('/forms/:formId/pdf', downloadFormPdf(deps));
  app.get('/commerce/budget/:id/pdf', downloadCommercePdf(deps, 'budget'));
  app.get('/commerce/sale/:id/pdf', downloadCommercePdf(deps, 'sale'));
  app.get('/calendar/feed/:file', serveFeed(deps));
  app.post('/webhooks/payments/:provider', ...paymentWebhook(deps));

  app.use('/webhooks', channelWebhooks(deps));

  app.get('/widget.js', serveWidgetScript());
  app.get('/widget-config/:domain', serveWidgetConfig(deps.db));

  app.use('/trpc', trpcDoor({ maxBytes: deps.config.maxRequestBytes }));
  app.use(
    '/trpc',
    createExpressMiddleware({
      maxBatchSize: deps.config.http.maxBatch,
      router: appRouter,
      createContext: (opts) => createContext(deps, opts),
      maxBodySize: deps.config.maxRequestBytes,
      onError: ({ error, path, req }) => {
        if (error.code === 'INTERNAL_SERVER_ERROR') {
          (req as Request).log.error({ err: error.cause ?? error, path }, 'procedure failed');
        }
      },
    }),
  );

  // The built client, with every non-server path answered by index.html (history-mode routing).
  app.use(express.static(clientDir, { index: false, maxAge: '1h', immutable: false }));
  app.use((req, res, next) => {
    if (req.method !== 'GET' || SERVER_PATHS.test(req.path)) return next();
    frameHeaders(req.path, res);
    const index = path.join(clientDir, 'index.html');
    if (!fs.existsSync(index)) {
      res.status(503).type('text/plain').send('The browser app is not built yet: run `npm run build`.');
      return;
    }
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(index);
  });
  app.use((_req, res) => res.status(404).json({ error: 'Not found' }));
  // Express's own handler prints stacks outside production; ours never does.
  app.use((err: unknown, req: Request, res: express.Response, _next: express.NextFunction) => {
    const status = (err as { status?: number }).status ?? 500;
    if (status >= 500) req.log.error({ err }, 'request failed');
    if (!res.headersSent) res.status(status).json({ error: status >= 500 ? 'Something went wrong; try again' : (err as Error).message });
  });

  return {
    httpServer,
    io,
    deps,
    listen: (port, host) =>
      new Promise((resolve, reject) => {
        httpServer.once('error', reject);
        httpServer.listen(port, host, () => {
          const addr = httpServer.address();
          const actual = typeof addr === 'object' && addr ? addr.port : port;
          resolve(`http://${host === '0.0.0.0' || host === '::' ? 'localhost' : host}:${actual}`);
        });
      }),
    close: async () => {
      metrics.stop();
      await calls.close();
      await realtime.stop();
      const closed = new Promise<void>((resolve) => httpServer.close(() => resolve()));
      // io.close() disconnects every socket and closes the HTTP server too.
      await new Promise<void>((resolve) => io.close(() => resolve()));
      await presenceSettled(io);
      httpServer.closeIdleConnections();
      await closed;
    },
  };
}
