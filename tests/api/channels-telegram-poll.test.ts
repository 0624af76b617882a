/**
 * Telegram by long polling (no PUBLIC_URL, so no webhook Telegram could reach) against the local
 * Bot API server: the settings remove the webhook and say "polling"; a customer's first message
 * opens a request; a repeated update is applied once; with two instances on one database only one
 * polls the bot (Telegram would end the other's getUpdates with 409), and the offset survives the
 * pollers going away.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { serviceCompany, until, type ClientSocket } from '../helpers/service';
import { startTelegramServer } from '../helpers/telegram';

const BOT_TOKEN = '223456789:AAH-test-bot-token-for-polling-tests';

let a: TestServer;
let aOpen = false;
let b: TestServer | undefined;
let c3: TestServer | undefined;
let tg: Awaited<ReturnType<typeof startTelegramServer>>;
const sockets: ClientSocket[] = [];
const env = () => ({ PUBLIC_URL: '', TELEGRAM_API_ROOT: tg.root, TELEGRAM_POLL_TIMEOUT_S: '1', CHANNEL_POLL_MS: '50', CHANNEL_RETRY_BASE_MS: '50' });

beforeAll(async () => {
  tg = await startTelegramServer({ botToken: BOT_TOKEN, username: 'atende_poll_bot' });
  a = await startTestServer({ env: env() });
  aOpen = true;
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await c3?.close();
  await b?.close();
  if (aOpen) await a.close();
  await tg?.close();
});

let company: Awaited<ReturnType<typeof serviceCompany>>;
const messages = (text: string) => a.db.message.count({ where: { conversation: { companyId: company.company.id }, text } });
/** The bot's polling row (made by the first instance that claims the bot). */
const poll = async () => (await a.db.telegramPoll.findFirst()) ?? { offset: 0n, owner: null };

describe('Telegram long polling', () => {
  it('with no public URL the settings choose polling; a first message opens a request in the queue', async () => {
    company = await serviceCompany(a, sockets);
    const settings = await company.admin.call('channels.saveTelegram', { domain: company.domain, queueId: company.queue.id, botToken: BOT_TOKEN });
    expect(settings).toMatchObject({ configured: true, delivery: 'auto', mode: 'polling', info: { botUsername: 'atende_poll_bot' } });
    expect(tg.calls.some((c) => c.method === 'deleteWebhook')).toBe(true);
    expect(tg.webhook).toBeNull();
    const id = tg.queue({ chatId: 9001, firstName: 'Paula', text: 'Bom dia, por polling' });
    // The offset is stored once the update is applied.
    await until(async () => Number((await poll()).offset) === id + 1);
    expect(await messages('Bom dia, por polling')).toBe(1);
    const conv = await a.db.conversation.findFirstOrThrow({ where: { companyId: company.company.id }, include: { participants: true } });
    expect(conv).toMatchObject({ queueId: company.queue.id, inQueue: true, title: 'Paula' });
    expect(conv.participants.find((p) => p.userId === conv.creatorId)?.telegram).toBe(true);
    // The greeting goes back through the same bot.
    await until(() => tg.sends().some((s) => String(s.body.chat_id) === '9001'));
  });

  it('an update served again (the offset was not stored before a crash) is applied once', async () => {
    const first = Number((await poll()).offset) - 1;
    // As if the instance died after applying the update but before storing the offset.
    await a.db.telegramPoll.updateMany({ data: { offset: BigInt(first) } });
    tg.queue({ chatId: 9001, firstName: 'Paula', text: 'Bom dia, por polling' }, { updateId: first });
    const next = tg.queue({ chatId: 9001, firstName: 'Paula', text: 'Segunda mensagem' });
    await until(async () => Number((await poll()).offset) === next + 1);
    expect(await messages('Bom dia, por polling')).toBe(1);
    expect(await messages('Segunda mensagem')).toBe(1);
  });

  it('two instances: one polls the bot; each update applied once; the offset outlives a restart', async () => {
    b = await startTestServer({ databaseUrl: a.databaseUrl, env: env() });
    const texts = ['um', 'dois', 'tres'].map((t) => `duas instâncias ${t}`);
    for (const text of texts) tg.queue({ chatId: 9002, firstName: 'Caio', text });
    await until(async () => (await Promise.all(texts.map(messages))).every((n) => n === 1));
    // Polled through a few long polls with both instances up: never two getUpdates at once.
    const polled = tg.calls.filter((c) => c.method === 'getUpdates').length;
    await until(() => tg.calls.filter((c) => c.method === 'getUpdates').length >= polled + 3);
    expect(tg.conflicts).toBe(0);
    expect((await poll()).owner).not.toBeNull();
    // Whichever instance polled goes away; the other (and then a new one) carries on from the offset.
    aOpen = false;
    await a.close();
    tg.queue({ chatId: 9002, firstName: 'Caio', text: 'depois de uma parar' });
    await until(async () => (await b!.db.message.count({ where: { text: 'depois de uma parar' } })) === 1);
    c3 = await startTestServer({ databaseUrl: a.databaseUrl, env: env() });
    await b.close();
    b = undefined;
    const last = tg.queue({ chatId: 9002, firstName: 'Caio', text: 'depois do reinício' });
    await until(async () => Number((await c3!.db.telegramPoll.findFirst())?.offset) === last + 1);
    expect(await c3.db.message.count({ where: { text: 'depois do reinício' } })).toBe(1);
    for (const text of texts) expect(await c3.db.message.count({ where: { text } })).toBe(1);
    expect(tg.conflicts).toBe(0);
  });
});
