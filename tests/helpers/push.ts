/**
 * A local push service (RFC 8030) as a browser vendor runs it: takes POSTs to subscription
 * endpoints, checks the VAPID Authorization (RFC 8292: an ES256 JWT for our origin, signed by the
 * key given in k=), and keeps the aes128gcm bodies (RFC 8291), which the test decrypts with the
 * subscription's own private key, as the browser would.
 */
import { createECDH, createPublicKey, randomBytes, verify } from 'node:crypto';
import http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';

// http_ece (no types): the RFC 8188 implementation web-push itself encrypts with.
const ece = createRequire(import.meta.url)('http_ece') as { decrypt(body: Buffer, params: Record<string, unknown>): Buffer };

export interface ReceivedPush {
  endpoint: string;
  payload: unknown;
  ttl: string | undefined;
  audience: string;
}

function verifyVapid(header: string | undefined): string {
  const m = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(header ?? '');
  if (!m) throw new Error('no VAPID authorization');
  const [h, p, sig] = m[1]!.split('.') as [string, string, string];
  const raw = Buffer.from(m[2]!, 'base64url');
  const key = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: raw.subarray(1, 33).toString('base64url'), y: raw.subarray(33, 65).toString('base64url') }, format: 'jwk' });
  if (!verify('sha256', Buffer.from(`${h}.${p}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(sig, 'base64url'))) throw new Error('bad VAPID signature');
  const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as { aud: string; exp: number };
  if (claims.exp * 1000 < Date.now()) throw new Error('expired VAPID token');
  return claims.aud;
}

export async function startPushService() {
  const received: ReceivedPush[] = [];
  const subscriptions = new Map<string, { ecdh: ReturnType<typeof createECDH>; auth: Buffer }>();
  const gone = new Set<string>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const endpoint = `${base}${req.url}`;
      const sub = subscriptions.get(endpoint);
      if (!sub || gone.has(endpoint)) return res.writeHead(410).end();
      let audience: string;
      try {
        audience = verifyVapid(req.headers.authorization);
      } catch {
        return res.writeHead(403).end();
      }
      if (req.headers['content-encoding'] !== 'aes128gcm') return res.writeHead(400).end();
      const plain = ece.decrypt(Buffer.concat(chunks), { version: 'aes128gcm', privateKey: sub.ecdh, authSecret: sub.auth });
      received.push({ endpoint, payload: JSON.parse(plain.toString('utf8')), ttl: req.headers.ttl as string | undefined, audience });
      res.writeHead(201, { location: `${endpoint}/messages/${received.length}` }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let n = 0;
  return {
    received,
    /** What a browser's pushManager.subscribe() gives: an endpoint and its keys. */
    subscription() {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16);
      const endpoint = `${base}/push/${++n}-${randomBytes(6).toString('hex')}`;
      subscriptions.set(endpoint, { ecdh, auth });
      return { endpoint, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') } };
    },
    /** The browser dropped it: the service answers 410 Gone from now on. */
    expire: (endpoint: string) => gone.add(endpoint),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
