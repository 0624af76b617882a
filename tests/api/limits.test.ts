/**
 * Every limit the server enforces, each bounded and answered with a clear error: request body,
 * upload size, message length, sockets per user, events per second per socket, sign-in attempts.
 * The limits are set low through their config variables so the test reaches them quickly.
 */
import argon2 from 'argon2';
import { io as connect } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REQUEST_TOO_LARGE_MESSAGE } from '../../src/server/trpc';
import { SOCKET_TOO_FAST, SOCKET_TOO_MANY } from '../../src/shared/realtime';
import { collect, team, until, type ClientSocket } from '../helpers/chat';
import { createUser } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/server';
import { callProcedure } from '../helpers/trpc';

let server: TestServer;
const sockets: ClientSocket[] = [];
const MAX_REQUEST = 64 * 1024;
const MAX_UPLOAD = 100 * 1024;
beforeAll(async () => {
  server = await startTestServer({
    env: { MAX_REQUEST_BYTES: String(MAX_REQUEST), MAX_UPLOAD_BYTES: String(MAX_UPLOAD), MAX_SOCKETS_PER_USER: '2', SOCKET_EVENTS_PER_SECOND: '5' },
  });
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await server?.close();
});

const tab = (cookie: string) => {
  const socket: ClientSocket = connect(server.url, { transports: ['websocket'], extraHeaders: { cookie }, reconnection: false });
  sockets.push(socket);
  return new Promise<ClientSocket>((resolve, reject) => {
    socket.once('session:ready', () => resolve(socket));
    socket.once('connect_error', reject);
  });
};

describe('limits', () => {
  it('request body: over MAX_REQUEST_BYTES is a 413 with a readable JSON error, not an HTML page', async () => {
    const { people } = await team(server, sockets, 1);
    const res = await fetch(`${server.url}/trpc/chat.send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: people[0].cookie },
      body: JSON.stringify({ json: { domain: people[0].domain, text: 'x'.repeat(MAX_REQUEST + 1) } }),
    });
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    const body = await res.json();
    expect(body.error.json ?? body.error).toMatchObject({ message: REQUEST_TOO_LARGE_MESSAGE, data: { code: 'PAYLOAD_TOO_LARGE', httpStatus: 413 } });
    expect(JSON.stringify(body)).not.toMatch(/\bat .+:\d+:\d+|"stack"/);
    // Just under the limit is an ordinary request again (refused for what it says, not its size).
    const ok = await callProcedure(server.url, 'chat.send', { domain: people[0].domain, conversationId: 'nope', clientId: 'c', text: 'x'.repeat(100) }, { cookie: people[0].cookie, type: 'mutation' });
    expect(ok.status).toBe(400);
  });

  it('upload: a file over MAX_UPLOAD_BYTES is a 413 with the limit, and nothing is stored', async () => {
    const { people } = await team(server, sockets, 2);
    const [a, b] = people;
    const { conversationId } = await a.call('chat.startDirect', { userId: b.userId });
    const big = await a.upload(conversationId, { name: 'big.bin', clientId: 'up1' }, Buffer.alloc(MAX_UPLOAD + 1, 1), { type: 'application/octet-stream' });
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ code: 'fileTooLarge', maxBytes: MAX_UPLOAD, error: expect.stringMatching(/too large/) });
    expect(await server.db.message.count({ where: { conversationId, NOT: { fileName: null } } })).toBe(0);
  });

  it('message length: 1500 characters pass, 1501 are refused with the spec text', async () => {
    const { people } = await team(server, sockets, 2);
    const [a, b] = people;
    const { conversationId } = await a.call('chat.startDirect', { userId: b.userId });
    await a.call('chat.send', { conversationId, clientId: 'm1500', text: 'x'.repeat(1500) });
    await expect(a.call('chat.send', { conversationId, clientId: 'm1501', text: 'x'.repeat(1501) })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: 'text: Messages have at most 1500 characters',
    });
    expect(await server.db.message.count({ where: { conversationId, clientId: { in: ['m1500', 'm1501'] } } })).toBe(1);
  });

  it('sockets per user: the one over MAX_SOCKETS_PER_USER is refused with the reason; closing one makes room', async () => {
    const { people } = await team(server, sockets, 1);
    const cookie = people[0].cookie;
    const first = await tab(cookie);
    await tab(cookie);
    await expect(tab(cookie)).rejects.toMatchObject({ message: SOCKET_TOO_MANY, data: { code: 'TOO_MANY_CONNECTIONS', limit: 2 } });
    first.disconnect();
    // The server sees the close a moment later: retry until it has.
    let again: ClientSocket | undefined;
    for (let i = 0; i < 50 && !again; i++) again = await tab(cookie).catch(() => new Promise<undefined>((r) => setTimeout(() => r(undefined), 100)));
    expect(again?.connected).toBe(true);
  });

  it('events per second: a burst past the limit is dropped with a warning, the socket stays and works again', async () => {
    const { people } = await team(server, sockets, 2);
    const [a, b] = people;
    const { conversationId } = await a.call('chat.startDirect', { userId: b.userId });
    const sa = await tab(a.cookie);
    const sb = await tab(b.cookie);
    const warnings = collect(sa, 'limit:warning');
    const typing = collect(sb, 'typing');
    for (let i = 0; i < 60; i++) sa.emit('typing', { conversationId });
    await until(() => warnings.length >= 1);
    expect(warnings[0]).toMatchObject({ reason: SOCKET_TOO_FAST, dropped: expect.any(Number) });
    // The acknowledged kind: an event over the limit is answered with the reason, never left hanging.
    // 20 at once against a bucket of at most 10: some are refused however slow the machine is.
    const answers: unknown[] = await Promise.all(Array.from({ length: 20 }, () => sa.emitWithAck('ping')));
    expect(answers).toContainEqual({ ok: false, error: SOCKET_TOO_FAST });
    await until(() => typing.length >= 1);
    // The bucket holds 2 s worth (10) and refills at 5/s: far fewer than the 60 sent got through.
    expect(typing.length).toBeLessThan(60);
    expect(sa.connected).toBe(true);
    // After a pause the socket is served again.
    let answer: any;
    for (let i = 0; i < 100 && answer?.serverTime === undefined; i++) {
      answer = await sa.emitWithAck('ping');
      if (answer?.serverTime === undefined) await new Promise((r) => setTimeout(r, 100));
    }
    expect(answer).toMatchObject({ serverTime: expect.any(Number) });
  });

  it('sign-in attempts: failures from one address slow that address down, never the owner elsewhere', async () => {
    const email = `limits-${Date.now()}@example.test`;
    const user = await createUser(server.db, { email });
    await server.db.user.update({ where: { id: user.id }, data: { passwordHash: await argon2.hash('right-one', { type: argon2.argon2id }) } });
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 6; i++) {
      last = await callProcedure(server.url, 'auth.signIn', { email, password: 'wrong-one' }, { type: 'mutation', headers: { 'x-forwarded-for': '10.9.0.1' } });
      statuses.push(last.status);
    }
    expect(statuses.slice(0, 5).every((s) => s === 401)).toBe(true);
    expect(last!.status).toBe(429);
    expect(last!.error?.message).toMatch(/Too many attempts\. Please wait \d+ minutes? and try again\./);
    expect(last!.error?.data).toMatchObject({ retryAfterMs: expect.any(Number) });
    // The throttled address waits even with the right password; the owner from another address does not.
    const fromAttacker = await callProcedure(server.url, 'auth.signIn', { email, password: 'right-one' }, { type: 'mutation', headers: { 'x-forwarded-for': '10.9.0.1' } });
    expect(fromAttacker.status).toBe(429);
    const owner = await callProcedure(server.url, 'auth.signIn', { email, password: 'right-one' }, { type: 'mutation', headers: { 'x-forwarded-for': '10.9.0.2' } });
    expect(owner.status).toBe(200);
  });
});
