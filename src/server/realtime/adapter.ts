/**
 * The Socket.IO adapter chosen by config: how instances of the app hand each other emits to rooms,
 * `fetchSockets`, `socketsJoin` and `disconnectSockets`. Off-the-shelf adapters only (no home-made
 * bus): Redis pub/sub, or PostgreSQL LISTEN/NOTIFY on the app's own database. With neither, the
 * in-memory default serves one instance.
 */
import type * as PostgresAdapter from '@socket.io/postgres-adapter';
import type * as RedisAdapter from '@socket.io/redis-adapter';
import pg from 'pg';
import type { Config } from '../config';
import { pgConnectionFields } from '../db/url';
import type { Logger } from '../logger';

export interface SocketAdapter {
  kind: Config['realtime']['adapter']['kind'];
  /** What `io.adapter()` takes; undefined keeps Socket.IO's in-memory adapter. */
  factory: ReturnType<typeof RedisAdapter.createAdapter> | ReturnType<typeof PostgresAdapter.createAdapter> | undefined;
  /** Closes the connections the adapter holds (after io.close()). */
  close(): Promise<void>;
}

/** How long an instance waits for the others to answer a fetchSockets before giving up. */
const REQUESTS_TIMEOUT_MS = 5_000;

export async function createSocketAdapter(config: Config['realtime']['adapter'], databaseUrl: string, logger: Logger): Promise<SocketAdapter> {
  // Each adapter's packages are loaded only where it is configured (a restart's time, docs/performance.md section 23).
  if (config.kind === 'redis') {
    const [{ createClient }, { createAdapter: createRedisAdapter }] = await Promise.all([import('redis'), import('@socket.io/redis-adapter')]);
    const pub = createClient({ url: config.url });
    const sub = pub.duplicate();
    // A lost Redis connection is retried by the client; it must never crash the process.
    const onError = (err: unknown) => logger.warn({ err }, 'socket adapter: Redis connection error');
    pub.on('error', onError);
    sub.on('error', onError);
    await Promise.all([pub.connect(), sub.connect()]);
    return {
      kind: 'redis',
      factory: createRedisAdapter(pub, sub, { key: config.key, requestsTimeout: REQUESTS_TIMEOUT_MS }),
      close: async () => {
        await Promise.allSettled([pub.quit(), sub.quit()]);
      },
    };
  }
  if (config.kind === 'postgres') {
    const { createAdapter: createPostgresAdapter } = await import('@socket.io/postgres-adapter');
    // A small pool of its own: one connection LISTENs for good, the others NOTIFY.
    const pool = new pg.Pool({ ...pgConnectionFields(databaseUrl), max: 4 });
    pool.on('error', (err) => logger.warn({ err }, 'socket adapter: PostgreSQL connection error'));
    return {
      kind: 'postgres',
      factory: createPostgresAdapter(pool, {
        channelPrefix: config.key,
        tableName: 'socket_io_attachments',
        errorHandler: (err) => logger.warn({ err }, 'socket adapter: PostgreSQL error'),
      }),
      close: () => pool.end(),
    };
  }
  return { kind: 'memory', factory: undefined, close: async () => {} };
}
