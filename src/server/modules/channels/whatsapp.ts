/**
 * WhatsApp through the official WhatsApp Business Cloud API (Graph API): POST /{phone-number-id}/
 * messages with the access token; the webhook's GET handshake (hub.mode / hub.verify_token /
 * hub.challenge) and POSTs signed with the app secret (X-Hub-Signature-256: sha256=HMAC(body)).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { ChannelSendError, type Channel, type Connection, type InboundEvent, type InboundMedia, type OutboundMessage, type WebhookRequest } from './channel';

interface GraphError {
  error?: { message?: string; code?: number; error_data?: { details?: string } };
}

async function graph(root: string, conn: Connection, path: string, init: { method: string; body?: unknown }) {
  let res: Response;
  try {
    res = await fetch(`${root}/${path}`, {
      method: init.method,
      headers: { authorization: `Bearer ${conn.credentials.accessToken}`, ...(init.body !== undefined && { 'content-type': 'application/json' }) },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: AbortSignal.timeout(15_000),
    });
  } catch (err) {
    throw new ChannelSendError(`WhatsApp could not be reached: ${(err as Error).message}`, true);
  }
  const json = (await res.json().catch(() => ({}))) as GraphError & Record<string, unknown>;
  if (!res.ok) {
    const reason = json.error?.error_data?.details ?? json.error?.message ?? `HTTP ${res.status}`;
    throw new ChannelSendError(reason, res.status >= 500 || res.status === 429);
  }
  return json;
}

function payload(m: OutboundMessage) {
  const base = { messaging_product: 'whatsapp', recipient_type: 'individual', to: m.to };
  if (!m.file) return { ...base, type: 'text', text: { body: m.text, preview_url: false } };
  const caption = m.text && m.text !== m.file.name ? m.text : undefined;
  if (m.file.kind === 'image') return { ...base, type: 'image', image: { link: m.file.url, caption } };
  if (m.file.kind === 'audio') return { ...base, type: 'audio', audio: { link: m.file.url } };
  return { ...base, type: 'document', document: { link: m.file.url, filename: m.file.name, caption } };
}

export async function fetchBytes(url: string, headers: Record<string, string>, maxBytes: number): Promise<Buffer> {
  let res: Response;
  try {
    res = await fetch(url, { headers, signal: AbortSignal.timeout(60_000) });
  } catch (err) {
    throw new ChannelSendError(`The file could not be fetched: ${(err as Error).message}`, true);
  }
  if (!res.ok) throw new ChannelSendError(`The file could not be fetched: HTTP ${res.status}`, res.status >= 500);
  const bytes = Buffer.from(await res.arrayBuffer());
  if (bytes.length > maxBytes) throw new ChannelSendError('The file is larger than this installation accepts', false);
  return bytes;
}

/** The X-Hub-Signature-256 header matches the body signed with the app secret. */
export function validSignature(appSecret: string, rawBody: Buffer, header: string | string[] | undefined): boolean {
  if (typeof header !== 'string' || !header.startsWith('sha256=')) return false;
  const expected = createHmac('sha256', appSecret).update(rawBody).digest();
  const given = Buffer.from(header.slice(7), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

type WaMedia = { id?: string; mime_type?: string; caption?: string; filename?: string };
type WaMessage = { id: string; from: string; type: string; text?: { body?: string }; image?: WaMedia; document?: WaMedia; audio?: WaMedia; video?: WaMedia; sticker?: WaMedia };

const EXTENSIONS: Record<string, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp', 'audio/ogg': 'ogg', 'audio/mpeg': 'mp3', 'video/mp4': 'mp4', 'application/pdf': 'pdf' };

function mediaOf(m: WaMessage): InboundMedia | undefined {
  const kind = (['image', 'document', 'audio', 'video', 'sticker'] as const).find((k) => m.type === k && m[k]?.id);
  if (!kind) return undefined;
  const media = m[kind]!;
  const ext = EXTENSIONS[(media.mime_type ?? '').split(';')[0]!.trim()] ?? 'bin';
  return { ref: media.id!, mime: media.mime_type, name: media.filename ?? `${kind}-${m.id.slice(-8).replace(/\W/g, '')}.${ext}`, audio: kind === 'audio' };
}
type WaStatus = { id: string; status: string; errors?: { title?: string; message?: string; error_data?: { details?: string } }[] };
type WaBody = { entry?: { changes?: { value?: { contacts?: { wa_id: string; profile?: { name?: string } }[]; messages?: WaMessage[]; statuses?: WaStatus[] } }[] }[] };

function events(body: WaBody): InboundEvent[] {
  const out: InboundEvent[] = [];
  for (const entry of body.entry ?? [])
    for (const change of entry.changes ?? []) {
      const v = change.value ?? {};
      const names = new Map((v.contacts ?? []).map((c) => [c.wa_id, c.profile?.name ?? '']));
      for (const m of v.messages ?? []) {
        if (typeof m?.id !== 'string' || typeof m.from !== 'string') continue;
        // Media arrive as text for now: what the customer sent and its caption (docs/decisions.md).
        const media = mediaOf(m);
        const text = m.text?.body ?? m.image?.caption ?? m.document?.caption ?? m.video?.caption ?? (media ? '' : `[${m.type}]`);
        out.push({ type: 'message', externalId: m.id, from: m.from, name: names.get(m.from) || m.from, text, media });
      }
      for (const s of v.statuses ?? []) {
        if (typeof s?.id !== 'string' || !['sent', 'delivered', 'read', 'failed'].includes(s.status)) continue;
        const e = s.errors?.[0];
        out.push({ type: 'status', externalId: s.id, status: s.status as 'sent', reason: e ? (e.error_data?.details ?? e.message ?? e.title) : undefined });
      }
    }
  return out;
}

export function whatsappChannel(root: string): Channel {
  return {
    kind: 'whatsapp',
    async send(conn, message) {
      const json = (await graph(root, conn, `${encodeURIComponent(conn.info.phoneNumberId ?? '')}/messages`, { method: 'POST', body: payload(message) })) as {
        messages?: { id?: string }[];
      };
      const id = json.messages?.[0]?.id;
      if (!id) throw new ChannelSendError('WhatsApp answered without a message id', true);
      return { externalId: id };
    },
    async download(conn, media, maxBytes) {
      // Two steps (Graph API media): the id gives a short-lived URL, fetched with the same token.
      const meta = (await graph(root, conn, encodeURIComponent(media.ref), { method: 'GET' })) as { url?: string; file_size?: number };
      if (!meta.url) throw new ChannelSendError('WhatsApp gave no media URL', true);
      if ((meta.file_size ?? 0) > maxBytes) throw new ChannelSendError('The file is larger than this installation accepts', false);
      return fetchBytes(meta.url, { authorization: `Bearer ${conn.credentials.accessToken}` }, maxBytes);
    },
    async connect(conn) {
      // The phone number's own record: proves the token and the number id belong together.
      const json = (await graph(root, conn, encodeURIComponent(conn.info.phoneNumberId ?? ''), { method: 'GET' })) as { display_phone_number?: string };
      const info: Record<string, string> = {};
      if (json.display_phone_number) info.displayNumber = json.display_phone_number;
      return info;
    },
    webhook(conn, req: WebhookRequest) {
      if (req.method === 'GET') {
        const q = req.query;
        if (q['hub.mode'] === 'subscribe' && typeof q['hub.challenge'] === 'string' && q['hub.verify_token'] === conn.credentials.verifyToken) {
          return { status: 200, body: q['hub.challenge'] };
        }
        return { status: 403, body: 'Verification token mismatch' };
      }
      if (!validSignature(conn.credentials.appSecret ?? '', req.rawBody, req.headers['x-hub-signature-256'])) return { status: 401, body: 'Invalid signature' };
      let body: WaBody;
      try {
        body = JSON.parse(req.rawBody.toString('utf8')) as WaBody;
      } catch {
        return { status: 400, body: 'Invalid JSON' };
      }
      return { status: 200, events: events(body) };
    },
  };
}
