/**
 * A local server that speaks the Telegram Bot API as our adapter uses it (POST /bot<token>/
 * <method>, JSON, { ok, result } / { ok: false, error_code, description }), and Telegram's side
 * of the webhook: updates POSTed with X-Telegram-Bot-Api-Secret-Token.
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
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
