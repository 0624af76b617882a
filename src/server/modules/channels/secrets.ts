/**
 * Channel credentials at rest: AES-256-GCM under a key derived (HKDF) from the app's secret
 * (APP_SECRET, else the secret generated into the data directory). A database dump alone does not
 * reveal a company's access tokens; rotating the app secret means entering them again.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const keyOf = (appSecret: string) => Buffer.from(hkdfSync('sha256', appSecret, 'atende-channels', 'channel-credentials', 32));

/** "v1.<iv>.<tag>.<ciphertext>", base64url parts. */
export function sealCredentials(appSecret: string, value: Record<string, string>): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(appSecret), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), body].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
}

export function openCredentials(appSecret: string, sealed: string): Record<string, string> {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('channel credentials: unknown format');
  const decipher = createDecipheriv('aes-256-gcm', keyOf(appSecret), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  const text = Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  return JSON.parse(text) as Record<string, string>;
}
