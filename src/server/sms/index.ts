import type { Db } from '../db/client';
import type { Logger } from '../logger';

/** The one way the app sends SMS. */
export interface SmsSender {
  readonly kind: 'http' | 'outbox';
  send(to: string, text: string): Promise<void>;
}

/**
 * An HTTP gateway when SMS_URL is set: POST {to, text} as JSON with `Authorization: Bearer
 * SMS_TOKEN`, any 2xx is success. Most SMS providers offer this shape or sit behind a small relay
 * that does. Without SMS_URL the text is logged and kept in the dev outbox.
 */
export function createSmsSender(opts: { url?: string; token?: string; db: Db; logger: Logger }): SmsSender {
  if (opts.url) {
    const url = opts.url;
    return {
      kind: 'http',
      send: async (to, text) => {
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}) },
          body: JSON.stringify({ to, text }),
          signal: AbortSignal.timeout(10_000),
        });
        if (!res.ok) throw new Error(`SMS gateway answered ${res.status}`);
      },
    };
  }
  return {
    kind: 'outbox',
    send: async (to, text) => {
      opts.logger.info({ to, text }, 'SMS (no gateway configured: kept in the dev outbox)');
      await opts.db.outboxMessage.create({ data: { channel: 'sms', to, body: text } });
    },
  };
}
