/**
 * Web Push (RFC 8030 / 8291 / 8292 through the `web-push` package): a browser's subscription per
 * session; each notification of the user becomes an outbox row per subscription, written in the
 * notification's transaction and sent by the channel worker, encrypted for that browser and
 * signed with our VAPID key. VAPID keys come from configuration or are generated once into the
 * data directory, so every instance sharing it signs alike.
 */
import fs from 'node:fs';
import path from 'node:path';
import webpush from 'web-push';
import type { Notification, Prisma } from '../../../generated/prisma/client';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { ChannelSendError } from './channel';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

const cache = new Map<string, VapidKeys>();

export function vapidKeys(config: Pick<Config, 'dataDir' | 'channels'>): VapidKeys {
  const known = cache.get(config.dataDir);
  if (known) return known;
  const fromEnv = config.channels.vapid ?? null;
  const file = path.join(config.dataDir, 'vapid.json');
  let keys = fromEnv;
  if (!keys && fs.existsSync(file)) keys = JSON.parse(fs.readFileSync(file, 'utf8')) as VapidKeys;
  if (!keys) {
    keys = webpush.generateVAPIDKeys();
    fs.mkdirSync(config.dataDir, { recursive: true });
    // wx: two instances starting at once on one data directory keep the first file.
    try {
      fs.writeFileSync(file, JSON.stringify(keys), { mode: 0o600, flag: 'wx' });
    } catch {
      keys = JSON.parse(fs.readFileSync(file, 'utf8')) as VapidKeys;
    }
  }
  cache.set(config.dataDir, keys);
  return keys;
}

export async function subscribe(db: Db, userId: string, sessionId: string, input: { endpoint: string; keys: { p256dh: string; auth: string } }) {
  await db.pushSubscription.upsert({
    where: { endpoint: input.endpoint },
    create: { userId, sessionId, endpoint: input.endpoint, p256dh: input.keys.p256dh, auth: input.keys.auth },
    update: { userId, sessionId, p256dh: input.keys.p256dh, auth: input.keys.auth },
  });
  return { subscribed: true };
}

export async function unsubscribe(db: Db, userId: string, endpoint: string) {
  await db.pushSubscription.deleteMany({ where: { userId, endpoint } });
  return { subscribed: false };
}

/** In the notifications' transaction: one outbox row per browser of each recipient. */
export async function relayNotificationsToPush(tx: Prisma.TransactionClient, rows: Notification[]) {
  const withCompany = rows.filter((n) => n.companyId);
  if (!withCompany.length) return;
  const subs = await tx.pushSubscription.findMany({ where: { userId: { in: [...new Set(withCompany.map((n) => n.userId))] } } });
  if (!subs.length) return;
  const data = [];
  for (const n of withCompany)
    for (const s of subs.filter((x) => x.userId === n.userId))
      data.push({
        companyId: n.companyId!,
        channel: 'push',
        to: s.endpoint,
        userId: n.userId,
        body: JSON.stringify({ id: n.id, title: n.title, body: n.subtitle ?? '', action: n.action ?? '/i/recent', type: n.type }),
      });
  await tx.channelOutbox.createMany({ data });
}

/** Sends one payload; a subscription the push service no longer knows (404/410) is removed. */
export async function sendPush(deps: { db: Db; config: Pick<Config, 'dataDir' | 'publicUrl' | 'mail' | 'channels'> }, endpoint: string, payload: string): Promise<{ externalId: string; delivered?: boolean }> {
  const sub = await deps.db.pushSubscription.findUnique({ where: { endpoint } });
  if (!sub) throw new ChannelSendError('The browser unsubscribed', false);
  const keys = vapidKeys(deps.config);
  const subject = /<([^>]+@[^>]+)>/.exec(deps.config.mail.from)?.[1] ? `mailto:${/<([^>]+)>/.exec(deps.config.mail.from)![1]}` : deps.config.publicUrl;
  // web-push encrypts (RFC 8291) and signs (VAPID); the request goes out through fetch, which
  // also reaches a push service on plain HTTP (tests, a local relay) where web-push's own sender
  // insists on TLS.
  const request = webpush.generateRequestDetails({ endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } }, payload, {
    vapidDetails: { subject, publicKey: keys.publicKey, privateKey: keys.privateKey },
    TTL: 24 * 3600,
  });
  let res: Response;
  try {
    res = await fetch(request.endpoint, {
      method: request.method,
      headers: request.headers as Record<string, string>,
      body: request.body ? new Uint8Array(request.body) : undefined,
      signal: AbortSignal.timeout(15_000),
    });
  } catch (err) {
    throw new ChannelSendError(`The push service could not be reached: ${(err as Error).message}`, true);
  }
  if (res.status === 404 || res.status === 410) {
    await deps.db.pushSubscription.deleteMany({ where: { endpoint } });
    throw new ChannelSendError(`The push service no longer knows this browser (HTTP ${res.status})`, false);
  }
  if (!res.ok) throw new ChannelSendError(`The push service refused: HTTP ${res.status} ${(await res.text().catch(() => '')).slice(0, 200)}`.trim(), res.status >= 500 || res.status === 429);
  return { externalId: res.headers.get('location') ?? '' };
}
