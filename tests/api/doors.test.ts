/**
 * Doors that need a lock (issue 12): the Socket.IO handshake's Origin, JSON-only tRPC bodies,
 * batch size, per-person creation and typing/presence rates (with /healthz answering under the
 * flood), X-Forwarded-For only from listed proxies, malformed ids in paths, too-deep JSON, and
 * public health answers without file-system paths. Real server, real HTTP, real sockets.
 */
import { io as connect } from 'socket.io-client';
import superjson from 'superjson';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BATCH_TOO_LARGE_MESSAGE, JSON_ONLY_MESSAGE, JSON_TOO_DEEP_MESSAGE } from '../../src/server/doors';
import { SOCKET_ORIGIN_REFUSED } from '../../src/shared/realtime';
import { collect, settle, team, until, type ClientSocket } from '../helpers/chat';
import { createCompany, createUser, signIn } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/server';
import { budget } from '../helpers/time';
import { callProcedure } from '../helpers/trpc';

let server: TestServer;
const sockets: ClientSocket[] = [];
const SECRET_DIR = '/nonexistent-doors-test/secret-place';
const EXTRA_ORIGIN = 'https://app.example.test';

beforeAll(async () => {
  server = await startTestServer({
    env: {
      // The real default: no proxy is trusted.
      TRUST_PROXY: '',
      ALLOWED_ORIGINS: `${EXTRA_ORIGIN}, https://other.example.test`,
      TRPC_MAX_BATCH: '10',
      RATE_CONVERSATIONS_PER_HOUR: '3',
      RATE_INVITES_PER_HOUR: '2',
      RATE_JOIN_REQUESTS_PER_HOUR: '2',
      USER_TYPING_PER_SECOND: '2',
      USER_PRESENCE_PER_MINUTE: '3',
      // Calls unavailable for a reason that names a path: the public health answers must not show it.
      MEDIASOUP_NUM_WORKERS: '1',
      MEDIASOUP_WORKER_BIN: `${SECRET_DIR}/mediasoup-worker`,
    },
  });
}, budget(60_000));
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await server?.close();
});

const tab = (cookie: string, origin?: string) => {
  const socket: ClientSocket = connect(server.url, {
    transports: ['websocket'],
    extraHeaders: { cookie, ...(origin && { origin }) },
    reconnection: false,
  });
  sockets.push(socket);
  return new Promise<ClientSocket>((resolve, reject) => {
    socket.once('session:ready', () => resolve(socket));
    socket.once('connect_error', reject);
  });
};

const envelope = (input: unknown) => JSON.stringify(superjson.serialize(input));

describe('doors', () => {
  it('origin: a handshake from a page of another origin is refused; PUBLIC_URL and ALLOWED_ORIGINS connect', async () => {
    const { people } = await team(server, sockets, 1);
    const cookie = people[0].cookie;
    await expect(tab(cookie, 'http://127.0.0.1.evil.example')).rejects.toMatchObject({ message: SOCKET_ORIGIN_REFUSED, data: { code: 'ORIGIN_REFUSED' } });
    await expect(tab(cookie, 'null')).rejects.toMatchObject({ message: SOCKET_ORIGIN_REFUSED });
    expect((await tab(cookie, server.url)).connected).toBe(true);
    expect((await tab(cookie, EXTRA_ORIGIN)).connected).toBe(true);
  });

  it('content-type: a mutation sent as a form, multipart or plain text is a 415 with a sentence, and does nothing', async () => {
    const { people } = await team(server, sockets, 2);
    const [a, b] = people;
    const before = await server.db.conversation.count();
    const form = new FormData();
    form.set('domain', a.domain);
    form.set('userId', b.userId);
    const bodies: { body: BodyInit; type?: string }[] = [
      { body: form },
      { body: new URLSearchParams({ domain: a.domain, userId: b.userId }), type: 'application/x-www-form-urlencoded' },
      { body: envelope({ domain: a.domain, userId: b.userId }), type: 'text/plain' },
      { body: envelope({ domain: a.domain, userId: b.userId }), type: 'application/octet-stream' },
      { body: envelope({ domain: a.domain, userId: b.userId }), type: 'application/jsonp' },
    ];
    for (const { body, type } of bodies) {
      const res = await fetch(`${server.url}/trpc/chat.startDirect`, { method: 'POST', headers: { cookie: a.cookie, ...(type && { 'content-type': type }) }, body });
      expect(res.status, type ?? 'multipart').toBe(415);
      const json = await res.json();
      expect(json.error.json).toMatchObject({ message: JSON_ONLY_MESSAGE, data: { code: 'UNSUPPORTED_MEDIA_TYPE', httpStatus: 415 } });
    }
    expect(await server.db.conversation.count()).toBe(before);
    // The same call as JSON works (charset parameter and all).
    const ok = await fetch(`${server.url}/trpc/chat.startDirect`, {
      method: 'POST',
      headers: { cookie: a.cookie, 'content-type': 'application/json; charset=utf-8' },
      body: envelope({ domain: a.domain, userId: b.userId }),
    });
    expect(ok.status).toBe(200);
  });

  it('batch: more calls than TRPC_MAX_BATCH in one request is a 400 with a sentence; the maximum passes', async () => {
    const { people } = await team(server, sockets, 1);
    const a = people[0];
    const batch = (n: number) => {
      const paths = Array.from({ length: n }, () => 'company.current').join(',');
      const input = Object.fromEntries(Array.from({ length: n }, (_, i) => [i, superjson.serialize({ domain: a.domain })]));
      return fetch(`${server.url}/trpc/${paths}?batch=1&input=${encodeURIComponent(JSON.stringify(input))}`, { headers: { cookie: a.cookie } });
    };
    const over = await batch(11);
    expect(over.status).toBe(400);
    const body = await over.json();
    expect(JSON.stringify(body)).toContain(BATCH_TOO_LARGE_MESSAGE);
    const atMax = await batch(10);
    expect(atMax.status).toBe(200);
  });

  it('rates: conversations, invites and join requests per person and hour; the next is a 429 with the wait', async () => {
    const { people } = await team(server, sockets, 2);
    const [a, b] = people;
    for (let i = 0; i < 3; i++) await a.call('chat.startTeam', { title: `Team ${i}`, userIds: [b.userId] });
    const refused = await callProcedure(server.url, 'chat.startTeam', { domain: a.domain, title: 'One too many', userIds: [b.userId] }, { cookie: a.cookie, type: 'mutation' });
    expect(refused.status).toBe(429);
    expect(refused.error?.message).toMatch(/Please wait \d+ minutes? and try again/);
    expect(refused.error?.data).toMatchObject({ retryAfterMs: expect.any(Number) });
    // The limit is the person's, across every kind of new conversation.
    const direct = await callProcedure(server.url, 'chat.startDirect', { domain: a.domain, userId: b.userId, force: true }, { cookie: a.cookie, type: 'mutation' });
    expect(direct.status).toBe(429);
    // Another person is not affected.
    await b.call('chat.startTeam', { title: 'Mine', userIds: [a.userId] });

    const invites = [];
    for (let i = 0; i < 3; i++) {
      invites.push(await callProcedure(server.url, 'members.inviteByEmail', { domain: a.domain, email: `doors-${Date.now()}-${i}@example.test` }, { cookie: a.cookie, type: 'mutation' }));
    }
    expect(invites.map((r) => r.status)).toEqual([200, 200, 429]);

    const joiner = await createUser(server.db);
    const cookie = await signIn(server.db, joiner.id);
    const joins = [];
    for (let i = 0; i < 3; i++) {
      const owner = await createUser(server.db);
      const company = await createCompany(server.db, owner.id);
      joins.push(await callProcedure(server.url, 'company.join', { domain: company.domain }, { cookie, type: 'mutation' }));
    }
    expect(joins.slice(0, 2).every((r) => r.status < 400)).toBe(true);
    expect(joins[2]!.status).toBe(429);
  });

  it('presence and typing: limited per person over all their tabs, and /healthz keeps answering under the flood', async () => {
    const { people } = await team(server, sockets, 2);
    const [a, b] = people;
    const { conversationId } = await a.call('chat.startDirect', { userId: b.userId });
    const tabs = await Promise.all([tab(a.cookie), tab(a.cookie), tab(a.cookie), tab(a.cookie)]);
    const watcher = await tab(b.cookie);
    const typing = collect(watcher, 'typing');
    // 4 tabs x 20 typing events: each tab alone is under SOCKET_EVENTS_PER_SECOND's burst (100).
    const flood = (async () => {
      for (let i = 0; i < 20; i++) for (const t of tabs) t.emit('typing', { conversationId });
    })();
    // And a flood of creations from the same person, past the hourly rate: refused cheaply.
    const creations = Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        callProcedure(server.url, 'chat.startTeam', { domain: a.domain, title: `Flood ${i}`, userIds: [b.userId] }, { cookie: a.cookie, type: 'mutation' }).then((r) => r.status),
      ),
    );
    const health = await Promise.all(Array.from({ length: 5 }, () => fetch(`${server.url}/healthz`).then((r) => r.status)));
    await flood;
    const created = await creations;
    expect(created.filter((s) => s === 200).length).toBeLessThanOrEqual(3);
    expect(created.filter((s) => s === 429).length).toBeGreaterThanOrEqual(57);
    expect(health).toEqual([200, 200, 200, 200, 200]);
    await until(() => typing.length >= 1);
    await settle();
    // A bucket of 2 s worth (4) refilling at 2/s: nowhere near the 80 sent.
    expect(typing.length).toBeLessThan(20);

    const statuses = [];
    for (const status of ['occupied', 'beRightBack', 'online', 'occupied']) {
      statuses.push((await callProcedure(server.url, 'chat.setPresence', { status }, { cookie: a.cookie, type: 'mutation' })).status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });

  it('trust proxy: by default X-Forwarded-For is ignored; with TRUST_PROXY listing the peer it is believed', async () => {
    const anon = await callProcedure(server.url, 'auth.anonymous', {}, { type: 'mutation', headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(anon.status).toBe(200);
    const id = (anon.data as { user: { id: string } }).user.id;
    const session = await server.db.session.findFirstOrThrow({ where: { userId: id } });
    expect(session.ip).not.toBe('203.0.113.9');
    expect(session.ip).toMatch(/127\.0\.0\.1/);

    const behindProxy = await startTestServer({ env: { TRUST_PROXY: '127.0.0.1' } });
    try {
      const res = await callProcedure(behindProxy.url, 'auth.anonymous', {}, { type: 'mutation', headers: { 'x-forwarded-for': '203.0.113.9' } });
      const uid = (res.data as { user: { id: string } }).user.id;
      expect((await behindProxy.db.session.findFirstOrThrow({ where: { userId: uid } })).ip).toBe('203.0.113.9');
    } finally {
      await behindProxy.close();
    }
  }, budget(60_000));

  it('malformed ids in paths: 400 or 404, never a 500', async () => {
    const { people } = await team(server, sockets, 1);
    const a = people[0];
    // 36 hex digits or dashes looked like a uuid to the avatar route, and reached the database's cast (a 500).
    const bad = ['a'.repeat(36), '-'.repeat(36), 'x', 'not-a-uuid', "1'%20OR%20'1'='1", '%00', 'a'.repeat(300), '00000000-0000-0000-0000-00000000000g', '..%2F..%2Fetc%2Fpasswd', '%E0%A4%A'];
    const routes = (id: string): [string, string][] => [
      ['GET', `/avatars/${id}`],
      ['GET', `/companies/${id}/image`],
      ['PUT', `/uploads/company/${id}/image`],
      ['PUT', `/uploads/chat/${a.domain}/${id}?clientId=c1&name=a.txt`],
      ['PUT', `/uploads/chat/${id}/${id}?clientId=c1&name=a.txt`],
      ['PUT', `/uploads/feed/${id}?name=a.txt`],
      ['PUT', `/uploads/note/${a.domain}/${id}?name=a.txt`],
      ['PUT', `/uploads/contacts/${id}/import?name=a.csv`],
      ['PUT', `/uploads/form/${id}/${id}?name=a.txt`],
      ['PUT', `/uploads/form/00000000-0000-0000-0000-000000000000/${id}?name=a.txt`],
      ['GET', `/forms/${id}/pdf`],
      ['GET', `/files/${id}`],
      ['GET', `/files/${id}?exp=x&sig=${id}`],
    ];
    const problems: string[] = [];
    for (const id of bad) {
      for (const [method, url] of routes(id)) {
        const res = await fetch(`${server.url}${url}`, {
          method,
          headers: { cookie: a.cookie, 'content-type': 'text/plain' },
          ...(method === 'PUT' && { body: 'hello' }),
        });
        const text = await res.text();
        // A stored file's link is signed: a made-up one is a forged link (403) before it is anything else.
        const allowed = url.startsWith('/files/') ? [400, 403, 404] : [400, 404];
        if (!allowed.includes(res.status)) problems.push(`${method} ${url.slice(0, 120)} -> ${res.status} ${text.slice(0, 120)}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('deep JSON: a body or query input nested past the limit is a 400 with a sentence, not an engine message', async () => {
    const { people } = await team(server, sockets, 1);
    const a = people[0];
    for (const depth of [100, 100_000]) {
      const deep = '['.repeat(depth) + ']'.repeat(depth);
      const post = await fetch(`${server.url}/trpc/chat.send`, {
        method: 'POST',
        headers: { cookie: a.cookie, 'content-type': 'application/json' },
        body: `{"json":{"domain":"${a.domain}","text":${deep}}}`,
      });
      expect(post.status).toBe(400);
      expect((await post.json()).error.json).toMatchObject({ message: JSON_TOO_DEEP_MESSAGE, data: { code: 'BAD_REQUEST', httpStatus: 400 } });
    }
    const deep = '{"a":'.repeat(200) + '1' + '}'.repeat(200);
    const get = await fetch(`${server.url}/trpc/chat.recents?input=${encodeURIComponent(`{"json":${deep}}`)}`, { headers: { cookie: a.cookie } });
    expect(get.status).toBe(400);
    expect((await get.json()).error.json.message).toBe(JSON_TOO_DEEP_MESSAGE);
    // A string that merely contains brackets is not nesting.
    const brackets = await callProcedure(server.url, 'chat.recents', { domain: a.domain, q: '[[[[{{{{' }, { cookie: a.cookie });
    expect(brackets.status).toBe(200);
  });

  it('public health answers never show file-system paths', async () => {
    const res = await fetch(`${server.url}/healthz`);
    const text = await res.text();
    expect(JSON.parse(text).media).toMatchObject({ available: false, reason: expect.stringContaining('MEDIASOUP_WORKER_BIN') });
    expect(text).not.toContain(SECRET_DIR);
    expect(text).not.toContain(server.dataDir);
    const health = await callProcedure(server.url, 'system.health', undefined);
    expect(health.status).toBe(200);
    expect(health.raw).not.toContain(SECRET_DIR);
    expect(health.raw).not.toMatch(/node_modules|\/src\//);
  });
});
