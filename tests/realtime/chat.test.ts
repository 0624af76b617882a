import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessageEvent, ReceiptEvent } from '../../src/shared/chat-events';
import type { ClientToServerEvents, ServerToClientEvents } from '../../src/shared/realtime';
import { addMember, createCompany, createUser, signIn } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/server';
import { callProcedure } from '../helpers/trpc';
import { budget } from '../helpers/time';

type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
let server: TestServer;
const sockets: ClientSocket[] = [];

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await server?.close();
});

/** A signed-in person of a company, with the calls and the socket a browser tab would have. */
async function person(companyId: string, userId: string, domain: string) {
  const cookie = await signIn(server.db, userId);
  const call = async <T = any>(path: string, input: Record<string, unknown>, type: 'query' | 'mutation' = 'mutation') => {
    const res = await callProcedure(server.url, path, { domain, ...input }, { cookie, type });
    if (res.error) throw Object.assign(new Error(res.error.message), { code: res.error.code });
    return res.data as T;
  };
  const open = async () => {
    const socket: ClientSocket = connect(server.url, { transports: ['websocket'], extraHeaders: { cookie }, reconnection: false });
    sockets.push(socket);
    await new Promise((resolve) => socket.once('session:ready', resolve));
    return socket;
  };
  return { userId, companyId, call, open };
}

async function team(size = 2) {
  const owner = await createUser(server.db, { name: 'Owner' });
  const company = await createCompany(server.db, owner.id);
  const people = [await person(company.id, owner.id, company.domain)];
  for (let i = 1; i < size; i++) {
    const u = await createUser(server.db, { name: `Member ${i}` });
    await addMember(server.db, company.id, u.id);
    people.push(await person(company.id, u.id, company.domain));
  }
  return { company, people };
}

const collect = (socket: ClientSocket) => {
  const got: ChatMessageEvent[] = [];
  socket.on('message:new', (m) => got.push(m));
  return got;
};
const until = async (check: () => boolean, ms = budget(10_000)) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('sending and receiving', () => {
  it('delivers messages to both participants in order, each once', async () => {
    const { people: [a, b] } = await team();
    const { conversationId } = await a!.call('chat.startDirect', { userId: b!.userId });
    const [sa, sb] = [await a!.open(), await b!.open()];
    const [gotA, gotB] = [collect(sa), collect(sb)];
    for (let i = 1; i <= 20; i++) await a!.call('chat.send', { conversationId, clientId: `c${i}`, text: `hello ${i}` });
    await until(() => gotB.length === 20 && gotA.length === 20);
    expect(gotB.map((m) => m.seq)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(gotB.map((m) => m.text)).toEqual(Array.from({ length: 20 }, (_, i) => `hello ${i + 1}`));
  });

  it('numbers concurrent sends from several people without gaps or repeats', async () => {
    const { people } = await team(3);
    const [a, b, c] = people as [typeof people[0], typeof people[0], typeof people[0]];
    const { conversationId } = await a.call('chat.startTeam', { title: 'Support', userIds: [b.userId, c.userId] });
    await Promise.all(people.flatMap((p, i) => Array.from({ length: 15 }, (_, k) => p.call('chat.send', { conversationId, clientId: `p${i}-${k}`, text: `m${k}` }))));
    const all = await a.call<ChatMessageEvent[]>('chat.messages', { conversationId, afterSeq: 0, limit: 200 }, 'query');
    expect(all.map((m) => m.seq)).toEqual(Array.from({ length: 45 }, (_, i) => i + 1));
  });

  it('catches up a client that was away during 100 sends: all 100, once, in order', async () => {
    const { people: [a, b] } = await team();
    const { conversationId } = await a!.call('chat.startDirect', { userId: b!.userId });
    const sb = await b!.open();
    const got = collect(sb);
    await a!.call('chat.send', { conversationId, clientId: 'before', text: 'before' });
    await until(() => got.length === 1);
    const lastSeen = got[0]!.seq;
    sb.disconnect();

    for (let i = 0; i < 100; i++) await a!.call('chat.send', { conversationId, clientId: `away-${i}`, text: `while away ${i}` });

    const again = await b!.open();
    const live = collect(again);
    // What a reconnecting client does: ask for everything after the last number it saw.
    const missed = await b!.call<ChatMessageEvent[]>('chat.messages', { conversationId, afterSeq: lastSeen, limit: 200 }, 'query');
    const seen = new Map<number, ChatMessageEvent>();
    for (const m of [...missed, ...live]) seen.set(m.seq, m);
    expect([...seen.keys()].sort((x, y) => x - y)).toEqual(Array.from({ length: 100 }, (_, i) => lastSeen + 1 + i));
    expect(missed.map((m) => m.text)).toEqual(Array.from({ length: 100 }, (_, i) => `while away ${i}`));
  });

  it('lands a retried send once, also when the retries race', async () => {
    const { people: [a, b] } = await team();
    const { conversationId } = await a!.call('chat.startDirect', { userId: b!.userId });
    const first = await a!.call<ChatMessageEvent>('chat.send', { conversationId, clientId: 'retry-1', text: 'once' });
    const retry = await a!.call<ChatMessageEvent>('chat.send', { conversationId, clientId: 'retry-1', text: 'once' });
    expect(retry.id).toBe(first.id);
    const raced = await Promise.all(Array.from({ length: 8 }, () => a!.call<ChatMessageEvent>('chat.send', { conversationId, clientId: 'retry-2', text: 'raced' })));
    expect(new Set(raced.map((m) => m.id)).size).toBe(1);
    expect(await server.db.message.count({ where: { conversationId } })).toBe(2);
  });
});

describe('receipts', () => {
  it('tells the author when the other side received and read, and clears the unread count', async () => {
    const { people: [a, b] } = await team();
    const { conversationId } = await a!.call('chat.startDirect', { userId: b!.userId });
    const sa = await a!.open();
    const receipts: ReceiptEvent[] = [];
    sa.on('receipt:update', (r) => receipts.push(r));
    const m = await a!.call<ChatMessageEvent>('chat.send', { conversationId, clientId: 'r1', text: 'did you see this?' });

    let recents = await b!.call<{ items: any[] }>('chat.recents', {}, 'query').then((r) => r.items);
    expect(recents.find((r) => r.conversationId === conversationId)).toMatchObject({ unread: 1, lastMessage: { text: 'did you see this?' } });

    await b!.call('chat.markDelivered', { conversationId, uptoSeq: m.seq });
    await b!.call('chat.markRead', { conversationId, uptoSeq: m.seq });
    await until(() => receipts.length === 2);
    expect(receipts).toEqual([
      { conversationId, userId: b!.userId, kind: 'delivered', uptoSeq: m.seq },
      { conversationId, userId: b!.userId, kind: 'read', uptoSeq: m.seq },
    ]);
    recents = await b!.call<{ items: any[] }>('chat.recents', {}, 'query').then((r) => r.items);
    expect(recents.find((r) => r.conversationId === conversationId)).toMatchObject({ unread: 0 });
    // Watermarks never go back.
    expect(await b!.call('chat.markRead', { conversationId, uptoSeq: 1 })).toMatchObject({ moved: false });
  });
});

describe('rules', () => {
  it("refuses a chat with yourself with the spec's text", async () => {
    const { people: [a] } = await team();
    await expect(a!.call('chat.startDirect', { userId: a!.userId })).rejects.toThrow('Você não pode iniciar um evento com você mesmo');
  });

  it('offers the open one-to-one chat back unless asked to create another', async () => {
    const { people: [a, b] } = await team();
    const first = await a!.call('chat.startDirect', { userId: b!.userId });
    expect(await a!.call('chat.startDirect', { userId: b!.userId })).toEqual({ conversationId: first.conversationId, existing: true });
    const other = await a!.call('chat.startDirect', { userId: b!.userId, force: true });
    expect(other.conversationId).not.toBe(first.conversationId);
  });

  it('refuses messages over 1500 characters, and people outside the conversation or the company', async () => {
    const { people: [a, b, c] } = await team(3);
    const { conversationId } = await a!.call('chat.startDirect', { userId: b!.userId });
    await expect(a!.call('chat.send', { conversationId, clientId: 'long', text: 'x'.repeat(1501) })).rejects.toThrow('Messages have at most 1500 characters');
    await expect(c!.call('chat.send', { conversationId, clientId: 'x', text: 'hi' })).rejects.toThrow('You are not in this conversation');
    await expect(c!.call('chat.messages', { conversationId }, 'query')).rejects.toThrow('You are not in this conversation');

    const stranger = await team();
    await expect(stranger.people[0]!.call('chat.send', { conversationId, clientId: 'x', text: 'hi' })).rejects.toThrow('Conversation not found');
    expect(await server.db.message.count({ where: { conversationId } })).toBe(0);
  });

  it('stops non-admins from sending while the company plan is blocked', async () => {
    const { company, people: [a, b] } = await team();
    const { conversationId } = await a!.call('chat.startDirect', { userId: b!.userId });
    await server.db.company.update({ where: { id: company.id }, data: { planBlocked: true } });
    await expect(b!.call('chat.send', { conversationId, clientId: 'x', text: 'hi' })).rejects.toThrow('No momento a conta da empresa está desativada');
    expect(await a!.call('chat.send', { conversationId, clientId: 'admin', text: 'admins continue' })).toMatchObject({ seq: 1 });
  });
});

describe('participants', () => {
  it('adds people, who then receive; removes one, who is told and can no longer send; re-adding clears it', async () => {
    const { people } = await team(3);
    const [a, b, c] = people as [typeof people[0], typeof people[0], typeof people[0]];
    const { conversationId } = await a.call('chat.startTeam', { title: 'Team', userIds: [b.userId] });
    const sc = await c.open();
    const updates: string[] = [];
    sc.on('conversation:updated', (u) => updates.push(u.conversationId));
    const gotC = collect(sc);

    expect(await a.call('chat.addParticipants', { conversationId, userIds: [c.userId] })).toEqual({ added: 1 });
    await until(() => updates.length === 1);
    await a.call('chat.send', { conversationId, clientId: 'to-c', text: 'welcome' });
    await until(() => gotC.length === 2);
    // The conversation says who came in, in every reader's language (kind + params).
    expect(gotC.map((m) => [m.type, m.text])).toEqual([['info', 'New participants were added: Member 2'], ['texto', 'welcome']]);
    expect(gotC[0]!.data).toEqual({ info: 'participantsAdded', params: { names: ['Member 2'] } });

    expect(await a.call('chat.removeParticipant', { conversationId, userId: c.userId })).toEqual({ removed: true });
    await until(() => updates.length === 2);
    await expect(c.call('chat.send', { conversationId, clientId: 'after', text: 'still here?' })).rejects.toThrow('You have been removed from Attendance');
    const recents = await c.call<{ items: any[] }>('chat.recents', {}, 'query').then((r) => r.items);
    expect(recents.find((r) => r.conversationId === conversationId)).toMatchObject({ removed: true });

    await a.call('chat.addParticipants', { conversationId, userIds: [c.userId] });
    // 1 added, 2 welcome, 3 removed, 4 added again.
    expect(await c.call('chat.send', { conversationId, clientId: 'back', text: 'back again' })).toMatchObject({ seq: 5 });
    const history = await a.call<ChatMessageEvent[]>('chat.messages', { conversationId, afterSeq: 0 }, 'query');
    expect(history.map((m) => m.data && (m.data as { info: string }).info)).toEqual(['participantsAdded', null, 'participantRemoved', 'participantsAdded', null]);
  });

  it('lets a participant leave, but not the responsible person, and not by removing themselves', async () => {
    const { people: [a, b] } = await team();
    const { conversationId } = await a!.call('chat.startDirect', { userId: b!.userId });
    await expect(a!.call('chat.removeParticipant', { conversationId, userId: a!.userId })).rejects.toThrow('To leave the conversation, use Leave');
    await server.db.participant.updateMany({ where: { conversationId, userId: a!.userId }, data: { responsible: true } });
    await expect(a!.call('chat.leave', { conversationId })).rejects.toThrow('Transfer the service to someone else before leaving');
    expect(await b!.call('chat.leave', { conversationId })).toEqual({ left: true });
    await expect(b!.call('chat.messages', { conversationId }, 'query')).rejects.toThrow('You have been removed from Attendance');
  });

  it('adds only active members of the same company', async () => {
    const { people: [a, b] } = await team();
    const { conversationId } = await a!.call('chat.startDirect', { userId: b!.userId });
    const stranger = await team();
    await expect(a!.call('chat.addParticipants', { conversationId, userIds: [stranger.people[0]!.userId] })).rejects.toThrow('Only active members of this company can take part');
  });
});

describe('typing', () => {
  it('reaches the other participants, not the typist or outsiders, and is ignored from non-participants', async () => {
    const { people } = await team(3);
    const [a, b, c] = people as [typeof people[0], typeof people[0], typeof people[0]];
    const { conversationId } = await a.call('chat.startDirect', { userId: b.userId });
    const [sa, sb, sc] = [await a.open(), await b.open(), await c.open()];
    const seen: Record<string, { conversationId: string; userId: string }[]> = { a: [], b: [], c: [] };
    sa.on('typing', (t) => seen.a!.push(t));
    sb.on('typing', (t) => seen.b!.push(t));
    sc.on('typing', (t) => seen.c!.push(t));

    sa.emit('typing', { conversationId });
    await until(() => seen.b!.length === 1);
    expect(seen.b).toEqual([{ conversationId, userId: a.userId }]);

    sc.emit('typing', { conversationId });
    sa.emit('typing', { conversationId: 'not-a-uuid' });
    await new Promise((r) => setTimeout(r, 200));
    expect(seen.a).toEqual([]);
    expect(seen.c).toEqual([]);
    expect(seen.b).toHaveLength(1);
  });
});
