/**
 * Group commit of chat:send: sends that arrive while a batch is being written go together in one
 * statement (chat_append_messages), across conversations, and every guarantee of a single send
 * holds for each of them: gapless numbers, a clientId landing once (twice in one batch too), a
 * refusal answered to its own send only, in chat.send's words, and the answer only after commit.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgConnectionFields } from '../../src/server/db/url';
import { groupCommitStats, MAX_IN_FLIGHT } from '../../src/server/modules/chat/group-commit';
import { ACCESS_MESSAGES } from '../../src/shared/domain/membership';
import type { ChatSendAck, ChatSendInput } from '../../src/shared/realtime';
import { CHAT_MESSAGES as M } from '../../src/shared/schemas/chat';
import { messagesOf, team, until, type ClientSocket } from '../helpers/chat';
import { startTestServer, type TestServer } from '../helpers/server';
import { budget } from '../helpers/time';

let server: TestServer;
const sockets: ClientSocket[] = [];
const clients: pg.Client[] = [];

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  for (const c of clients) await c.end().catch(() => {});
  await server?.close();
});

const send = (socket: ClientSocket, input: ChatSendInput): Promise<ChatSendAck> => socket.timeout(budget(20_000)).emitWithAck('chat:send', input);

/** A connection of the test's own, outside the app's pool: it sees only what was committed. */
async function connection() {
  const c = new pg.Client(pgConnectionFields(server.databaseUrl));
  await c.connect();
  clients.push(c);
  return c;
}

/** Group-commit statements of this database waiting for a lock (held by the test). */
async function blockedBatches(c: pg.Client) {
  const { rows } = await c.query(
    `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%chat_append_messages(%'`,
  );
  return rows[0].n as number;
}

async function committedMessages(c: pg.Client, conversationId: string) {
  const { rows } = await c.query(`SELECT "seq", "clientId", "authorId" FROM "Message" WHERE "conversationId" = $1 ORDER BY "seq"`, [conversationId]);
  return rows as { seq: number; clientId: string; authorId: string }[];
}

/** Resolves the ack and remembers that it arrived. */
function tracked(p: Promise<ChatSendAck>) {
  const t: { done: boolean; ack?: Promise<ChatSendAck> } = { done: false };
  t.ack = p.then((a) => ((t.done = true), a));
  return t as { done: boolean; ack: Promise<ChatSendAck> };
}

describe('chat:send group commit', () => {
  it('lands many concurrent sends to several conversations with gapless numbers, each clientId once', async () => {
    const { company, people } = await team(server, sockets, 4);
    const ids = people.slice(1).map((p) => p.userId);
    const conversations = await Promise.all(
      ['Um', 'Dois', 'Três'].map(async (title) => (await people[0].call<{ conversationId: string }>('chat.startTeam', { title, userIds: ids })).conversationId),
    );
    const opened = await Promise.all(people.map((p) => p.open()));
    const received = opened.map(messagesOf);
    const sends: { socket: ClientSocket; input: ChatSendInput; author: string }[] = [];
    for (let n = 0; n < 60; n++) {
      const who = n % people.length;
      const conversationId = conversations[n % conversations.length]!;
      // Every fifth send is sent twice at once: a resend racing its original, often in one batch.
      const copies = n % 5 === 0 ? 2 : 1;
      for (let k = 0; k < copies; k++) {
        sends.push({ socket: opened[who]!, author: people[who]!.userId, input: { domain: company.domain, conversationId, clientId: `c${n}`, text: `mensagem ${n}` } });
      }
    }
    const acks = await Promise.all(sends.map((s) => send(s.socket, s.input)));
    for (const ack of acks) expect(ack.ok).toBe(true);
    const byClient = new Map<string, Set<string>>();
    acks.forEach((ack, i) => {
      if (!ack.ok) return;
      const key = `${sends[i]!.input.conversationId}/${ack.message.clientId}`;
      byClient.set(key, (byClient.get(key) ?? new Set()).add(ack.message.id));
    });
    // A resend answers with its original's message.
    for (const messageIds of byClient.values()) expect(messageIds.size).toBe(1);
    for (const conversationId of conversations) {
      const rows = await server.db.message.findMany({ where: { conversationId }, orderBy: { seq: 'asc' } });
      expect(rows.length).toBe(20);
      expect(rows.map((r) => r.seq)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      expect(new Set(rows.map((r) => r.clientId)).size).toBe(20);
      const conversation = await server.db.conversation.findUniqueOrThrow({ where: { id: conversationId } });
      expect(conversation.lastSeq).toBe(20);
    }
    // Every participant is told of each message once, and the copies that landed earlier are not pushed again.
    await until(() => received.every((got) => got.length === 60));
    for (const got of received) expect(new Set(got.map((m) => m.id)).size).toBe(60);
  });

  it('writes the sends queued behind batches in flight in one statement, answers each only after commit, and a refusal only to its own send', async () => {
    const { company, people: [a, b, c] } = await team(server, sockets, 3);
    const start = async (userIds: string[], title: string) => (await a.call<{ conversationId: string }>('chat.startTeam', { title, userIds })).conversationId;
    // As many conversations as batches are written at once, each holding up one batch.
    const held: string[] = [];
    for (let i = 0; i < MAX_IN_FLIGHT; i++) held.push(await start([b.userId], `X${i}`));
    const [z, w] = [await start([b.userId, c!.userId], 'Z'), await start([b.userId], 'W')];
    const [sa, sb, sc] = [await a.open(), await b.open(), await c!.open()];
    const input = (conversationId: string, clientId: string) => ({ domain: company.domain, conversationId, clientId, text: `para ${clientId}` });
    const watch = await connection();
    const locker = await connection();
    // The author's participant rows there, locked by a transaction of the test: each batch that
    // appends there waits for it, until every batch the app writes at once is in flight.
    await locker.query('BEGIN');
    await locker.query(`SELECT 1 FROM "Participant" WHERE "conversationId" = ANY($1::uuid[]) AND "userId" = $2 FOR UPDATE`, [held, a.userId]);
    const inFlight: ReturnType<typeof tracked>[] = [];
    for (const [i, conversationId] of held.entries()) {
      inFlight.push(tracked(send(sa, input(conversationId, `x${i}`))));
      await expect.poll(() => blockedBatches(watch), { timeout: budget(10_000) }).toBe(i + 1);
    }

    const stats = groupCommitStats(server.db);
    const queuedBefore = stats.queued;
    const batchesBefore = stats.batches;
    // Queued behind them: two members to Z (one of them twice with one clientId), and a send to W.
    const queued = [
      tracked(send(sa, input(z, 'z-a'))),
      tracked(send(sb, input(z, 'z-b'))),
      tracked(send(sb, input(z, 'z-b'))),
      tracked(send(sa, input(w, 'w-a'))),
    ];
    // A member blocked meanwhile is refused on this very send, at once, as chat.send refuses them.
    await server.db.member.updateMany({ where: { companyId: company.id, userId: c!.userId }, data: { blocked: true } });
    expect(await send(sc, input(z, 'z-c'))).toEqual({ ok: false, error: ACCESS_MESSAGES.blocked, httpStatus: 403, access: 'blocked' });
    await until(() => groupCommitStats(server.db).queued === queuedBefore + 4);
    // W is deleted while its send waits: in the batch, that send alone is refused.
    await server.db.conversation.delete({ where: { id: w } });

    // Nothing answered and nothing visible while the batches' transactions are open.
    expect([...inFlight, ...queued].map((q) => q.done)).toEqual(Array(MAX_IN_FLIGHT + 4).fill(false));
    expect(await committedMessages(watch, held[0]!)).toEqual([]);

    await locker.query('ROLLBACK');
    const answers = await Promise.all(inFlight.map((q) => q.ack));
    answers.forEach((ack, i) => expect(ack).toMatchObject({ ok: true, message: { conversationId: held[i], seq: 1, clientId: `x${i}` } }));
    const acks = await Promise.all(queued.map((q) => q.ack));
    expect(acks[0]).toMatchObject({ ok: true, message: { conversationId: z, clientId: 'z-a' } });
    expect(acks[1]).toMatchObject({ ok: true, message: { conversationId: z, clientId: 'z-b' } });
    expect(acks[2]).toEqual(acks[1]);
    expect(acks[3]).toEqual({ ok: false, error: M.notFound, httpStatus: 404 });
    // The four queued sends were one statement (the batches in flight had taken theirs).
    const after = groupCommitStats(server.db);
    expect(after.batches).toBe(batchesBefore + 1);
    expect(after.largest).toBeGreaterThanOrEqual(4);
    // Committed when answered: another connection sees them, numbered without gaps.
    expect(await committedMessages(watch, held[0]!)).toEqual([{ seq: 1, clientId: 'x0', authorId: a.userId }]);
    const inZ = await committedMessages(watch, z);
    expect(inZ.map((m) => m.seq)).toEqual([1, 2]);
    expect(inZ.map((m) => m.clientId).sort()).toEqual(['z-a', 'z-b']);
  });

  it('does not hold up the batch behind a conversation another transaction has locked', async () => {
    const { company, people: [a, b] } = await team(server, sockets);
    const q = (await a.call<{ conversationId: string }>('chat.startTeam', { title: 'Q', userIds: [b.userId] })).conversationId;
    const r = (await a.call<{ conversationId: string }>('chat.startTeam', { title: 'R', userIds: [b.userId] })).conversationId;
    const sa = await a.open();
    const gotB = messagesOf(await b.open());
    const locker = await connection();
    await locker.query('BEGIN');
    await locker.query(`SELECT 1 FROM "Conversation" WHERE "id" = $1 FOR UPDATE`, [q]);
    const toQ = tracked(send(sa, { domain: company.domain, conversationId: q, clientId: 'q1', text: 'espera' }));
    const toR = tracked(send(sa, { domain: company.domain, conversationId: r, clientId: 'r1', text: 'passa' }));
    // R lands and is answered while Q's conversation is still locked.
    expect(await toR.ack).toMatchObject({ ok: true, message: { conversationId: r, seq: 1 } });
    expect(toQ.done).toBe(false);
    await locker.query('ROLLBACK');
    expect(await toQ.ack).toMatchObject({ ok: true, message: { conversationId: q, seq: 1, clientId: 'q1' } });
    await until(() => gotB.length === 2);
  });

  it('writes chat.send over HTTP through the same batches, with the same guarantees and refusals', async () => {
    const { company, people: [a, b, c] } = await team(server, sockets, 3);
    const conversationId = (await a.call<{ conversationId: string }>('chat.startTeam', { title: 'HTTP', userIds: [b.userId] })).conversationId;
    const gotB = messagesOf(await b.open());
    const before = groupCommitStats(server.db).items;
    // Both people at once, each clientId sent twice (a retry racing its original), and a socket send among them.
    const sends = [a, b].flatMap((who) => [0, 1, 2].flatMap((n) => [0, 1].map(() => who.call('chat.send', { conversationId, clientId: `h${n}`, text: `via http ${n}` }))));
    const viaSocket = send(await a.open(), { domain: company.domain, conversationId, clientId: 's0', text: 'via socket' });
    const answers = await Promise.all(sends);
    expect(await viaSocket).toMatchObject({ ok: true });
    // Each retry answers with its original's message; 6 messages, numbered 1..7 with the socket's.
    expect(new Set(answers.map((m) => m.id)).size).toBe(6);
    const rows = await server.db.message.findMany({ where: { conversationId }, orderBy: { seq: 'asc' } });
    expect(rows.map((r) => r.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    // Every message went through a batch (a retry reading its original already landed stops before it).
    expect(groupCommitStats(server.db).items - before).toBeGreaterThanOrEqual(7);
    await until(() => gotB.length === 7);
    expect(new Set(gotB.map((m) => m.id)).size).toBe(7);
    // The procedure's own checks come first, in their words: an outsider is refused, nothing written.
    await expect(c!.call('chat.send', { conversationId, clientId: 'x', text: 'fora' })).rejects.toMatchObject({ message: M.notParticipant, httpStatus: 403 });
    await server.db.member.updateMany({ where: { companyId: b.companyId, userId: b.userId }, data: { blocked: true } });
    await expect(b.call('chat.send', { conversationId, clientId: 'y', text: 'bloqueado' })).rejects.toMatchObject({ message: ACCESS_MESSAGES.blocked });
    expect(await server.db.message.count({ where: { conversationId } })).toBe(7);
  });
});
