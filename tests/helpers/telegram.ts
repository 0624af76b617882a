/**
 * A local server that speaks the Telegram Bot API as our adapter uses it (POST /bot<token>/
 * <method>, JSON, { ok, result } / { ok: false, error_code, description }), and Telegram's side
 * of the webhook: updates POSTed with X-Telegram-Bot-Api-Secret-Token. Long polling as Telegram
 * does it: getUpdates answers 409 while a webhook is set; it holds the request up to `timeout`
 * seconds until an update waits; its offset confirms (forgets) the updates below it; a second
 * getUpdates while one is held ends the first with 409 (counted in `conflicts`).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TgCall {
  method: string;
  body: Record<string, unknown>;
}

export async function startTelegramServer(opts: { botToken: string; username?: string }) {
  const calls: TgCall[] = [];
  const failures: { code: number; description: string }[] = [];
  let webhook: { url: string; secret: string } | null = null;
  let messageId = 100;
  let down = false;
  /** Files users "sent": getFile gives file_path, downloaded from /file/bot<token>/<path>. */
  const files = new Map<string, Buffer>();
  /** Updates waiting for getUpdates (long polling), and the request held until one arrives. */
  let pending: Record<string, unknown>[] = [];
  let held: { offset: number; answer: (updates: Record<string, unknown>[] | null) => void } | null = null;
  let conflicts = 0;
  const waiting = (offset: number) => pending.filter((u) => (u.update_id as number) >= offset).slice(0, 100);
  const wake = () => {
    if (!held) return;
    const ready = waiting(held.offset);
    if (ready.length) held.answer(ready);
  };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const reply = (status: number, json: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
      if (down) return reply(502, { ok: false, error_code: 502, description: 'Bad Gateway' });
      const download = /^\/file\/bot([^/]+)\/files\/([\w.-]+)$/.exec(req.url ?? '');
      if (download) {
        const bytes = download[1] === opts.botToken ? files.get(download[2]!) : undefined;
        if (!bytes) return reply(404, { ok: false, error_code: 404, description: 'Not Found' });
        return res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(bytes);
      }
      const m = /^\/bot([^/]+)\/(\w+)$/.exec(req.url ?? '');
      if (!m || m[1] !== opts.botToken) return reply(401, { ok: false, error_code: 401, description: 'Unauthorized' });
      const method = m[2]!;
      const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      calls.push({ method, body });
      if (method === 'getFile') {
        const id = String(body.file_id);
        if (!files.has(id)) return reply(400, { ok: false, error_code: 400, description: 'Bad Request: invalid file_id' });
        return reply(200, { ok: true, result: { file_id: id, file_unique_id: id, file_size: files.get(id)!.length, file_path: `files/${id}` } });
      }
      if (method === 'getMe') return reply(200, { ok: true, result: { id: 1, is_bot: true, first_name: 'Bot', username: opts.username ?? 'atende_test_bot' } });
      if (method === 'deleteWebhook') {
        webhook = null;
        return reply(200, { ok: true, result: true, description: 'Webhook was deleted' });
      }
      if (method === 'getUpdates') {
        if (webhook) return reply(409, { ok: false, error_code: 409, description: "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first" });
        const offset = Number(body.offset ?? 0);
        if (offset > 0) pending = pending.filter((u) => (u.update_id as number) >= offset);
        if (held) {
          conflicts++;
          held.answer(null);
        }
        const ready = waiting(offset);
        if (ready.length || !Number(body.timeout)) return reply(200, { ok: true, result: ready });
        const timer = setTimeout(() => me.answer([]), Number(body.timeout) * 1000);
        const me = {
          offset,
          answer: (updates: Record<string, unknown>[] | null) => {
            clearTimeout(timer);
            if (held === me) held = null;
            if (updates) reply(200, { ok: true, result: updates });
            else reply(409, { ok: false, error_code: 409, description: 'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running' });
          },
        };
        held = me;
        req.socket.once('close', () => held === me && (clearTimeout(timer), (held = null)));
        return;
      }
      if (method === 'setWebhook') {
        webhook = { url: String(body.url), secret: String(body.secret_token ?? '') };
        return reply(200, { ok: true, result: true, description: 'Webhook was set' });
      }
      if (/^send(Message|Photo|Document|Audio)$/.test(method)) {
        const failure = failures.shift();
        if (failure) return reply(failure.code, { ok: false, error_code: failure.code, description: failure.description });
        return reply(200, { ok: true, result: { message_id: ++messageId, chat: { id: Number(body.chat_id) }, date: Math.floor(Date.now() / 1000), text: body.text } });
      }
      reply(404, { ok: false, error_code: 404, description: 'Not Found: method not found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  let updateId = 5000;
  return {
    root: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    sends: () => calls.filter((c) => c.method.startsWith('send')),
    get webhook() {
      return webhook;
    },
    failNext: (...f: { code: number; description: string }[]) => failures.push(...f),
    addFile: (fileId: string, bytes: Buffer) => files.set(fileId, bytes),
    setDown: (value: boolean) => (down = value),
    /** Telegram delivering an update to the registered webhook; `updateId` repeats one. */
    async deliver(message: { chatId: number; firstName: string; text?: string; document?: { file_id: string; file_name: string; mime_type: string } }, o: { updateId?: number; secret?: string } = {}) {
      if (!webhook) throw new Error('no webhook registered');
      const update_id = o.updateId ?? ++updateId;
      const res = await fetch(webhook.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': o.secret ?? webhook.secret },
        body: JSON.stringify({
          update_id,
          message: {
            message_id: update_id,
            from: { id: message.chatId, is_bot: false, first_name: message.firstName },
            chat: { id: message.chatId, type: 'private' },
            date: 0,
            ...(message.document ? { document: message.document, caption: message.text } : { text: message.text }),
          },
        }),
      });
      return { status: res.status, updateId: update_id };
    },
    /** getUpdates calls answered with 409 because another one was held (two pollers of one bot). */
    get conflicts() {
      return conflicts;
    },
    /** Telegram keeping an update for getUpdates; `updateId` serves one again (a repeat). */
    queue(message: { chatId: number; firstName: string; text: string }, o: { updateId?: number } = {}) {
      const update_id = o.updateId ?? ++updateId;
      pending.push({
        update_id,
        message: { message_id: update_id, from: { id: message.chatId, is_bot: false, first_name: message.firstName }, chat: { id: message.chatId, type: 'private' }, date: 0, text: message.text },
      });
      wake();
      return update_id;
    },
    close: () => {
      held?.answer([]);
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
