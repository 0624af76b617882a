/**
 * Telegram end to end over HTTP against a local server speaking the Bot API: settings register the
 * webhook with its secret token, a customer's first message opens a request, replies are relayed,
 * forged and repeated updates, and an attendant's notifications reaching their linked Telegram.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect, until } from '../helpers/chat';
import { startTestServer, type TestServer } from '../helpers/server';
import { serviceCompany, type ClientSocket } from '../helpers/service';
import { startTelegramServer } from '../helpers/telegram';

const BOT_TOKEN = '123456789:AAH-test-bot-token-for-atende-tests';

let server: TestServer;
let tg: Awaited<ReturnType<typeof startTelegramServer>>;
const sockets: ClientSocket[] = [];
beforeAll(async () => {
  tg = await startTelegramServer({ botToken: BOT_TOKEN, username: 'atende_test_bot' });
  server = await startTestServer({ env: { TELEGRAM_API_ROOT: tg.root, CHANNEL_POLL_MS: '50', CHANNEL_RETRY_BASE_MS: '50', CHANNEL_MAX_ATTEMPTS: '3' } });
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await server?.close();
  await tg?.close();
});

let chatSeq = 0;
const chatId = () => 700_000 + ++chatSeq * 13;
const sendsTo = (id: number) => tg.sends().filter((c) => String(c.body.chat_id) === String(id));

async function connected() {
  const c = await serviceCompany(server, sockets, { plan: { calls: 1 } });
  const bia = await c.attendant('Bia Atendente', { groupIds: [c.group('member')] });
  const settings = await c.admin.call('channels.saveTelegram', { domain: c.domain, queueId: c.queue.id, botToken: BOT_TOKEN });
  return { c, bia, settings };
}

describe('Telegram', () => {
  it('settings check the bot, register the webhook with a secret token, and are for admins', async () => {
    const { c, bia, settings } = await connected();
    expect(settings).toMatchObject({ configured: true, enabled: true, info: { botUsername: 'atende_test_bot' } });
    expect(tg.webhook?.url).toBe(settings.webhookUrl);
    expect(tg.webhook?.secret).toMatch(/^[0-9a-f]{48}$/);
    const row = await server.db.channelSetting.findFirstOrThrow({ where: { companyId: c.company.id, channel: 'telegram' } });
    expect(row.credentials).not.toContain(BOT_TOKEN);
    expect((await bia.attempt('channels.telegramSettings', { domain: c.domain }, 'query')).error).toMatchObject({ code: 'FORBIDDEN' });
    const wrong = await c.admin.attempt('channels.saveTelegram', { domain: c.domain, queueId: null, botToken: '999:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' });
    expect(wrong.error).toMatchObject({ code: 'BAD_REQUEST', message: 'The provider refused the connection: Unauthorized' });
  });

  it('a first message opens a request; the reply is relayed and counts as delivered; forged and repeated updates do nothing', async () => {
    const { c, bia } = await connected();
    const socket = await bia.open();
    const receipts = collect(socket, 'receipt:update');
    const from = chatId();
    expect((await tg.deliver({ chatId: from, firstName: 'Tiago', text: 'Bom dia' }, { secret: 'forged-secret' })).status).toBe(401);
    expect(await server.db.conversation.count({ where: { companyId: c.company.id } })).toBe(0);
    const first = await tg.deliver({ chatId: from, firstName: 'Tiago', text: 'Bom dia' });
    expect(first.status).toBe(200);
    expect((await tg.deliver({ chatId: from, firstName: 'Tiago', text: 'Bom dia' }, { updateId: first.updateId })).status).toBe(200);
    const conv = await server.db.conversation.findFirstOrThrow({ where: { companyId: c.company.id }, include: { participants: true } });
    expect(conv).toMatchObject({ queueId: c.queue.id, inQueue: true, title: 'Tiago' });
    expect(await server.db.message.count({ where: { conversationId: conv.id, text: 'Bom dia' } })).toBe(1);
    const customer = conv.participants.find((p) => p.userId === conv.creatorId)!;
    expect(customer.telegram).toBe(true);
    // The customer enters the directory as someone who came through a channel.
    expect(await server.db.contact.findFirstOrThrow({ where: { companyId: c.company.id, userIds: { has: conv.creatorId! } } })).toMatchObject({ name: 'Tiago', source: 'channel' });
    await until(() => sendsTo(from).length === 1); // the greeting
    await bia.call('service.take', { domain: c.domain, conversationId: conv.id });
    // The desk shows the attendant how this customer came.
    expect(await bia.call('service.details', { domain: c.domain, conversationId: conv.id }, 'query')).toMatchObject({ customerChannel: 'telegram' });
    const reply = await bia.call('chat.send', { domain: c.domain, conversationId: conv.id, clientId: 't1', text: 'Olá Tiago!' });
    await until(() => sendsTo(from).some((s) => s.method === 'sendMessage' && s.body.text === 'Olá Tiago!'));
    await until(() => receipts.some((r) => r.userId === customer.userId && r.kind === 'delivered' && r.uptoSeq >= reply.seq));
    // Only Telegram customers on the other side: no call (the spec's refusal).
    expect((await bia.attempt('calls.start', { domain: c.domain, conversationId: conv.id, type: 1 })).error?.message).toBe('Clientes Telegram não conseguem receber chamadas.');
  });

  it("links an attendant's Telegram through the bot and delivers their notifications there", async () => {
    const { c, bia } = await connected();
    const before = await bia.call('channels.telegramNotify', { domain: c.domain }, 'query');
    expect(before).toMatchObject({ available: true, botUsername: 'atende_test_bot', linkedAt: null });
    const token = /\?start=(n_[0-9a-f]+)$/.exec(before.link)![1]!;
    const attendantChat = chatId();
    // Someone else's edited token links nothing.
    const forgedToken = `${token.slice(0, -4)}0000`;
    await tg.deliver({ chatId: 1234, firstName: 'Mallory', text: `/start ${forgedToken}` });
    await tg.deliver({ chatId: attendantChat, firstName: 'Bia', text: `/start ${token}` });
    expect(await bia.call('channels.telegramNotify', { domain: c.domain }, 'query')).toMatchObject({ linkedAt: expect.anything() });
    expect(await server.db.telegramRecipient.count({ where: { companyId: c.company.id } })).toBe(1);
    await until(() => sendsTo(attendantChat).some((s) => s.body.text === 'Your notifications will arrive here.'));
    // No request was opened by the /start messages.
    expect(await server.db.conversation.count({ where: { companyId: c.company.id } })).toBe(0);
    // A customer arrives: the queue notification reaches the attendant's Telegram.
    await tg.deliver({ chatId: chatId(), firstName: 'Rita', text: 'Oi' });
    await until(() => sendsTo(attendantChat).some((s) => String(s.body.text).startsWith('New request in the queue')));
    await bia.call('channels.unlinkTelegramNotify', { domain: c.domain });
    expect(await server.db.telegramRecipient.count({ where: { companyId: c.company.id } })).toBe(0);
  });

  it('a document from Telegram becomes the customer\'s file message; a photo from the attendant goes out by link', async () => {
    const { c, bia } = await connected();
    const from = chatId();
    tg.addFile('DOC1', Buffer.from('%PDF-1.4 boleto'));
    await tg.deliver({ chatId: from, firstName: 'Lia', text: 'Meu boleto', document: { file_id: 'DOC1', file_name: 'boleto.pdf', mime_type: 'application/pdf' } });
    const conv = await server.db.conversation.findFirstOrThrow({ where: { companyId: c.company.id } });
    expect(await server.db.message.findFirstOrThrow({ where: { conversationId: conv.id, type: 'arquivo' } })).toMatchObject({ fileName: 'boleto.pdf', text: 'Meu boleto', fileSize: BigInt(15) });
    await bia.call('service.take', { domain: c.domain, conversationId: conv.id });
    const png = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(500, 2)]);
    const res = await fetch(`${server.url}/uploads/chat/${c.domain}/${conv.id}?clientId=p1&name=mapa.png`, {
      method: 'PUT',
      headers: { cookie: bia.cookie, 'content-type': 'image/png' },
      body: new Blob([new Uint8Array(png)]),
    });
    expect(res.status).toBe(200);
    await until(() => sendsTo(from).some((s) => s.method === 'sendPhoto'));
    const photo = sendsTo(from).find((s) => s.method === 'sendPhoto')!;
    expect(Buffer.from(await (await fetch(String(photo.body.photo))).arrayBuffer()).equals(png)).toBe(true);
  });
});
