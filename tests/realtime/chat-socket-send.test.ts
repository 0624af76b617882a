/**
 * chat:send over the tab's own socket: the same service as chat.send (numbering, idempotent
 * clientId, pushes) and the same refusals in the same words, checked on every send.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_MESSAGES as M } from '../../src/shared/schemas/chat';
import type { ChatSendAck, ChatSendInput } from '../../src/shared/realtime';
import { ACCESS_MESSAGES } from '../../src/shared/domain/membership';
import { messagesOf, team, until, type ClientSocket } from '../helpers/chat';
import { callProcedure } from '../helpers/trpc';
import { startTestServer, type TestServer } from '../helpers/server';
import { budget } from '../helpers/time';

let server: TestServer;
const sockets: ClientSocket[] = [];

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await server?.close();
});

const send = (socket: ClientSocket, input: ChatSendInput): Promise<ChatSendAck> => socket.timeout(budget(10_000)).emitWithAck('chat:send', input);

async function okSend(socket: ClientSocket, input: ChatSendInput) {
  const ack = await send(socket, input);
  if (!ack.ok) throw new Error(`refused: ${ack.error}`);
  return ack.message;
}

describe('chat:send', () => {
  it('answers with the message chat.send would return and pushes it to every participant', async () => {
    const { company, people: [a, b] } = await team(server, sockets);
    const { conversationId } = await a.call('chat.startDirect', { userId: b.userId });
    const [sa, sb] = [await a.open(), await b.open()];
    const [gotA, gotB] = [messagesOf(sa), messagesOf(sb)];
    const viaSocket = await okSend(sa, { domain: company.domain, conversationId, clientId: 's1', text: 'pelo socket' });
    const viaHttp = await a.call('chat.send', { conversationId, clientId: 'h1', text: 'por HTTP' });
    expect(viaSocket).toMatchObject({ conversationId, seq: 1, clientId: 's1', authorId: a.userId, authorName: 'Owner', type: 'texto', text: 'pelo socket', removed: false });
    expect(viaHttp.seq).toBe(2);
    // Same fields either way (dates travel as ISO text over the socket, as in every push).
    expect(Object.keys(viaSocket).sort()).toEqual(Object.keys(viaHttp).sort());
    await until(() => gotA.length === 2 && gotB.length === 2);
    expect(gotB.map((m) => [m.seq, m.text])).toEqual([
      [1, 'pelo socket'],
      [2, 'por HTTP'],
    ]);
    // The author's own watermarks moved, as with chat.send.
    const me = await server.db.participant.findFirstOrThrow({ where: { conversationId, userId: a.userId } });
    expect([me.deliveredSeq, me.readSeq]).toEqual([2, 2]);
  });

  it('lands a clientId once, whichever path retries it and however many race', async () => {
    const { company, people: [a, b] } = await team(server, sockets);
    const { conversationId } = await a.call('chat.startDirect', { userId: b.userId });
    const sa = await a.open();
    const input = { domain: company.domain, conversationId, clientId: 'same', text: 'uma vez' };
    const first = await okSend(sa, input);
    const again = await okSend(sa, input);
    const overHttp = await a.call('chat.send', { conversationId, clientId: 'same', text: 'uma vez' });
    expect(again.id).toBe(first.id);
    expect(overHttp.id).toBe(first.id);
    // Racing duplicates from two tabs: one message, everyone told its id.
    const sa2 = await a.open();
    const raced = await Promise.all([okSend(sa, { ...input, clientId: 'race' }), okSend(sa2, { ...input, clientId: 'race' }), okSend(sa, { ...input, clientId: 'race' })]);
    expect(new Set(raced.map((m) => m.id)).size).toBe(1);
    expect(await server.db.message.count({ where: { conversationId } })).toBe(2);
    const conversation = await server.db.conversation.findUniqueOrThrow({ where: { id: conversationId } });
    expect(conversation.lastSeq).toBe(2);
  });

  it('refuses a member blocked while their socket stays open, on the very next send', async () => {
    const { company, people: [a, b] } = await team(server, sockets);
    const { conversationId } = await a.call('chat.startDirect', { userId: b.userId });
    const sb = await b.open();
    await okSend(sb, { domain: company.domain, conversationId, clientId: 'before', text: 'antes' });
    const member = await server.db.member.findFirstOrThrow({ where: { companyId: company.id, userId: b.userId } });
    await a.call('members.block', { memberId: member.id });
    expect(sb.connected).toBe(true);
    const ack = await send(sb, { domain: company.domain, conversationId, clientId: 'after', text: 'depois' });
    expect(ack).toEqual({ ok: false, error: ACCESS_MESSAGES.blocked, httpStatus: 403, access: 'blocked' });
    // Unblocked: the same socket sends again (nothing was cached either way).
    await server.db.member.update({ where: { id: member.id }, data: { blocked: false } });
    await okSend(sb, { domain: company.domain, conversationId, clientId: 'after', text: 'depois' });
    expect(await server.db.message.count({ where: { conversationId } })).toBe(2);
  });

  it('keeps companies apart and refuses non-participants, in chat.send’s words', async () => {
    const { company, people: [a, b, c] } = await team(server, sockets, 3);
    const { conversationId } = await a.call('chat.startDirect', { userId: b.userId });
    const elsewhere = await team(server, sockets);
    const { conversationId: theirConversation } = await elsewhere.people[0].call('chat.startDirect', { userId: elsewhere.people[1].userId });
    const [sa, sc] = [await a.open(), await c!.open()];
    // A member of the company, but not in the conversation.
    expect(await send(sc, { domain: company.domain, conversationId, clientId: 'x1', text: 'oi' })).toEqual({ ok: false, error: M.notParticipant, httpStatus: 403 });
    // Another company's conversation, named under one's own domain: it does not exist here.
    expect(await send(sa, { domain: company.domain, conversationId: theirConversation, clientId: 'x2', text: 'oi' })).toEqual({ ok: false, error: M.notFound, httpStatus: 404 });
    // ...or under its own domain, where one is no member: refused as chat.send refuses it.
    const overHttp = await callProcedure(server.url, 'chat.send', { domain: elsewhere.company.domain, conversationId: theirConversation, clientId: 'x3', text: 'oi' }, { cookie: a.cookie, type: 'mutation' });
    const overSocket = await send(sa, { domain: elsewhere.company.domain, conversationId: theirConversation, clientId: 'x3', text: 'oi' });
    expect(overSocket).toMatchObject({ ok: false, error: overHttp.error!.message, httpStatus: overHttp.error!.httpStatus });
    expect(await send(sa, { domain: 'nosuchcompany', conversationId, clientId: 'x4', text: 'oi' })).toMatchObject({ ok: false, error: 'Domain not found', httpStatus: 404 });
    expect(await server.db.message.count({ where: { conversationId: { in: [conversationId, theirConversation] } } })).toBe(0);
  });

  it('refuses bad input and an ended session with a clear answer, never a crash', async () => {
    const { company, people: [a, b] } = await team(server, sockets);
    const { conversationId } = await a.call('chat.startDirect', { userId: b.userId });
    const sa = await a.open();
    expect(await send(sa, { domain: company.domain, conversationId, clientId: 'e', text: '   ' })).toMatchObject({ ok: false, error: `text: ${M.empty}`, httpStatus: 400 });
    expect(await send(sa, { domain: company.domain, conversationId: 'not-a-uuid', clientId: 'e', text: 'oi' })).toMatchObject({ ok: false, httpStatus: 400 });
    expect(await send(sa, null as unknown as ChatSendInput)).toMatchObject({ ok: false, httpStatus: 400 });
    expect(await send(sa, { domain: company.domain, conversationId, clientId: 'e', text: 'a\u0000b' })).toMatchObject({ ok: false, httpStatus: 400 });
    // The session expired while the socket stayed open: the next send is refused.
    await server.db.session.updateMany({ where: { userId: a.userId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await send(sa, { domain: company.domain, conversationId, clientId: 'late', text: 'oi' })).toEqual({ ok: false, error: 'Sign in to continue', httpStatus: 401 });
    expect(await server.db.message.count({ where: { conversationId } })).toBe(0);
  });

  it('counts its answers in the metrics by outcome, as HTTP requests are counted', async () => {
    const { company, people: [a, b] } = await team(server, sockets);
    const { conversationId } = await a.call('chat.startDirect', { userId: b.userId });
    const sa = await a.open();
    const count = async (outcome: string) => {
      const text = await (await fetch(`${server.url}/metrics`)).text();
      return Number(text.match(new RegExp(`^socketio_event_duration_seconds_count\\{event="chat:send",outcome="${outcome}"\\} (\\d+)$`, 'm'))?.[1] ?? 0);
    };
    const [ok, refused] = [await count('ok'), await count('refused')];
    await okSend(sa, { domain: company.domain, conversationId, clientId: 'm1', text: 'contado' });
    await send(sa, { domain: company.domain, conversationId, clientId: 'm2', text: '   ' });
    expect([await count('ok'), await count('refused')]).toEqual([ok + 1, refused + 1]);
  });
});
