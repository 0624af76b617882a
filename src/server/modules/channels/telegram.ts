/**
 * Telegram through the Bot API over plain HTTPS (POST {root}/bot<token>/<method>, JSON; answers
 * { ok, result } or { ok: false, error_code, description }). The webhook is registered with a
 * secret token that Telegram sends back in X-Telegram-Bot-Api-Secret-Token on every delivery.
 * The Bot API has no delivery or read receipts: a message Telegram accepted counts as delivered.
 */
import { timingSafeEqual } from 'node:crypto';
import { ChannelSendError, type Channel, type Connection, type InboundEvent, type InboundMedia, type OutboundMessage } from './channel';
import { fetchBytes } from './whatsapp';

async function call(root: string, conn: Connection, method: string, body: Record<string, unknown>, signal: AbortSignal = AbortSignal.timeout(15_000)) {
  let res: Response;
  try {
    res = await fetch(`${root}/bot${conn.credentials.botToken}/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal,
    });
  } catch (err) {
    throw new ChannelSendError(`Telegram could not be reached: ${(err as Error).message}`, true);
  }
  const json = (await res.json().catch(() => ({}))) as { ok?: boolean; result?: unknown; description?: string; error_code?: number };
  if (!res.ok || !json.ok) {
    const status = json.error_code ?? res.status;
    throw new ChannelSendError(json.description ?? `HTTP ${res.status}`, status >= 500 || status === 429);
  }
  return json.result;
}

function request(m: OutboundMessage): [string, Record<string, unknown>] {
  const chat_id = m.to;
  if (!m.file) return ['sendMessage', { chat_id, text: m.text }];
  const caption = m.text && m.text !== m.file.name ? m.text : undefined;
  if (m.file.kind === 'image') return ['sendPhoto', { chat_id, photo: m.file.url, caption }];
  if (m.file.kind === 'audio') return ['sendAudio', { chat_id, audio: m.file.url, caption }];
  return ['sendDocument', { chat_id, document: m.file.url, caption }];
}

type TgFile = { file_id: string; mime_type?: string; file_size?: number };

function mediaOf(m: NonNullable<TgUpdate['message']>): InboundMedia | undefined {
  const id = m.message_id;
  if (m.photo?.length) return { ref: m.photo[m.photo.length - 1]!.file_id, mime: 'image/jpeg', name: `photo-${id}.jpg` };
  if (m.document?.file_id) return { ref: m.document.file_id, mime: m.document.mime_type, name: m.document.file_name ?? `file-${id}` };
  if (m.voice?.file_id) return { ref: m.voice.file_id, mime: m.voice.mime_type ?? 'audio/ogg', name: `voice-${id}.ogg`, audio: true };
  if (m.audio?.file_id) return { ref: m.audio.file_id, mime: m.audio.mime_type, name: m.audio.file_name ?? `audio-${id}`, audio: true };
  return undefined;
}

type TgUpdate = {
  update_id?: number;
  message?: {
    message_id: number;
    from?: { first_name?: string; last_name?: string; username?: string };
    chat?: { id: number | string };
    text?: string;
    caption?: string;
    document?: TgFile & { file_name?: string };
    photo?: (TgFile & { width?: number })[];
    voice?: TgFile;
    audio?: TgFile & { file_name?: string };
  };
};

function sameSecret(given: string | string[] | undefined, expected: string | undefined) {
  if (typeof given !== 'string' || !expected) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** One update in the module's words: the webhook and long polling read updates alike. */
function eventsOf(update: TgUpdate): InboundEvent[] {
  const m = update.message;
  if (typeof update.update_id !== 'number' || !m?.chat) return [];
  const name = [m.from?.first_name, m.from?.last_name].filter(Boolean).join(' ') || m.from?.username || String(m.chat.id);
  const media = mediaOf(m);
  const text = m.text ?? m.caption ?? '';
  return text || media ? [{ type: 'message', externalId: String(update.update_id), from: String(m.chat.id), name, text, media }] : [];
}

export function telegramChannel(root: string): Channel {
  return {
    kind: 'telegram',
    async send(conn, message) {
      const [method, body] = request(message);
      const result = (await call(root, conn, method, body)) as { message_id?: number };
      return { externalId: String(result?.message_id ?? ''), delivered: true };
    },
    async download(conn, media, maxBytes) {
      // getFile gives a path under /file/bot<token>/ (valid for an hour).
      const file = (await call(root, conn, 'getFile', { file_id: media.ref })) as { file_path?: string; file_size?: number };
      if (!file?.file_path) throw new ChannelSendError('Telegram gave no file path', true);
      if ((file.file_size ?? 0) > maxBytes) throw new ChannelSendError('The file is larger than this installation accepts', false);
      return fetchBytes(`${root}/file/bot${conn.credentials.botToken}/${file.file_path}`, {}, maxBytes);
    },
    async connect(conn) {
      const me = (await call(root, conn, 'getMe', {})) as { username?: string };
      // getUpdates answers 409 while a webhook is set: polling removes it (keeping what waits).
      if (conn.polling) await call(root, conn, 'deleteWebhook', { drop_pending_updates: false });
      else await call(root, conn, 'setWebhook', { url: conn.webhookUrl, secret_token: conn.credentials.webhookSecret, allowed_updates: ['message'] });
      return { botUsername: me?.username ?? '' };
    },
    async poll(conn, offset, timeoutS, signal) {
      // Telegram holds the request up to timeoutS seconds until an update arrives; the offset
      // confirms (and makes Telegram forget) every update below it.
      const wait = AbortSignal.any([signal, AbortSignal.timeout((timeoutS + 15) * 1000)]);
      const updates = (await call(root, conn, 'getUpdates', { offset, timeout: timeoutS, allowed_updates: ['message'] }, wait)) as TgUpdate[];
      return (Array.isArray(updates) ? updates : []).filter((u) => typeof u.update_id === 'number').map((u) => ({ id: u.update_id!, events: eventsOf(u) }));
    },
    webhook(conn, req) {
      if (req.method !== 'POST') return { status: 405 };
      if (!sameSecret(req.headers['x-telegram-bot-api-secret-token'], conn.credentials.webhookSecret)) return { status: 401, body: 'Invalid secret token' };
      let update: TgUpdate;
      try {
        update = JSON.parse(req.rawBody.toString('utf8')) as TgUpdate;
      } catch {
        return { status: 400, body: 'Invalid JSON' };
      }
      return { status: 200, events: eventsOf(update) };
    },
  };
}
