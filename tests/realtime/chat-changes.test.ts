import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessageEvent, ReceiptEvent } from '../../src/shared/chat-events';
import { collect, messagesOf, team, until, type ClientSocket, type Person } from '../helpers/chat';
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

let n = 0;
const send = (p: Person, conversationId: string, text: string) => p.call<ChatMessageEvent>('chat.send', { conversationId, clientId: `k${++n}`, text });

/** What a client keeps of a conversation: messages by id, and how far it has seen numbers go. */
function replica() {
  const byId = new Map<string, ChatMessageEvent>();
  let lastSeq = 0;
  let lastChangeSeq = 0;
  const put = (m: ChatMessageEvent) => {
    const had = byId.get(m.id);
    if (!had || m.changeSeq >= had.changeSeq) byId.set(m.id, m);
    lastSeq = Math.max(lastSeq, m.seq);
  };
  return {
    byId,
    get lastSeq() {
      return lastSeq;
    },
    get lastChangeSeq() {
      return lastChangeSeq;
    },
    put,
    /** A live change: taken only if it is the next number; a gap means something was missed. */
    live(m: ChatMessageEvent) {
      put(m);
      if (m.changeSeq === lastChangeSeq + 1) lastChangeSeq = m.changeSeq;
    },
    async catchUp(p: Person, conversationId: string) {
      for (const m of await p.query<ChatMessageEvent[]>('chat.messages', { conversationId, afterSeq: lastSeq, limit: 200 })) put(m);
      for (;;) {
        const page = await p.query('chat.changes', { conversationId, afterChangeSeq: lastChangeSeq, limit: 5 });
        for (const m of page.messages) put(m);
        lastChangeSeq = page.upto;
        if (page.complete) break;
      }
    },
  };
}

describe('changes to messages', () => {
  it('reach a client that was away: edits and removals it missed arrive with the catch-up, nothing lost', async () => {
    const { people } = await team(server, sockets, 2);
    const [a, b] = people;
    const { conversationId } = await a.call('chat.startDirect', { userId: b.userId });
    const early = [];
    for (let i = 0; i < 12; i++) early.push(await send(a, conversationId, `m${i}`));

    const local = replica();
    const sb = await b.open();
    sb.on('message:new', (m) => local.put(m));
    sb.on('message:updated', (m) => local.live(m));
    await local.catchUp(b, conversationId);
    await a.call('chat.edit', { conversationId, messageId: early[0]!.id, text: 'm0 edited live' });
    await until(() => local.lastChangeSeq === 1);
    sb.disconnect();

    // While b is away: 12 changes and 3 new messages.
    for (let i = 1; i <= 6; i++) await a.call('chat.edit', { conversationId, messageId: early[i]!.id, text: `m${i} edited` });
    for (let i = 7; i <= 11; i++) await a.call('chat.deleteMessage', { conversationId, messageId: early[i]!.id });
    await a.call('chat.edit', { conversationId, messageId: early[1]!.id, text: 'm1 edited twice' });
    for (let i = 0; i < 3; i++) await send(a, conversationId, `new ${i}`);

    const again = await b.open();
    again.on('message:new', (m) => local.put(m));
    again.on('message:updated', (m) => local.live(m));
    await local.catchUp(b, conversationId);

    expect(local.lastChangeSeq).toBe(13);
    const truth = await a.query<ChatMessageEvent[]>('chat.messages', { conversationId, limit: 200 });
    expect([...local.byId.values()].sort((x, y) => x.seq - y.seq).map((m) => [m.seq, m.text, m.removed])).toEqual(truth.map((m) => [m.seq, m.text, m.removed]));
    expect(local.byId.get(early[1]!.id)!.text).toBe('m1 edited twice');
  });

  it('are numbered without gaps, so a live listener can tell when it missed one', async () => {
    const { people } = await team(server, sockets, 2);
    const [a, b] = people;
    const { conversationId } = await a.call('chat.startDirect', { userId: b.userId });
    const m = await send(a, conversationId, 'v0');
    const sb = await b.open();
    const updates = collect(sb, 'message:updated');
    await Promise.all(Array.from({ length: 10 }, (_, i) => a.call('chat.edit', { conversationId, messageId: m.id, text: `v${i + 1}` })));
    await until(() => updates.length === 10);
    expect(updates.map((u) => u.changeSeq).sort((x, y) => x - y)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
    // The latest change carries the final text.
    const last = updates.reduce((x, y) => (y.changeSeq > x.changeSeq ? y : x));
    expect((await server.db.message.findUniqueOrThrow({ where: { id: m.id } })).text).toBe(last.text);
  });
});

describe('several tabs of one person', () => {
  it('see what the others do: a send in one tab appears in the others, reading in one clears the others', async () => {
    const { people } = await team(server, sockets, 2);
    const [a, b] = people;
    const { conversationId } = await a.call('chat.startDirect', { userId: b.userId });
    const [tab1, tab2] = [await b.open(), await b.open()];
    const [got1, got2] = [messagesOf(tab1), messagesOf(tab2)];
    const receipts2 = collect(tab2, 'receipt:update') as ReceiptEvent[];

    const incoming = await send(a, conversationId, 'hello b');
    await until(() => got1.length === 1 && got2.length === 1);
    await b.call('chat.markRead', { conversationId, uptoSeq: incoming.seq });
    await until(() => receipts2.some((r) => r.userId === b.userId && r.kind === 'read'));
    expect(receipts2.find((r) => r.kind === 'read')).toEqual({ conversationId, userId: b.userId, kind: 'read', uptoSeq: incoming.seq });

    const reply = await send(b, conversationId, 'from tab 1');
    await until(() => got2.some((m) => m.id === reply.id));
    expect(got1.map((m) => m.seq)).toEqual([1, 2]);
    expect(got2.map((m) => m.seq)).toEqual([1, 2]);
  });
});
