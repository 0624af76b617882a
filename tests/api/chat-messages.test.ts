import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatContext } from '../../src/server/modules/chat/context';
import { listMessages } from '../../src/server/modules/chat/messages';
import { listRecents } from '../../src/server/modules/chat/recents';
import type { ChatMessageEvent } from '../../src/shared/chat-events';
import { collect, messagesOf, settle, team, until, type ClientSocket, type Person } from '../helpers/chat';
import { createUser, signIn } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
const sockets: ClientSocket[] = [];
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await server?.close();
});

let sent = 0;
const send = (p: Person, conversationId: string, text: string, extra: Record<string, unknown> = {}) =>
  p.call<ChatMessageEvent>('chat.send', { conversationId, clientId: `c${++sent}`, text, ...extra });

async function direct() {
  const { company, people } = await team(server, sockets, 3, ['Ana', 'Bruno', 'Carla']);
  const [a, b] = people;
  const { conversationId } = await a.call('chat.startDirect', { userId: b.userId });
  return { company, a, b, c: people[2]!, conversationId };
}

describe('editing', () => {
  it('lets the author change the text; everyone gets the message as it is now, numbered as a change', async () => {
    const { a, b, conversationId } = await direct();
    const sb = await b.open();
    const updates = collect(sb, 'message:updated');
    const m = await send(a, conversationId, 'helo');
    const before = await server.db.conversation.findUniqueOrThrow({ where: { id: conversationId } });

    const edited = await a.call<ChatMessageEvent>('chat.edit', { conversationId, messageId: m.id, text: 'hello there' });
    expect(edited).toMatchObject({ id: m.id, seq: m.seq, text: 'hello there', changeSeq: 1 });
    expect(edited.editedAt).not.toBeNull();
    await until(() => updates.length === 1);
    expect(updates[0]).toMatchObject({ id: m.id, text: 'hello there', changeSeq: 1 });
    // Usage follows the text: 'hello there' is 7 bytes longer than 'helo'.
    const after = await server.db.conversation.findUniqueOrThrow({ where: { id: conversationId } });
    expect(after.bytesMessages - before.bytesMessages).toBe(7n);
    expect(after.lastChangeSeq).toBe(1);
  });

  it("refuses someone else's message, a removed one, info messages and texts over 1500 characters", async () => {
    const { a, b, c, conversationId } = await direct();
    const m = await send(a, conversationId, 'mine');
    await expect(b.call('chat.edit', { conversationId, messageId: m.id, text: 'yours?' })).rejects.toThrow('Only the author can edit a message');
    await expect(a.call('chat.edit', { conversationId, messageId: m.id, text: 'x'.repeat(1501) })).rejects.toThrow('Messages have at most 1500 characters');
    await a.call('chat.addParticipants', { conversationId, userIds: [c.userId] });
    const [info] = await a.query<ChatMessageEvent[]>('chat.messages', { conversationId, afterSeq: m.seq });
    expect(info!.type).toBe('info');
    await expect(a.call('chat.edit', { conversationId, messageId: info!.id, text: 'rewrite history' })).rejects.toThrow('Only text messages can be edited');
    await a.call('chat.deleteMessage', { conversationId, messageId: m.id });
    await expect(a.call('chat.edit', { conversationId, messageId: m.id, text: 'back' })).rejects.toThrow('This message was removed');
    // Refusals leave no change number behind: numbers stay gapless.
    expect((await server.db.conversation.findUniqueOrThrow({ where: { id: conversationId } })).lastChangeSeq).toBe(1);
  });
});

describe('removing', () => {
  it('turns the message into removida for everyone: text gone, in the list, the push and the recents', async () => {
    const { a, b, conversationId } = await direct();
    const sb = await b.open();
    const updates = collect(sb, 'message:updated');
    const m = await send(a, conversationId, 'oops, wrong chat');
    const removed = await a.call<ChatMessageEvent>('chat.deleteMessage', { conversationId, messageId: m.id });
    expect(removed).toMatchObject({ id: m.id, type: 'removida', removed: true, text: '', changeSeq: 1 });
    await until(() => updates.length === 1);
    expect(updates[0]).toMatchObject({ id: m.id, type: 'removida', text: '' });
    const [listed] = await b.query<ChatMessageEvent[]>('chat.messages', { conversationId });
    expect(listed).toMatchObject({ id: m.id, removed: true, text: '' });
    const row = await server.db.message.findUniqueOrThrow({ where: { id: m.id } });
    expect(row.text).toBe('');
    const { items } = await b.query('chat.recents');
    expect(items.find((r: any) => r.conversationId === conversationId).lastMessage).toMatchObject({ type: 'removida', text: '', removed: true });
    // Again: already done, not an error, no new change.
    expect(await a.call('chat.deleteMessage', { conversationId, messageId: m.id })).toMatchObject({ removed: true, changeSeq: 1 });
  });

  it("lets an administrator remove someone else's message, refuses others with the catalogue's text and a code", async () => {
    const { a, b, c, conversationId } = await direct(); // a is the company's admin
    const fromB = await send(b, conversationId, 'from b');
    const fromA = await send(a, conversationId, 'from a');
    await expect(b.call('chat.deleteMessage', { conversationId, messageId: fromA.id })).rejects.toThrow('Não foi possível remover a mensagem [M403]');
    await expect(b.call('chat.deleteMessage', { conversationId, messageId: '00000000-0000-4000-8000-000000000000' })).rejects.toThrow(
      'Não foi possível remover a mensagem [M404]',
    );
    await a.call('chat.addParticipants', { conversationId, userIds: [c.userId] });
    const info = (await a.query<ChatMessageEvent[]>('chat.messages', { conversationId })).find((m) => m.type === 'info')!;
    await expect(a.call('chat.deleteMessage', { conversationId, messageId: info.id })).rejects.toThrow('Não foi possível remover a mensagem [M405]');
    expect(await a.call('chat.deleteMessage', { conversationId, messageId: fromB.id })).toMatchObject({ removed: true });
    expect(await server.db.message.findUniqueOrThrow({ where: { id: fromA.id } })).toMatchObject({ removed: false, text: 'from a' });
  });
});

describe('replies', () => {
  it('carry a short quote of the original, which follows its removal', async () => {
    const { a, b, conversationId } = await direct();
    const long = `${'word '.repeat(40)}end`;
    const original = await send(a, conversationId, long);
    const reply = await send(b, conversationId, 'answer', { replyToId: original.id });
    expect(reply.replyTo).toMatchObject({ id: original.id, seq: original.seq, authorId: a.userId, authorName: 'Ana', type: 'texto', removed: false });
    expect(reply.replyTo!.text.length).toBe(120);
    expect(reply.replyTo!.text.endsWith('…')).toBe(true);

    await a.call('chat.deleteMessage', { conversationId, messageId: original.id });
    const listed = (await b.query<ChatMessageEvent[]>('chat.messages', { conversationId })).find((m) => m.id === reply.id)!;
    expect(listed.replyTo).toMatchObject({ id: original.id, removed: true, text: '' });
    await expect(send(b, conversationId, 'to the removed one', { replyToId: original.id })).rejects.toThrow('This message was removed');
  });

  it('only answer messages of the same conversation', async () => {
    const { a, b, c, conversationId } = await direct();
    const { conversationId: other } = await a.call('chat.startDirect', { userId: c.userId });
    const elsewhere = await send(a, other, 'in another chat');
    await expect(send(b, conversationId, 'reply', { replyToId: elsewhere.id })).rejects.toThrow('You can only reply to a message of the same conversation');
    expect(await server.db.message.count({ where: { conversationId } })).toBe(0);
  });
});

describe('forwarding', () => {
  it('copies the message into conversations I take part in, marked forwarded, once per client id', async () => {
    const { a, b, c, conversationId } = await direct();
    const { conversationId: toC } = await a.call('chat.startDirect', { userId: c.userId });
    const { conversationId: team3 } = await a.call('chat.startTeam', { title: 'All', userIds: [b.userId, c.userId] });
    const sc = await c.open();
    const got = messagesOf(sc);
    const m = await send(b, conversationId, 'worth sharing');
    const out = await a.call<ChatMessageEvent[]>('chat.forward', { conversationId, messageId: m.id, toConversationIds: [toC, team3], clientId: 'fw-1' });
    expect(out).toHaveLength(2);
    for (const f of out) expect(f).toMatchObject({ text: 'worth sharing', forwarded: true, authorId: a.userId, type: 'texto' });
    await until(() => got.length === 2);
    expect(new Set(got.map((x) => x.conversationId))).toEqual(new Set([toC, team3]));
    const again = await a.call<ChatMessageEvent[]>('chat.forward', { conversationId, messageId: m.id, toConversationIds: [toC, team3], clientId: 'fw-1' });
    expect(again.map((x) => x.id).sort()).toEqual(out.map((x) => x.id).sort());
    expect(await server.db.message.count({ where: { forwarded: true, conversationId: { in: [toC, team3] } } })).toBe(2);
  });

  it("refuses conversations I am not in (nothing written), and removed or info messages", async () => {
    const { a, b, c, conversationId } = await direct();
    const { conversationId: bc } = await b.call('chat.startDirect', { userId: c.userId });
    const m = await send(a, conversationId, 'secret');
    await expect(a.call('chat.forward', { conversationId, messageId: m.id, toConversationIds: [bc], clientId: 'x' })).rejects.toThrow(
      'You can only forward to conversations you take part in',
    );
    const stranger = await team(server, sockets, 2);
    const { conversationId: theirs } = await stranger.people[0].call('chat.startDirect', { userId: stranger.people[1].userId });
    await expect(a.call('chat.forward', { conversationId, messageId: m.id, toConversationIds: [theirs], clientId: 'y' })).rejects.toThrow(
      'You can only forward to conversations you take part in',
    );
    expect(await server.db.message.count({ where: { conversationId: { in: [bc, theirs] } } })).toBe(0);
    await a.call('chat.deleteMessage', { conversationId, messageId: m.id });
    const { conversationId: ac } = await a.call('chat.startDirect', { userId: c.userId });
    await expect(a.call('chat.forward', { conversationId, messageId: m.id, toConversationIds: [ac], clientId: 'z' })).rejects.toThrow('This message cannot be forwarded');
  });
});

describe('mentions', () => {
  it('flag the recent of who was mentioned until they read that far, and name participants only', async () => {
    const { a, b, c, conversationId } = await direct();
    const first = await send(b, conversationId, 'before');
    const m = await send(a, conversationId, '@Bruno look', { mentions: [b.userId] });
    const recentOf = async (p: Person) => (await p.query('chat.recents')).items.find((r: any) => r.conversationId === conversationId);
    expect(await recentOf(b)).toMatchObject({ mentioned: true, unread: 1 });
    expect(await recentOf(a)).toMatchObject({ mentioned: false });
    await b.call('chat.markRead', { conversationId, uptoSeq: first.seq });
    expect(await recentOf(b)).toMatchObject({ mentioned: true });
    await b.call('chat.markRead', { conversationId, uptoSeq: m.seq });
    expect(await recentOf(b)).toMatchObject({ mentioned: false, unread: 0 });
    await expect(send(a, conversationId, '@Carla?', { mentions: [c.userId] })).rejects.toThrow('Only participants of the conversation can be mentioned');
  });
});

describe('comments', () => {
  it('reach company members only: a customer in the conversation neither receives nor reads them', async () => {
    const { company, a, b, conversationId } = await direct();
    // Customers join conversations without being members (the service issue adds them this way).
    const customer = await createUser(server.db, { name: 'Customer' });
    await server.db.participant.create({ data: { conversationId, userId: customer.id } });
    const { io } = await import('socket.io-client');
    const cs: ClientSocket = io(server.url, { transports: ['websocket'], extraHeaders: { cookie: await signIn(server.db, customer.id) }, reconnection: false });
    sockets.push(cs);
    await new Promise((r) => cs.once('session:ready', r));
    const sb = await b.open();
    const [toCustomer, toB] = [messagesOf(cs), messagesOf(sb)];
    const updates = collect(cs, 'message:updated');

    const note = await send(a, conversationId, 'internal: be careful', { isComment: true });
    const reply = await send(b, conversationId, 'agreed', { replyToId: note.id });
    expect(reply.isComment).toBe(true); // a reply to a comment stays internal
    const open = await send(a, conversationId, 'Hello, how can we help?');
    await a.call('chat.edit', { conversationId, messageId: note.id, text: 'internal: careful' });
    await until(() => toB.length === 3 && toCustomer.length === 1);
    await settle();
    expect(toCustomer.map((m) => m.id)).toEqual([open.id]);
    expect(updates).toEqual([]);

    // What the customer reads, through the same service functions with their (non-member) context.
    const customerCtx = { ...server.server.deps, company, member: null, userId: customer.id } as unknown as ChatContext;
    expect((await listMessages(customerCtx, { conversationId, limit: 50 } as never)).map((m) => m.id)).toEqual([open.id]);
    const recents = await listRecents(customerCtx, { limit: 10 } as never);
    expect(recents.items[0]).toMatchObject({ conversationId, unread: 1, lastMessage: { id: open.id } });
    // Members see all three.
    expect((await b.query<ChatMessageEvent[]>('chat.messages', { conversationId })).map((m) => m.id)).toEqual([note.id, reply.id, open.id]);
  });
});

describe('tenancy', () => {
  it("gives another company's member nothing and lets them change nothing", async () => {
    const { a, conversationId } = await direct();
    const m = await send(a, conversationId, 'ours');
    const other = await team(server, sockets, 1);
    const outsider = other.people[0];
    // Their own company in the input: the conversation is not found there.
    await expect(outsider.call('chat.edit', { conversationId, messageId: m.id, text: 'theirs' })).rejects.toThrow('Conversation not found');
    await expect(outsider.call('chat.deleteMessage', { conversationId, messageId: m.id })).rejects.toThrow('Não foi possível remover a mensagem [M404]');
    await expect(outsider.call('chat.forward', { conversationId, messageId: m.id, toConversationIds: [conversationId], clientId: 'q' })).rejects.toThrow(
      'Conversation not found',
    );
    await expect(outsider.query('chat.messageDetails', { conversationId, messageId: m.id })).rejects.toThrow('Conversation not found');
    // Our company in the input: not a member.
    await expect(outsider.call('chat.edit', { domain: a.domain, conversationId, messageId: m.id, text: 'theirs' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(await server.db.message.findUniqueOrThrow({ where: { id: m.id } })).toMatchObject({ text: 'ours', removed: false, changeSeq: 0 });
  });
});

describe('the send path (raw SQL)', () => {
  it('answers and pushes a message exactly as it reads back, with its quote, mentions and watermarks; a retry returns it', async () => {
    const { a, b, conversationId } = await direct();
    const sb = await b.open();
    const arrived = collect(sb, 'message:new');
    const first = await send(a, conversationId, 'first');
    const reply = await a.call<ChatMessageEvent>('chat.send', { conversationId, clientId: 'raw-1', text: 'olá, <b>você</b>', replyToId: first.id, mentions: [b.userId] });
    const [read] = await a.query<ChatMessageEvent[]>('chat.messages', { conversationId, afterSeq: first.seq });
    expect(reply).toEqual(read);
    expect(reply).toMatchObject({ authorName: 'Ana', text: 'olá, <b>você</b>', mentions: [b.userId], replyTo: { id: first.id } });
    await until(() => arrived.length === 2);
    expect(arrived[1]).toEqual(JSON.parse(JSON.stringify(read))); // sockets carry JSON
    const again = await a.call<ChatMessageEvent>('chat.send', { conversationId, clientId: 'raw-1', text: 'olá, <b>você</b>' });
    expect(again).toEqual(read);
    const rows = await server.db.participant.findMany({ where: { conversationId } });
    expect(rows.find((p) => p.userId === a.userId)).toMatchObject({ deliveredSeq: reply.seq, readSeq: reply.seq, draft: null });
    expect(rows.find((p) => p.userId === b.userId)).toMatchObject({ mentionSeq: reply.seq });
    expect(await server.db.message.count({ where: { conversationId, clientId: 'raw-1' } })).toBe(1);
  });
});
