/**
 * WhatsApp end to end over HTTP against a local server speaking the Cloud API: settings (plan
 * flag, encrypted credentials), the webhook handshake and signature, a customer's first message
 * opening a request, the attendant's reply relayed through the outbox, statuses becoming receipts,
 * duplicate and forged deliveries, and a final failure shown on the message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect, until } from '../helpers/chat';
import { startTestServer, type TestServer } from '../helpers/server';
import { serviceCompany, type ClientSocket } from '../helpers/service';
import { deliverWhatsAppWebhook, startWhatsAppServer, waImageMessage, waStatus, waTextMessage } from '../helpers/whatsapp';

const PHONE_ID = '109876543210';
const TOKEN = 'EAAG-test-access-token';
const APP_SECRET = 'meta-app-secret-for-tests';

let server: TestServer;
let wa: Awaited<ReturnType<typeof startWhatsAppServer>>;
const sockets: ClientSocket[] = [];
beforeAll(async () => {
  wa = await startWhatsAppServer({ phoneNumberId: PHONE_ID, accessToken: TOKEN });
  server = await startTestServer({ env: { WHATSAPP_API_ROOT: wa.root, CHANNEL_POLL_MS: '50', CHANNEL_RETRY_BASE_MS: '50', CHANNEL_MAX_ATTEMPTS: '3' } });
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await server?.close();
  await wa?.close();
});

let waSeq = 0;
const waId = () => `5511${String(900000000 + ++waSeq * 7919).slice(0, 9)}`;
let msgSeq = 0;
const wamid = () => `wamid.IN${Date.now()}${++msgSeq}`;

async function connected() {
  const c = await serviceCompany(server, sockets, { plan: { whatsapp: 1, calls: 1 } });
  const bia = await c.attendant('Bia Atendente', { groupIds: [c.group('member')] });
  const settings = await c.admin.call('channels.saveWhatsApp', { domain: c.domain, queueId: c.queue.id, phoneNumberId: PHONE_ID, accessToken: TOKEN, appSecret: APP_SECRET });
  return { c, bia, settings, webhook: settings.webhookUrl as string };
}

const sentTo = (to: string) => wa.sent.filter((m) => m.to === to);

describe('WhatsApp settings', () => {
  it('are for admins of a plan with WhatsApp, keep the credentials encrypted, and give the webhook to paste', async () => {
    const { c, bia, settings } = await connected();
    expect(settings).toMatchObject({ configured: true, enabled: true, queueId: c.queue.id, info: { phoneNumberId: PHONE_ID, displayNumber: '+55 11 91234-5678' } });
    expect(settings.webhookUrl).toMatch(new RegExp(`^${server.url}/webhooks/whatsapp/[\\w-]+$`));
    expect(settings.verifyToken).toMatch(/^[0-9a-f]{24}$/);
    expect(JSON.stringify(settings)).not.toContain(TOKEN);
    const row = await server.db.channelSetting.findFirstOrThrow({ where: { companyId: c.company.id } });
    expect(row.credentials).not.toContain(TOKEN);
    expect(row.credentials).not.toContain(APP_SECRET);
    // Not an admin; then a plan without WhatsApp.
    expect((await bia.attempt('channels.whatsappSettings', { domain: c.domain }, 'query')).error).toMatchObject({ code: 'FORBIDDEN' });
    const other = await serviceCompany(server, sockets);
    expect((await other.admin.attempt('channels.whatsappSettings', { domain: other.domain }, 'query')).error).toMatchObject({
      code: 'FORBIDDEN',
      message: 'WhatsApp is not included in your plan. Ask an administrator to enable it.',
    });
    // A wrong token is refused with the provider's reason, and nothing is stored.
    const refused = await other.admin.attempt('channels.saveWhatsApp', { domain: other.domain, queueId: null, phoneNumberId: PHONE_ID, accessToken: 'wrong', appSecret: 'x' });
    expect(refused.error?.code).toBe('FORBIDDEN'); // plan first
    await server.db.company.update({ where: { id: other.company.id }, data: { plan: { ...(other.company.plan as object), whatsapp: 1 } } });
    const wrong = await other.admin.attempt('channels.saveWhatsApp', { domain: other.domain, queueId: null, phoneNumberId: PHONE_ID, accessToken: 'wrong', appSecret: 'x' });
    expect(wrong.error).toMatchObject({ code: 'BAD_REQUEST', message: 'The provider refused the connection: Invalid OAuth access token.' });
    expect(await server.db.channelSetting.count({ where: { companyId: other.company.id } })).toBe(0);
  });

  it('answers the verification handshake only with the verify token', async () => {
    const { webhook, settings } = await connected();
    const ok = await fetch(`${webhook}?hub.mode=subscribe&hub.verify_token=${settings.verifyToken}&hub.challenge=1158201444`);
    expect([ok.status, await ok.text()]).toEqual([200, '1158201444']);
    const bad = await fetch(`${webhook}?hub.mode=subscribe&hub.verify_token=nope&hub.challenge=1158201444`);
    expect(bad.status).toBe(403);
    expect((await fetch(`${server.url}/webhooks/whatsapp/unknownkey123456`, { method: 'POST', body: '{}' })).status).toBe(404);
  });

  it('sends a test message through the provider', async () => {
    const { c } = await connected();
    const to = waId();
    expect(await c.admin.call('channels.testWhatsApp', { domain: c.domain, to })).toMatchObject({ sent: true });
    expect(sentTo(to)[0]).toMatchObject({ type: 'text', text: { body: `${c.company.name}: test message` } });
  });
});

describe('a WhatsApp customer', () => {
  it('opens a request with a first message, is answered through the outbox, and their statuses become receipts', async () => {
    const { c, bia, webhook } = await connected();
    const socket = await bia.open();
    const receipts = collect(socket, 'receipt:update');
    const from = waId();
    const delivery = await deliverWhatsAppWebhook(webhook, APP_SECRET, waTextMessage(PHONE_ID, { id: wamid(), from, name: 'Carla Cliente', text: 'Olá, preciso de ajuda' }));
    expect(delivery.status).toBe(200);

    const conv = await server.db.conversation.findFirstOrThrow({ where: { companyId: c.company.id, queueId: c.queue.id }, include: { participants: true } });
    expect(conv).toMatchObject({ type: 0, state: 0, inQueue: true, title: 'Carla Cliente' });
    expect(conv.protocol).toMatch(/^\d{15}$/);
    const customer = conv.participants.find((p) => p.userId === conv.creatorId)!;
    expect(customer.whatsapp).toBe(true);
    // The greeting, as on the public page, reaches the customer on WhatsApp.
    await until(() => sentTo(from).length === 1);
    expect(sentTo(from)[0]!.text!.body).toContain('Carla Cliente');

    const queue = await bia.call('service.queue', { domain: c.domain }, 'query');
    expect(queue.requests.map((r: { conversationId: string }) => r.conversationId)).toContain(conv.id);
    await bia.call('service.take', { domain: c.domain, conversationId: conv.id });
    // The desk shows the attendant how this customer came.
    expect(await bia.call('service.details', { domain: c.domain, conversationId: conv.id }, 'query')).toMatchObject({ customerChannel: 'whatsapp' });
    const reply = await bia.call('chat.send', { domain: c.domain, conversationId: conv.id, clientId: 'r1', text: 'Oi Carla, em que posso ajudar?' });
    await until(() => sentTo(from).some((m) => m.text?.body === 'Oi Carla, em que posso ajudar?'));
    const relayed = sentTo(from).find((m) => m.text?.body === 'Oi Carla, em que posso ajudar?')!;

    // delivered, then read: the customer's watermarks move and the attendant's ticks follow.
    await deliverWhatsAppWebhook(webhook, APP_SECRET, waStatus(PHONE_ID, { id: relayed.id, status: 'delivered', recipient: from }));
    await until(() => receipts.some((r) => r.userId === customer.userId && r.kind === 'delivered' && r.uptoSeq === reply.seq));
    await deliverWhatsAppWebhook(webhook, APP_SECRET, waStatus(PHONE_ID, { id: relayed.id, status: 'read', recipient: from }));
    await until(() => receipts.some((r) => r.userId === customer.userId && r.kind === 'read' && r.uptoSeq === reply.seq));
    const after = await server.db.participant.findUniqueOrThrow({ where: { conversationId_userId: { conversationId: conv.id, userId: customer.userId } } });
    expect(after.readSeq).toBeGreaterThanOrEqual(reply.seq);
    expect(await server.db.receipt.count({ where: { conversationId: conv.id, userId: customer.userId } })).toBe(2);
    // The customer answers in the same conversation.
    await deliverWhatsAppWebhook(webhook, APP_SECRET, waTextMessage(PHONE_ID, { id: wamid(), from, name: 'Carla Cliente', text: 'Meu pedido não chegou' }));
    const texts = (await server.db.message.findMany({ where: { conversationId: conv.id }, orderBy: { seq: 'asc' } })).map((m) => m.text);
    expect(texts).toContain('Meu pedido não chegou');
    expect(await server.db.conversation.count({ where: { companyId: c.company.id } })).toBe(1);

    // Conclusion: the customer is asked for a rating on WhatsApp and answers with a digit.
    await bia.call('service.conclude', { domain: c.domain, conversationId: conv.id });
    await until(() => sentTo(from).some((m) => m.text?.body.includes('Reply with a number from 1 to 5.')));
    await deliverWhatsAppWebhook(webhook, APP_SECRET, waTextMessage(PHONE_ID, { id: wamid(), from, name: 'Carla Cliente', text: '5' }));
    expect(await server.db.conversation.findUniqueOrThrow({ where: { id: conv.id } })).toMatchObject({ rating: 5, state: 9999 });
    expect(await server.db.conversation.count({ where: { companyId: c.company.id } })).toBe(1);
    // A customer reached by WhatsApp cannot be called (the spec's refusal, from a real relay participant).
    expect((await bia.attempt('calls.start', { domain: c.domain, conversationId: conv.id, type: 1 })).error?.message).toBe('Clientes WhatsApp não conseguem receber chamadas.');
  });

  it('refuses a forged signature and applies a repeated delivery once', async () => {
    const { c, webhook } = await connected();
    const from = waId();
    const payload = waTextMessage(PHONE_ID, { id: wamid(), from, name: 'Davi', text: 'Oi' });
    const forged = await deliverWhatsAppWebhook(webhook, APP_SECRET, payload, { signature: `sha256=${'0'.repeat(64)}` });
    expect(forged.status).toBe(401);
    expect((await deliverWhatsAppWebhook(webhook, 'another-secret', payload)).status).toBe(401);
    expect(await server.db.conversation.count({ where: { companyId: c.company.id } })).toBe(0);
    const results = await Promise.all([1, 2, 3].map(() => deliverWhatsAppWebhook(webhook, APP_SECRET, payload)));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    const convs = await server.db.conversation.findMany({ where: { companyId: c.company.id } });
    expect(convs).toHaveLength(1);
    expect(await server.db.message.count({ where: { conversationId: convs[0]!.id, text: 'Oi' } })).toBe(1);
  });

  it('retries a provider failure, and shows a final refusal on the message with its reason', async () => {
    const { c, bia, webhook } = await connected();
    const from = waId();
    await deliverWhatsAppWebhook(webhook, APP_SECRET, waTextMessage(PHONE_ID, { id: wamid(), from, name: 'Edu', text: 'Oi' }));
    await until(() => sentTo(from).length === 1); // greeting
    const conv = await server.db.conversation.findFirstOrThrow({ where: { companyId: c.company.id } });
    await bia.call('service.take', { domain: c.domain, conversationId: conv.id });
    await until(() => sentTo(from).length === 2); // "taken by" goes to the customer too
    const socket = await bia.open();
    const updates = collect(socket, 'message:updated');
    // Two transient failures, then it goes through.
    wa.failNext({ to: from, status: 503, message: 'Temporarily unavailable' }, { to: from, status: 500, message: 'Internal error' });
    await bia.call('chat.send', { domain: c.domain, conversationId: conv.id, clientId: 'a', text: 'Primeira' });
    await until(() => sentTo(from).some((m) => m.text?.body === 'Primeira'));
    await expect.poll(async () => (await server.db.channelOutbox.findMany({ where: { to: from, attempts: 3 } })).map((r) => r.status)).toEqual(['sent']);
    // A refusal retrying cannot fix: failed at once, with WhatsApp's reason on the message.
    wa.failNext({ to: from, status: 400, message: '(#131047) Re-engagement message', details: 'More than 24 hours have passed since the customer last replied to this number.' });
    const m = await bia.call('chat.send', { domain: c.domain, conversationId: conv.id, clientId: 'b', text: 'Segunda' });
    await until(() => updates.some((u) => u.id === m.id));
    const failed = updates.find((u) => u.id === m.id)!;
    expect(failed.data).toMatchObject({ relayFailed: { channel: 'whatsapp', reason: 'More than 24 hours have passed since the customer last replied to this number.' } });
    expect(sentTo(from).some((x) => x.text?.body === 'Segunda')).toBe(false);
  });

  it("sends files both ways: a photo from WhatsApp becomes an image message; an attendant's file goes out as media by link", async () => {
    const { c, bia, webhook } = await connected();
    const from = waId();
    const png = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(2000, 5)]);
    wa.addMedia('MEDIA1', png, 'image/png');
    await deliverWhatsAppWebhook(webhook, APP_SECRET, waImageMessage(PHONE_ID, { id: wamid(), from, name: 'Fábio', mediaId: 'MEDIA1', caption: 'A nota fiscal' }));
    const conv = await server.db.conversation.findFirstOrThrow({ where: { companyId: c.company.id } });
    const image = await server.db.message.findFirstOrThrow({ where: { conversationId: conv.id, type: 'imagem' } });
    expect(image).toMatchObject({ text: 'A nota fiscal', fileMime: 'image/png', fileSize: BigInt(png.length), authorId: conv.creatorId });
    const links = await bia.attempt('chat.fileLinks', { domain: c.domain, conversationId: conv.id, messageIds: [image.id] }, 'query');
    // Not in the conversation yet: take it first, then the stored copy is the customer's bytes.
    expect(links.error).toBeTruthy();
    await bia.call('service.take', { domain: c.domain, conversationId: conv.id });
    const { links: [link] } = await bia.call('chat.fileLinks', { domain: c.domain, conversationId: conv.id, messageIds: [image.id] }, 'query');
    expect(Buffer.from(await (await fetch(link.url)).arrayBuffer()).equals(png)).toBe(true);

    const res = await fetch(`${server.url}/uploads/chat/${c.domain}/${conv.id}?clientId=f1&name=recibo.pdf&text=Seu%20recibo`, {
      method: 'PUT',
      headers: { cookie: bia.cookie, 'content-type': 'application/pdf' },
      body: new Blob([new Uint8Array(Buffer.from('%PDF-1.4 recibo'))]),
    });
    expect(res.status).toBe(200);
    await until(() => sentTo(from).some((m) => m.type === 'document'));
    const doc = sentTo(from).find((m) => m.type === 'document')!;
    expect(doc.document).toMatchObject({ filename: 'recibo.pdf', caption: 'Seu recibo' });
    // WhatsApp fetches the file by the link we gave: it works without a cookie.
    expect(await (await fetch(doc.document!.link)).text()).toBe('%PDF-1.4 recibo');
  });
});
