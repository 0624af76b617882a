/**
 * A local server that speaks the WhatsApp Business Cloud API as our adapter uses it (POST
 * /{phone-number-id}/messages, GET /{phone-number-id}, bearer token, Graph error bodies), and
 * the provider's side of the webhook: deliveries signed with X-Hub-Signature-256 over the body.
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface WaSent {
  to: string;
  type: string;
  text?: { body: string };
  image?: { link: string; caption?: string };
  document?: { link: string; filename?: string };
  audio?: { link: string };
  id: string;
}

export async function startWhatsAppServer(opts: { phoneNumberId: string; accessToken: string; displayNumber?: string }) {
  const sent: WaSent[] = [];
  let seq = 0;
  /** Next answers to POST /messages: a status and a Graph error, consumed one per request. */
  const failures: { to?: string; status: number; message: string; details?: string }[] = [];
  let down = false;
  /** Media customers "sent": GET /{media-id} gives a URL, fetched with the same bearer token. */
  const media = new Map<string, { bytes: Buffer; mime: string }>();
  let base = '';
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const reply = (status: number, json: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
      if (down) return reply(503, { error: { message: 'Service temporarily unavailable', code: 2 } });
      if (req.headers.authorization !== `Bearer ${opts.accessToken}`) return reply(401, { error: { message: 'Invalid OAuth access token.', type: 'OAuthException', code: 190 } });
      const path = (req.url ?? '').split('?')[0]!.replace(/^\/v[\d.]+/, '');
      const bin = /^\/media-download\/([\w.]+)$/.exec(path);
      if (req.method === 'GET' && bin && media.has(bin[1]!)) {
        const m = media.get(bin[1]!)!;
        return res.writeHead(200, { 'content-type': m.mime, 'content-length': m.bytes.length }).end(m.bytes);
      }
      const meta = /^\/([\w.]+)$/.exec(path);
      if (req.method === 'GET' && meta && media.has(meta[1]!)) {
        const m = media.get(meta[1]!)!;
        return reply(200, { messaging_product: 'whatsapp', url: `${base}/media-download/${meta[1]}`, mime_type: m.mime, file_size: m.bytes.length, id: meta[1] });
      }
      if (req.method === 'GET' && path === `/${opts.phoneNumberId}`) {
        return reply(200, { id: opts.phoneNumberId, display_phone_number: opts.displayNumber ?? '+55 11 91234-5678', verified_name: 'Test' });
      }
      if (req.method === 'POST' && path === `/${opts.phoneNumberId}/messages`) {
        const m = JSON.parse(body) as Omit<WaSent, 'id'> & { messaging_product?: string };
        const at = failures.findIndex((f) => !f.to || f.to === m.to);
        if (at >= 0) {
          const [failure] = failures.splice(at, 1);
          return reply(failure!.status, { error: { message: failure!.message, code: 131000, error_data: failure!.details ? { details: failure!.details } : undefined } });
        }
        if (m.messaging_product !== 'whatsapp') return reply(400, { error: { message: '(#100) The parameter messaging_product is required.', code: 100 } });
        const id = `wamid.TEST${++seq}`;
        sent.push({ ...m, id });
        return reply(200, { messaging_product: 'whatsapp', contacts: [{ input: m.to, wa_id: m.to }], messages: [{ id }] });
      }
      reply(404, { error: { message: 'Unknown path', code: 803 } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    root: `${base}/v21.0`,
    sent,
    addMedia: (id: string, bytes: Buffer, mime: string) => media.set(id, { bytes, mime }),
    failNext: (...f: { to?: string; status: number; message: string; details?: string }[]) => failures.push(...f),
    setDown: (value: boolean) => (down = value),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const envelope = (phoneNumberId: string, value: Record<string, unknown>) => ({
  object: 'whatsapp_business_account',
  entry: [{ id: 'WABA1', changes: [{ field: 'messages', value: { messaging_product: 'whatsapp', metadata: { display_phone_number: '5511912345678', phone_number_id: phoneNumberId }, ...value } }] }],
});

export const waTextMessage = (phoneNumberId: string, m: { id: string; from: string; name: string; text: string }) =>
  envelope(phoneNumberId, {
    contacts: [{ profile: { name: m.name }, wa_id: m.from }],
    messages: [{ from: m.from, id: m.id, timestamp: String(Math.floor(Date.now() / 1000)), type: 'text', text: { body: m.text } }],
  });

export const waStatus = (phoneNumberId: string, s: { id: string; status: 'sent' | 'delivered' | 'read' | 'failed'; recipient: string; error?: string }) =>
  envelope(phoneNumberId, {
    statuses: [
      {
        id: s.id,
        status: s.status,
        timestamp: String(Math.floor(Date.now() / 1000)),
        recipient_id: s.recipient,
        ...(s.error && { errors: [{ code: 131026, title: 'Message undeliverable', message: 'Message undeliverable', error_data: { details: s.error } }] }),
      },
    ],
  });

export const waImageMessage = (phoneNumberId: string, m: { id: string; from: string; name: string; mediaId: string; caption?: string }) =>
  envelope(phoneNumberId, {
    contacts: [{ profile: { name: m.name }, wa_id: m.from }],
    messages: [{ from: m.from, id: m.id, timestamp: String(Math.floor(Date.now() / 1000)), type: 'image', image: { id: m.mediaId, mime_type: 'image/png', sha256: 'x', caption: m.caption } }],
  });

/** Delivers a webhook as Meta does: the body signed with the app secret (or a forged signature). */
export async function deliverWhatsAppWebhook(url: string, appSecret: string, payload: unknown, opts: { signature?: string } = {}) {
  const body = JSON.stringify(payload);
  const signature = opts.signature ?? `sha256=${createHmac('sha256', appSecret).update(body).digest('hex')}`;
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature }, body });
  return { status: res.status, text: await res.text() };
}
