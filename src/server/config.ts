import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';

/**
 * Every setting the server reads, parsed once from the environment.
 * With nothing configured the server runs on embedded defaults under DATA_DIR:
 * an embedded PostgreSQL and files on local disk.
 */
const emptyToUndefined = (v: unknown) => (v === '' ? undefined : v);
const optionalString = z.preprocess(emptyToUndefined, z.string().optional());
const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);

const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    HOST: z.string().default('0.0.0.0'),
    PORT: port(3000),
    /** Public origin used in links sent by e-mail; defaults to http://localhost:PORT. */
    PUBLIC_URL: z.preprocess(emptyToUndefined, z.url().optional()),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    DATA_DIR: z.string().default('./.data'),
    /** Signs local-disk download links and other server secrets; generated into DATA_DIR when unset. */
    APP_SECRET: optionalString,

    DATABASE_URL: z.preprocess(emptyToUndefined, z.url().optional()),
    EMBEDDED_PG_PORT: port(54329),

    S3_ENDPOINT: z.preprocess(emptyToUndefined, z.url().optional()),
    S3_ACCESS_KEY: optionalString,
    S3_SECRET_KEY: optionalString,
    S3_BUCKET: optionalString,
    S3_REGION: z.string().default('us-east-1'),

    /** smtp://user:pass@host:587 or smtps://...; without it mail goes to the log and the dev outbox. */
    SMTP_URL: z.preprocess(emptyToUndefined, z.url().optional()),
    MAIL_FROM: z.string().default('Atende <no-reply@localhost>'),
    /** HTTP SMS gateway (POST JSON {to, text} with a bearer token); without it SMS go to the dev outbox. */
    SMS_URL: z.preprocess(emptyToUndefined, z.url().optional()),
    SMS_TOKEN: optionalString,
    /** Machine translation of call subtitles (Azure Translator v3 protocol); without it subtitles stay untranslated. */
    TRANSLATOR_URL: z.preprocess(emptyToUndefined, z.url().optional()),
    TRANSLATOR_KEY: optionalString,
    /** Link shortening (spec 7.2: GET with format, key, login and the long URL; answer data.url); without it links stay long. */
    LINK_SHORTENER_URL: z.preprocess(emptyToUndefined, z.url().optional()),
    LINK_SHORTENER_KEY: optionalString,
    LINK_SHORTENER_LOGIN: optionalString,

    MEDIASOUP_WORKER_BIN: optionalString,
    MEDIASOUP_NUM_WORKERS: z.coerce.number().int().min(0).max(64).optional(),
    /**
     * With no worker binary: how to get one at start, in the background — `download` (mediasoup's
     * prebuilt), `build` (from the package's sources, needs the build packages), both (the default
     * outside tests) or `off`. Comma-separated.
     */
    MEDIASOUP_WORKER_AUTO: z.preprocess(
      emptyToUndefined,
      z.string().regex(/^(off|(download|build)(,(download|build))*)$/, 'off, download, build or download,build').optional(),
    ),
    /** Where the prebuilt worker is downloaded from (mediasoup's own variable). */
    MEDIASOUP_WORKER_PREBUILT_DOWNLOAD_BASE_URL: z.preprocess(emptyToUndefined, z.url().optional()),
    RTC_LISTEN_IP: z.string().default('0.0.0.0'),
    RTC_ANNOUNCED_IP: optionalString,
    /**
     * The address other instances reach this one at for media piped between hosts (a live room
     * whose viewers are spread over instances). Default: RTC_ANNOUNCED_IP, else RTC_LISTEN_IP
     * when it is a specific address, else 127.0.0.1 (one host).
     */
    RTC_PIPE_IP: optionalString,
    /** Consumers on a call's own worker before its new receivers are spread over the other workers. */
    MEDIA_SPREAD_AFTER: z.coerce.number().int().min(0).default(200),
    // One port for UDP and TCP media per worker (RTC_PORT + worker index); 0 = a port pair per transport.
    RTC_PORT: z.coerce.number().int().min(0).max(65535).default(44444),
    RTC_MIN_PORT: port(40000),
    RTC_MAX_PORT: port(49999),
    /** prod | stage | dev: sets the call time limit (8 h / 4 h / 2 h). Default: prod under NODE_ENV=production, else dev. */
    APP_ENV: z.preprocess(emptyToUndefined, z.enum(['prod', 'stage', 'dev']).optional()),
    /** This instance's name in Call.hostInstance; must be unique per instance and stable across restarts. */
    INSTANCE_ID: z.preprocess(emptyToUndefined, z.string().regex(/^[\w.-]{1,64}$/, 'letters, digits, ".", "_" or "-", at most 64').optional()),

    /**
     * How Socket.IO instances reach each other: memory (one instance, the default), redis (needs
     * REDIS_URL; chosen by itself when REDIS_URL is set) or postgres (the app's own database).
     */
    SOCKET_ADAPTER: z.preprocess(emptyToUndefined, z.enum(['memory', 'redis', 'postgres']).optional()),
    REDIS_URL: z.preprocess(emptyToUndefined, z.url().optional()),
    /** Prefix of the adapter's Redis channels / PostgreSQL NOTIFY channels: one per deployment. */
    SOCKET_ADAPTER_KEY: z.string().regex(/^[\w.-]{1,40}$/, 'letters, digits, ".", "_" or "-", at most 40').default('atende'),

    /** Largest JSON body of a tRPC or other API request, in bytes (default 1 MB). Uploads have their own limit. */
    MAX_REQUEST_BYTES: z.coerce.number().int().min(1024).max(100 * 1024 ** 2).default(1_000_000),
    /** Open Socket.IO connections (tabs) one person may hold at once, over all instances. */
    MAX_SOCKETS_PER_USER: z.coerce.number().int().min(1).max(1000).default(20),
    /** Events a socket may send per second (typing, call requests...); the excess is dropped with a warning. */
    SOCKET_EVENTS_PER_SECOND: z.coerce.number().int().min(1).max(10_000).default(50),

    /**
     * Proxies whose X-Forwarded-For is believed (Express "trust proxy" list): comma-separated IPs,
     * CIDRs or loopback / linklocal / uniquelocal. Default none: the client address is the TCP peer.
     */
    TRUST_PROXY: z.preprocess(
      emptyToUndefined,
      z.string().regex(/^\s*[\w.:/]+(\s*,\s*[\w.:/]+)*\s*$/, 'comma-separated IP addresses, CIDRs or loopback, linklocal, uniquelocal').optional(),
    ),
    /** Origins besides PUBLIC_URL whose pages may open a Socket.IO connection (comma-separated, e.g. https://app.example.com). */
    ALLOWED_ORIGINS: z.preprocess(emptyToUndefined, z.string().optional()),
    /** Most procedure calls one batched tRPC request may carry; a larger batch is refused with a 400. */
    TRPC_MAX_BATCH: z.coerce.number().int().min(10).max(1000).default(50),
    /** Per person and hour: conversations started (chats, teams, service requests, tasks, tickets). */
    RATE_CONVERSATIONS_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(300),
    /** Per person and hour: invitations sent (members by e-mail, client companies). */
    RATE_INVITES_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(100),
    /** Per person and hour: requests to join a company. */
    RATE_JOIN_REQUESTS_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(30),
    /** Per person, over all their tabs on one instance: typing events relayed per second (bursts of twice that pass). */
    USER_TYPING_PER_SECOND: z.coerce.number().int().min(1).max(1000).default(5),
    /** Per person: presence changes (chat.setPresence) per minute. */
    USER_PRESENCE_PER_MINUTE: z.coerce.number().int().min(1).max(10_000).default(30),

    /** Largest file, image or voice message one chat upload may carry, in bytes (default 25 MB). */
    MAX_UPLOAD_BYTES: z.coerce.number().int().min(1024).max(5 * 1024 ** 3).default(25 * 1024 * 1024),

    /** Channels: where the WhatsApp Business Cloud API and the Telegram Bot API answer (tests point them at local servers). */
    WHATSAPP_API_ROOT: z.preprocess(emptyToUndefined, z.url().default('https://graph.facebook.com/v21.0')),
    TELEGRAM_API_ROOT: z.preprocess(emptyToUndefined, z.url().default('https://api.telegram.org')),
    /** Channel outbox: first retry after this many ms, doubling up to an hour; attempts before a message is failed. */
    CHANNEL_RETRY_BASE_MS: z.coerce.number().int().min(10).max(3_600_000).default(5_000),
    CHANNEL_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(10),
    /** Web Push VAPID key pair (base64url, as `web-push generate-vapid-keys` prints); generated into DATA_DIR when unset. */
    VAPID_PUBLIC_KEY: optionalString,
    VAPID_PRIVATE_KEY: optionalString,
    /** How often the channel outbox worker looks for due rows, in ms. */
    CHANNEL_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(1_000),
    /** Telegram long polling (bots with no webhook): how long one getUpdates waits for an update, in seconds. */
    TELEGRAM_POLL_TIMEOUT_S: z.coerce.number().int().min(1).max(50).default(25),
    /** How often each company's mailbox (e-mail integration) is read over IMAP, in ms. */
    MAIL_POLL_MS: z.coerce.number().int().min(50).max(3_600_000).default(30_000),

    /** Credits a newly registered company starts with (the template's bonusnewcompany). */
    NEW_COMPANY_BONUS: z.coerce.number().min(0).max(1_000_000_000).default(0),

    /** Stripe payments (top-ups): the secret API key and the webhook endpoint's signing secret. */
    STRIPE_SECRET_KEY: optionalString,
    STRIPE_WEBHOOK_SECRET: optionalString,
    /** Another Stripe API origin (a local Stripe-protocol server in tests); default Stripe's own. */
    STRIPE_API_URL: z.preprocess(emptyToUndefined, z.url().optional()),
    /** The Stripe Price id of the recurring plan companies subscribe to. */
    STRIPE_PLAN_PRICE: optionalString,
    /** PagSeguro payments (top-ups): the account's e-mail and its API token. */
    PAGSEGURO_EMAIL: optionalString,
    PAGSEGURO_TOKEN: optionalString,
    /** PagSeguro's web services and payment page origins (the sandbox's, or a local PagSeguro-protocol server in tests). */
    PAGSEGURO_API_URL: z.preprocess(emptyToUndefined, z.url().default('https://ws.pagseguro.uol.com.br')),
    PAGSEGURO_CHECKOUT_URL: z.preprocess(emptyToUndefined, z.url().default('https://pagseguro.uol.com.br')),
    /** Where the browser loads PagSeguro's DirectPayment script for the card form on /i/recarga (transparent checkout). */
    PAGSEGURO_STATIC_URL: z.preprocess(emptyToUndefined, z.url().default('https://stc.pagseguro.uol.com.br')),
    /** Days an unpaid plan renewal is tolerated before the company's plan is blocked. */
    PLAN_GRACE_DAYS: z.coerce.number().min(0).max(90).default(3),
    /** ISO currency of top-ups (credits are counted in it). */
    PAYMENT_CURRENCY: z.string().regex(/^[a-z]{3}$/, 'a lower-case ISO 4217 code such as brl').default('brl'),
    /** E-mails of the people who run this installation (operator console): comma-separated. */
    OPERATOR_EMAILS: z.preprocess(emptyToUndefined, z.string().optional()),
  })
  .superRefine((env, ctx) => {
    const s3 = ['S3_ENDPOINT', 'S3_ACCESS_KEY', 'S3_SECRET_KEY', 'S3_BUCKET'] as const;
    const given = s3.filter((k) => env[k] !== undefined);
    if (given.length > 0 && given.length < s3.length) {
      const missing = s3.filter((k) => env[k] === undefined);
      ctx.addIssue({ code: 'custom', path: [missing[0]!], message: `is required when ${given.join(', ')} is set (missing: ${missing.join(', ')})` });
    }
    if (env.SOCKET_ADAPTER === 'redis' && !env.REDIS_URL) {
      ctx.addIssue({ code: 'custom', path: ['REDIS_URL'], message: 'is required when SOCKET_ADAPTER=redis' });
    }
    for (const origin of listOf(env.ALLOWED_ORIGINS)) {
      if (!URL.canParse(origin) || !/^https?:$/.test(new URL(origin).protocol)) {
        ctx.addIssue({ code: 'custom', path: ['ALLOWED_ORIGINS'], message: `"${origin}" is not an http(s) origin such as https://app.example.com` });
      }
    }
    if (!!env.STRIPE_SECRET_KEY !== !!env.STRIPE_WEBHOOK_SECRET) {
      ctx.addIssue({ code: 'custom', path: [env.STRIPE_SECRET_KEY ? 'STRIPE_WEBHOOK_SECRET' : 'STRIPE_SECRET_KEY'], message: 'is required with the other STRIPE_* key' });
    }
    if (!!env.PAGSEGURO_EMAIL !== !!env.PAGSEGURO_TOKEN) {
      ctx.addIssue({ code: 'custom', path: [env.PAGSEGURO_EMAIL ? 'PAGSEGURO_TOKEN' : 'PAGSEGURO_EMAIL'], message: 'is required with the other PAGSEGURO_* setting' });
    }
    if (env.PAGSEGURO_EMAIL && env.STRIPE_SECRET_KEY) {
      ctx.addIssue({ code: 'custom', path: ['PAGSEGURO_EMAIL'], message: 'set either the STRIPE_* or the PAGSEGURO_* settings, not both (one payment provider at a time)' });
    }
    if (env.RTC_MIN_PORT > env.RTC_MAX_PORT) {
      ctx.addIssue({ code: 'custom', path: ['RTC_MIN_PORT'], message: 'must not be greater than RTC_MAX_PORT' });
    }
  });

export type Env = z.infer<typeof envSchema>;

export interface Config {
  env: Env['NODE_ENV'];
  host: string;
  port: number;
  publicUrl: string;
  logLevel: Env['LOG_LEVEL'];
  dataDir: string;
  appSecret: string | undefined;
  database: { kind: 'external'; url: string } | { kind: 'embedded'; dir: string; port: number };
  storage:
    | { kind: 'minio'; endpoint: string; accessKey: string; secretKey: string; bucket: string; region: string }
    | { kind: 'local'; dir: string };
  mail: { smtpUrl: string | undefined; from: string };
  sms: { url: string | undefined; token: string | undefined };
  translator: { url: string | undefined; key: string | undefined };
  linkShortener: { url: string | undefined; key: string | undefined; login: string | undefined };
  /** Channel providers and the outbox worker (modules/channels). */
  channels: { whatsappApiRoot: string; telegramApiRoot: string; telegramPollTimeoutS: number; hasPublicUrl: boolean; retryBaseMs: number; maxAttempts: number; pollMs: number; mailPollMs: number; vapid?: { publicKey: string; privateKey: string } };
  /** Credits given to each newly registered company. */
  newCompanyBonus: number;
  /** Largest chat attachment, in bytes. */
  maxUploadBytes: number;
  /** Top-ups through an outside provider; none configured = payments are not set up. */
  payments: { currency: string; graceDays: number; stripe?: { secretKey: string; webhookSecret: string; apiUrl?: string; planPrice?: string }; pagseguro?: { email: string; token: string; apiUrl: string; checkoutUrl: string; staticUrl: string; notificationUrl: string } };
  /** E-mails granted the operator role by configuration (lower case). */
  operatorEmails: string[];
  /** Socket.IO across instances (docs/operations.md, "Several instances"). */
  realtime: {
    adapter: { kind: 'memory' } | { kind: 'redis'; url: string; key: string } | { kind: 'postgres'; key: string };
    maxSocketsPerUser: number;
    eventsPerSecond: number;
  };
  /** Largest JSON request body, in bytes. */
  maxRequestBytes: number;
  /** The doors of the HTTP server (docs/decisions.md, "Doors, limits and governed procedures"). */
  http: {
    /** Express "trust proxy": false (the default) or the list of trusted proxies. */
    trustProxy: string | false;
    /** Origins allowed to open a Socket.IO connection: PUBLIC_URL's and ALLOWED_ORIGINS. */
    allowedOrigins: string[];
    maxBatch: number;
  };
  /** Per-person rates of acts that create things or fan out to others. */
  rates: {
    conversationsPerHour: number;
    invitesPerHour: number;
    joinRequestsPerHour: number;
    typingPerSecond: number;
    presencePerMinute: number;
  };
  media: {
    workerBin: string | undefined;
    /** What to do at start when no worker binary exists (see provision.ts). */
    provision: { download: boolean; build: boolean; downloadBaseUrl?: string };
    numWorkers: number;
    listenIp: string;
    announcedIp: string | undefined;
    /** RTC_PORT: each worker's one media port (UDP and TCP) is webRtcPort + its index; 0 = none. */
    webRtcPort: number;
    /** What other instances connect their pipe transports to (RTC_PIPE_IP). */
    pipeIp: string;
    /** MEDIA_SPREAD_AFTER: see rooms.ts. */
    spreadAfter: number;
    minPort: number;
    maxPort: number;
  };
  calls: {
    /** Which call time limit applies (calls-errors-constants §9). */
    appEnv: 'prod' | 'stage' | 'dev';
    /** Names this process in Call.hostInstance. */
    instanceId: string;
  };
}

export class ConfigError extends Error {}

export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const env = parsed.data;
  const dataDir = path.resolve(env.DATA_DIR);
  const publicUrl = env.PUBLIC_URL ?? `http://localhost:${env.PORT}`;
  return {
    env: env.NODE_ENV,
    host: env.HOST,
    port: env.PORT,
    publicUrl,
    logLevel: env.LOG_LEVEL,
    dataDir,
    appSecret: env.APP_SECRET,
    database: env.DATABASE_URL
      ? { kind: 'external', url: env.DATABASE_URL }
      : { kind: 'embedded', dir: path.join(dataDir, 'postgres'), port: env.EMBEDDED_PG_PORT },
    storage: env.S3_ENDPOINT
      ? {
          kind: 'minio',
          endpoint: env.S3_ENDPOINT,
          accessKey: env.S3_ACCESS_KEY!,
          secretKey: env.S3_SECRET_KEY!,
          bucket: env.S3_BUCKET!,
          region: env.S3_REGION,
        }
      : { kind: 'local', dir: path.join(dataDir, 'files') },
    mail: { smtpUrl: env.SMTP_URL, from: env.MAIL_FROM },
    sms: { url: env.SMS_URL, token: env.SMS_TOKEN },
    translator: { url: env.TRANSLATOR_URL, key: env.TRANSLATOR_KEY },
    linkShortener: { url: env.LINK_SHORTENER_URL, key: env.LINK_SHORTENER_KEY, login: env.LINK_SHORTENER_LOGIN },
    channels: {
      whatsappApiRoot: env.WHATSAPP_API_ROOT.replace(/\/+$/, ''),
      telegramApiRoot: env.TELEGRAM_API_ROOT.replace(/\/+$/, ''),
      telegramPollTimeoutS: env.TELEGRAM_POLL_TIMEOUT_S,
      // No PUBLIC_URL: the default localhost address no provider can reach (Telegram then polls).
      hasPublicUrl: !!env.PUBLIC_URL,
      retryBaseMs: env.CHANNEL_RETRY_BASE_MS,
      maxAttempts: env.CHANNEL_MAX_ATTEMPTS,
      pollMs: env.CHANNEL_POLL_MS,
      mailPollMs: env.MAIL_POLL_MS,
      vapid: env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY ? { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY } : undefined,
    },
    newCompanyBonus: env.NEW_COMPANY_BONUS,
    maxUploadBytes: env.MAX_UPLOAD_BYTES,
    payments: {
      currency: env.PAYMENT_CURRENCY,
      graceDays: env.PLAN_GRACE_DAYS,
      ...(env.STRIPE_SECRET_KEY &&
        env.STRIPE_WEBHOOK_SECRET && { stripe: { secretKey: env.STRIPE_SECRET_KEY, webhookSecret: env.STRIPE_WEBHOOK_SECRET, apiUrl: env.STRIPE_API_URL, planPrice: env.STRIPE_PLAN_PRICE } }),
      ...(env.PAGSEGURO_EMAIL &&
        env.PAGSEGURO_TOKEN && {
          pagseguro: { email: env.PAGSEGURO_EMAIL, token: env.PAGSEGURO_TOKEN, apiUrl: env.PAGSEGURO_API_URL, checkoutUrl: env.PAGSEGURO_CHECKOUT_URL, staticUrl: env.PAGSEGURO_STATIC_URL, notificationUrl: `${publicUrl}/webhooks/payments/pagseguro` },
        }),
    },
    operatorEmails: listOf(env.OPERATOR_EMAILS).map((e) => e.toLowerCase()),
    maxRequestBytes: env.MAX_REQUEST_BYTES,
    http: {
      trustProxy: env.TRUST_PROXY ? listOf(env.TRUST_PROXY).join(', ') : false,
      allowedOrigins: [...new Set([publicUrl, ...listOf(env.ALLOWED_ORIGINS)].map((u) => new URL(u).origin))],
      maxBatch: env.TRPC_MAX_BATCH,
    },
    rates: {
      conversationsPerHour: env.RATE_CONVERSATIONS_PER_HOUR,
      invitesPerHour: env.RATE_INVITES_PER_HOUR,
      joinRequestsPerHour: env.RATE_JOIN_REQUESTS_PER_HOUR,
      typingPerSecond: env.USER_TYPING_PER_SECOND,
      presencePerMinute: env.USER_PRESENCE_PER_MINUTE,
    },
    realtime: {
      adapter: adapterConfig(env),
      maxSocketsPerUser: env.MAX_SOCKETS_PER_USER,
      eventsPerSecond: env.SOCKET_EVENTS_PER_SECOND,
    },
    media: {
      workerBin: env.MEDIASOUP_WORKER_BIN,
      provision: workerProvision(env),
      numWorkers: env.MEDIASOUP_NUM_WORKERS ?? os.availableParallelism(),
      listenIp: env.RTC_LISTEN_IP,
      announcedIp: env.RTC_ANNOUNCED_IP,
      webRtcPort: env.RTC_PORT,
      pipeIp: env.RTC_PIPE_IP ?? env.RTC_ANNOUNCED_IP ?? (['0.0.0.0', '::', ''].includes(env.RTC_LISTEN_IP) ? '127.0.0.1' : env.RTC_LISTEN_IP),
      spreadAfter: env.MEDIA_SPREAD_AFTER,
      minPort: env.RTC_MIN_PORT,
      maxPort: env.RTC_MAX_PORT,
    },
    calls: {
      appEnv: env.APP_ENV ?? (env.NODE_ENV === 'production' ? 'prod' : 'dev'),
      instanceId: env.INSTANCE_ID ?? os.hostname().replace(/[^\w.-]/g, '-').slice(0, 64),
    },
  };
}

const listOf = (value: string | undefined) => (value ?? '').split(',').map((v) => v.trim()).filter(Boolean);

function workerProvision(env: Env): Config['media']['provision'] {
  // Tests choose their worker explicitly; a test server must never start a 5-minute build.
  const auto = env.MEDIASOUP_WORKER_AUTO ?? (env.NODE_ENV === 'test' ? 'off' : 'download,build');
  const steps = auto.split(',');
  return { download: steps.includes('download'), build: steps.includes('build'), downloadBaseUrl: env.MEDIASOUP_WORKER_PREBUILT_DOWNLOAD_BASE_URL };
}

function adapterConfig(env: Env): Config['realtime']['adapter'] {
  const kind = env.SOCKET_ADAPTER ?? (env.REDIS_URL ? 'redis' : 'memory');
  if (kind === 'redis') return { kind, url: env.REDIS_URL!, key: env.SOCKET_ADAPTER_KEY };
  if (kind === 'postgres') return { kind, key: env.SOCKET_ADAPTER_KEY };
  return { kind: 'memory' };
}
