/**
 * Access ends on every channel, at once (issue 12). Two instances of the real app over the
 * PostgreSQL adapter: the admin acts through A, the person they block, remove or sign out holds
 * tabs on B (and on A). Blocked and removed members lose the tRPC procedures they reach through
 * their own participation, the company's socket room, the company's messages and their live call;
 * ending a session (sign-out, revocation, password reset) closes its sockets on both instances.
 */
import { randomBytes } from 'node:crypto';
import { io as connect } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveWorkerBin } from '../../src/server/media';
import { appRouter } from '../../src/server/router';
import { ACCESS_MESSAGES } from '../../src/shared/domain/membership';
import { rooms } from '../../src/shared/realtime';
import { CallPeer, CallRequestError } from '../helpers/call-peer';
import { collect, messagesOf, settle, team, type ClientSocket } from '../helpers/chat';
import { createTestDatabase } from '../helpers/db';
import { signIn } from '../helpers/fixtures';
import { listProcedures, participantLevelViolations } from '../helpers/procedures';
import { startTestServer, type TestServer } from '../helpers/server';
import { customer, personFor, serviceCompany, until } from '../helpers/service';
import { startSmtpServer } from '../helpers/smtp';
import { budget } from '../helpers/time';
import { callProcedure } from '../helpers/trpc';

const { bin } = resolveWorkerBin(process.env.MEDIASOUP_WORKER_BIN);

let a: TestServer;
let b: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
const sockets: ClientSocket[] = [];

beforeAll(async () => {
  smtp = await startSmtpServer();
  const databaseUrl = await createTestDatabase();
  const key = `test-${randomBytes(4).toString('hex')}`;
  const env = (instance: string) => ({
    SOCKET_ADAPTER: 'postgres',
    SOCKET_ADAPTER_KEY: key,
    INSTANCE_ID: instance,
    SMTP_URL: smtp.url,
    ...(bin && { MEDIASOUP_NUM_WORKERS: '1', MEDIASOUP_WORKER_BIN: bin, RTC_LISTEN_IP: '127.0.0.1' }),
  });
  a = await startTestServer({ databaseUrl, env: env('a') });
  b = await startTestServer({ databaseUrl, env: env('b') });
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await b?.close();
  await a?.close();
  await smtp?.close();
});

/** A tab of the person with this cookie, on the given instance. */
async function tabOn(server: TestServer, cookie: string): Promise<ClientSocket> {
  const socket: ClientSocket = connect(server.url, { transports: ['websocket'], extraHeaders: { cookie }, reconnection: false, forceNew: true });
  sockets.push(socket);
  await new Promise((resolve, reject) => {
    socket.once('session:ready', resolve);
    socket.once('connect_error', reject);
  });
  return socket;
}

/** The ids of the sockets in a room, over both instances (asked of A, answered through the adapter). */
const inRoom = async (room: string) => (await a.server.io.in(room).fetchSockets()).map((s) => s.id).sort();
/** Resolves with the reason the socket was closed; fails after the budget instead of hanging. */
const disconnected = (socket: ClientSocket) =>
  new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the socket was not closed')), budget(10_000));
    socket.once('disconnect', (reason) => (clearTimeout(timer), resolve(reason)));
  });

describe('blocked or removed: access ends on every channel, on every instance', () => {
  it('every procedure reached through a conversation, call, form or recording declares the participant level (or member/admin)', () => {
    const procedures = listProcedures(appRouter);
    expect(participantLevelViolations(procedures)).toEqual([]);
    expect(procedures.filter((p) => p.level === 'participant').map((p) => p.path)).toEqual(
      expect.arrayContaining(['customer.send', 'customer.messages', 'calls.enter', 'calls.get', 'formsCustomer.form']),
    );
  });

  it('a member who is blocked is refused by every participant-level procedure, while a customer is not', async () => {
    const c = await serviceCompany(a, sockets);
    const bruno = await c.attendant('Bruno', { groupIds: [c.group('member')] });
    // Bruno asks his own company for service, as a customer would: he is its conversation's participant.
    const { conversationId } = await bruno.call('customer.request', { domain: c.domain, queueKey: 'faleconosco', name: 'Bruno', text: 'Oi' });
    await bruno.call('customer.send', { conversationId, clientId: 'before', text: 'still here' });

    const member = await a.db.member.findFirstOrThrow({ where: { companyId: c.company.id, userId: bruno.userId } });
    await c.admin.call('members.block', { domain: c.domain, memberId: member.id });

    const refused = await bruno.attempt('customer.send', { conversationId, clientId: 'after', text: 'after the block' });
    expect(refused.error).toMatchObject({ code: 'FORBIDDEN', message: ACCESS_MESSAGES.blocked, data: { access: 'blocked' } });
    // Nor can he come round as a new customer of the company that blocked him.
    expect((await bruno.attempt('customer.request', { domain: c.domain, queueKey: 'faleconosco', name: 'Bruno', text: 'de novo' })).error).toMatchObject({
      code: 'FORBIDDEN',
      data: { access: 'blocked' },
    });
    const onB = personFor(b, bruno.userId, bruno.cookie, sockets);
    expect((await onB.attempt('customer.messages', { conversationId }, 'query')).error).toMatchObject({ code: 'FORBIDDEN', data: { access: 'blocked' } });

    // Every participant-level procedure reached by a conversation or a call of this company
    // refuses him before anything else (the level asks, not each service).
    const call = await a.db.call.create({ data: { companyId: c.company.id, conversationId, type: 1, linkKey: randomBytes(8).toString('hex'), hostInstance: 'a' } });
    const reached = listProcedures(appRouter).filter((p) => p.level === 'participant' && (p.inputKeys.includes('conversationId') || p.inputKeys.includes('callId')));
    expect(reached.length).toBeGreaterThan(20);
    for (const p of reached) {
      const input = { conversationId, callId: call.id, userId: bruno.userId, userIds: [bruno.userId], command: 'mute', on: true, clientId: 'x', text: 'x', uptoSeq: 1, stars: 5, accept: true };
      const res = await callProcedure(b.url, p.path, input, { cookie: bruno.cookie, type: p.type === 'mutation' ? 'mutation' : 'query' });
      expect({ path: p.path, code: res.error?.code, access: res.error?.data.access }).toEqual({ path: p.path, code: 'FORBIDDEN', access: 'blocked' });
    }

    // A customer of the company goes on as before.
    const carla = await customer(a, sockets, 'Carla');
    const own = await carla.call('customer.request', { domain: c.domain, queueKey: 'faleconosco', name: 'Carla', text: 'Olá' });
    await expect(carla.call('customer.send', { conversationId: own.conversationId, clientId: 'c1', text: 'ok' })).resolves.toBeDefined();

    // Removed is refused the same way; unblocked (then removed) shows it is the state that decides.
    await c.admin.call('members.unblock', { domain: c.domain, memberId: member.id });
    await expect(bruno.call('customer.send', { conversationId, clientId: 'unblocked', text: 'back' })).resolves.toBeDefined();
    await c.admin.call('members.remove', { domain: c.domain, memberId: member.id });
    expect((await bruno.attempt('customer.send', { conversationId, clientId: 'removed', text: 'x' })).error).toMatchObject({
      code: 'FORBIDDEN',
      data: { access: 'removed' },
    });
  });

  it("blocking through A takes the person's tabs on B out of the company's room, tells them, and stops the company's messages", async () => {
    const { company, people } = await team(a, sockets, 3, ['Ana', 'Bruno', 'Celia']);
    const [ana, bruno, celia] = people;
    const { conversationId } = await ana.call('chat.startDirect', { userId: bruno.userId });
    await ana.call('chat.addParticipants', { conversationId, userIds: [celia.userId] });
    const brunoB = await tabOn(b, bruno.cookie);
    const brunoA = await tabOn(a, bruno.cookie);
    const told = collect(brunoB, 'access:revoked');
    const toldA = collect(brunoA, 'access:revoked');
    const brunoGot = messagesOf(brunoB);
    // The company's room holds the tabs of everyone who may act for it, on both instances.
    expect(await inRoom(rooms.company(company.id))).toEqual(expect.arrayContaining([brunoB.id, brunoA.id].sort()));

    await ana.call('chat.send', { conversationId, clientId: 'm1', text: 'antes' });
    await until(() => brunoGot.length === 1);
    // His typing reaches Ana (and is then trusted for a minute without asking the database).
    const anaTab = await tabOn(a, ana.cookie);
    const typingSeen = collect(anaTab, 'typing');
    brunoB.emit('typing', { conversationId });
    await until(() => typingSeen.length === 1);

    const member = await a.db.member.findFirstOrThrow({ where: { companyId: company.id, userId: bruno.userId } });
    await ana.call('members.block', { memberId: member.id });
    await until(() => told.length === 1 && toldA.length === 1);
    expect(told[0]).toEqual({ domain: company.domain, reason: 'blocked' });
    const roomNow = await inRoom(rooms.company(company.id));
    expect(roomNow).not.toContain(brunoB.id);
    expect(roomNow).not.toContain(brunoA.id);
    // ...but not a moment after the block, though the minute has not passed.
    brunoB.emit('typing', { conversationId });
    await settle();
    expect(typingSeen).toHaveLength(1);

    // The company's messages no longer reach him, on any tab; the others still get them.
    const celiaTab = messagesOf(await tabOn(b, celia.cookie));
    await ana.call('chat.send', { conversationId, clientId: 'm2', text: 'depois' });
    await until(() => celiaTab.length === 1);
    await settle();
    expect(brunoGot.map((m) => m.text)).toEqual(['antes']);

    // A new tab does not join the company's room while he is blocked; after unblocking it does.
    const later = await tabOn(b, bruno.cookie);
    expect(await inRoom(rooms.company(company.id))).not.toContain(later.id);
    await ana.call('members.unblock', { memberId: member.id });
    const again = await tabOn(b, bruno.cookie);
    expect(await inRoom(rooms.company(company.id))).toContain(again.id);
  });

  it('removing works the same way, and a removed member who asks to join again waits for approval', async () => {
    const c = await serviceCompany(a, sockets);
    const user = await a.db.user.create({ data: { name: 'Davi', email: `davi-${randomBytes(3).toString('hex')}@example.test` } });
    const davi = personFor(a, user.id, await signIn(a.db, user.id), sockets);
    expect(await davi.call('company.join', { domain: c.domain })).toMatchObject({ state: 'waiting' });
    const member = await a.db.member.findFirstOrThrow({ where: { companyId: c.company.id, userId: davi.userId } });
    await c.admin.call('members.approve', { domain: c.domain, memberId: member.id });
    const tab = await tabOn(b, davi.cookie);
    const told = collect(tab, 'access:revoked');
    expect(await inRoom(rooms.company(c.company.id))).toContain(tab.id);

    await c.admin.call('members.remove', { domain: c.domain, memberId: member.id });
    await until(() => told.length === 1);
    expect(told[0]).toEqual({ domain: c.domain, reason: 'removed' });
    expect(await inRoom(rooms.company(c.company.id))).not.toContain(tab.id);

    // Approved once is not approved for life.
    expect(await davi.call('company.join', { domain: c.domain })).toMatchObject({ state: 'waiting' });
    expect((await davi.attempt('company.current', { domain: c.domain }, 'query')).error).toMatchObject({ code: 'FORBIDDEN', data: { access: 'notAccepted' } });
  });

  it.skipIf(!bin)('a blocked member is dropped from the live call at once and cannot come back', async () => {
    const { company, people } = await team(a, sockets, 2, ['Ana', 'Bruno']);
    const [ana, bruno] = people;
    const { conversationId } = await ana.call('chat.startDirect', { userId: bruno.userId });
    const { callId, hostInstance } = await ana.call('calls.start', { conversationId, type: 1 });
    expect(hostInstance).toBe('a');
    await personFor(b, bruno.userId, bruno.cookie, sockets).call('calls.accept', { callId });
    const anaPeer = await CallPeer.open(a.url, ana.cookie, ana.userId, callId);
    await anaPeer.join(callId);
    const brunoPeer = await CallPeer.open(a.url, bruno.cookie, bruno.userId, callId);
    await brunoPeer.join(callId);
    sockets.push(anaPeer.socket, brunoPeer.socket);
    await until(async () => (await a.db.callParticipant.findFirst({ where: { callId, userId: bruno.userId } }))?.connected === true);
    const dropped = disconnected(brunoPeer.socket);

    const member = await a.db.member.findFirstOrThrow({ where: { companyId: company.id, userId: bruno.userId } });
    // Blocked through B: the call's media lives on A, and the adapter carries the drop there.
    await personFor(b, ana.userId, ana.cookie, sockets).call('members.block', { domain: company.domain, memberId: member.id });
    await dropped;
    await until(async () => (await a.db.callParticipant.findFirst({ where: { callId, userId: bruno.userId } }))?.connected === false);

    const brunoApi = personFor(b, bruno.userId, bruno.cookie, sockets);
    expect((await brunoApi.attempt('calls.enter', { callId })).error).toMatchObject({ code: 'FORBIDDEN', data: { access: 'blocked' } });
    const retry = await CallPeer.open(a.url, bruno.cookie, bruno.userId, callId);
    sockets.push(retry.socket);
    await expect(retry.join(callId)).rejects.toThrow(CallRequestError);
  });
});

describe('ending a session ends its sockets, on every instance', () => {
  it('signing out closes that session’s tabs on A and B, and only those', async () => {
    const { people } = await team(a, sockets, 1, ['Ana']);
    const ana = people[0];
    const other = await signIn(a.db, ana.userId);
    const [onA, onB, otherSession] = [await tabOn(a, ana.cookie), await tabOn(b, ana.cookie), await tabOn(b, other)];
    const [endA, endB] = [disconnected(onA), disconnected(onB)];
    await ana.call('auth.signOut', {});
    expect(await endA).toBe('io server disconnect');
    expect(await endB).toBe('io server disconnect');
    await settle();
    expect(otherSession.connected).toBe(true);
  });

  it('revoking a session from another one closes its tabs on every instance', async () => {
    const { people } = await team(a, sockets, 1, ['Ana']);
    const ana = people[0];
    const phoneCookie = await signIn(a.db, ana.userId);
    const phone = await tabOn(b, phoneCookie);
    const mine = await tabOn(a, ana.cookie);
    const ended = disconnected(phone);
    const sessions: { id: string; current: boolean }[] = await ana.query('account.sessions');
    const target = sessions.find((s) => !s.current)!;
    await ana.call('account.revokeSession', { id: target.id });
    expect(await ended).toBe('io server disconnect');
    await settle();
    expect(mine.connected).toBe(true);
  });

  it('revoking a session id of someone else closes nothing', async () => {
    const { people } = await team(a, sockets, 2, ['Ana', 'Bruno']);
    const [ana, bruno] = people;
    const brunoTab = await tabOn(b, bruno.cookie);
    const [brunoSession] = await a.db.session.findMany({ where: { userId: bruno.userId } });
    await ana.call('account.revokeSession', { id: brunoSession!.id });
    await settle();
    expect(brunoTab.connected).toBe(true);
  });

  it("resetting the password closes every tab of the account's old sessions, on A and B", async () => {
    const mail = `reset-${randomBytes(4).toString('hex')}@example.test`;
    const signUp = await callProcedure(a.url, 'auth.signUp', { name: 'Eva', email: mail, password: 'Eva-reset-2026', passwordConfirm: 'Eva-reset-2026' }, { type: 'mutation' });
    expect(signUp.error).toBeUndefined();
    const cookie = signUp.cookies[0]!;
    const [onA, onB] = [await tabOn(a, cookie), await tabOn(b, cookie)];
    const [endA, endB] = [disconnected(onA), disconnected(onB)];
    await callProcedure(b.url, 'auth.requestPasswordReset', { email: mail }, { type: 'mutation' });
    const token = new URL((await smtp.next(mail)).link).searchParams.get('token')!;
    const reset = await callProcedure(b.url, 'auth.resetPassword', { token, password: 'newsecret', passwordConfirm: 'newsecret' }, { type: 'mutation' });
    expect(reset.error).toBeUndefined();
    expect(await endA).toBe('io server disconnect');
    expect(await endB).toBe('io server disconnect');
  });
});

describe("an admin changes a member's profile", () => {
  it("the member's open tabs on every instance are told at once", async () => {
    const { company, people } = await team(a, sockets, 2, ['Ana', 'Bruno']);
    const [ana, bruno] = people;
    const tab = await tabOn(b, bruno.cookie);
    const told = collect(tab, 'member:profileChanged');
    const member = await a.db.member.findFirstOrThrow({ where: { companyId: company.id, userId: bruno.userId } });
    await a.db.profile.upsert({
      where: { companyId_code: { companyId: company.id, code: 'P01' } },
      update: {},
      create: { companyId: company.id, code: 'P01', name: 'Suporte', permissions: { viewReports: true } },
    });
    await ana.call('members.setProfile', { memberId: member.id, profileCode: 'P01' });
    await until(() => told.length === 1);
    expect(told[0]).toEqual({ domain: company.domain });
  });
});

describe('a call that still rings ends with the access of its caller or callee, on every instance', () => {
  /** Ana (admin) and two members; `caller` starts a voice call in their three-person conversation through A. */
  async function ringing(caller: 'Ana' | 'Bruno') {
    const { company, people } = await team(a, sockets, 3, ['Ana', 'Bruno', 'Celia']);
    const [ana, bruno, celia] = people;
    const { conversationId } = await ana.call('chat.startDirect', { userId: bruno.userId });
    await ana.call('chat.addParticipants', { conversationId, userIds: [celia.userId] });
    // Each person's ringing tab: Bruno's and Celia's on B, Ana's on A.
    const tabs = { Ana: await tabOn(a, ana.cookie), Bruno: await tabOn(b, bruno.cookie), Celia: await tabOn(b, celia.cookie) };
    const signals = { Ana: collect(tabs.Ana, 'call:signal'), Bruno: collect(tabs.Bruno, 'call:signal'), Celia: collect(tabs.Celia, 'call:signal') };
    const ended = { Ana: collect(tabs.Ana, 'call:ended'), Bruno: collect(tabs.Bruno, 'call:ended'), Celia: collect(tabs.Celia, 'call:ended') };
    const by = caller === 'Ana' ? ana : bruno;
    const { callId } = await by.call('calls.start', { conversationId, type: 1 });
    const callees = (['Ana', 'Bruno', 'Celia'] as const).filter((n) => n !== caller);
    await until(() => callees.every((n) => signals[n].some((s) => s.cmd === 'create' && s.callId === callId)));
    const memberOf = async (userId: string) => (await a.db.member.findFirstOrThrow({ where: { companyId: company.id, userId } })).id;
    const rings = async () =>
      (await a.db.callParticipant.findMany({ where: { callId, calling: true }, select: { userId: true } })).map((p) => p.userId).sort();
    const call = () => a.db.call.findUniqueOrThrow({ where: { id: callId } });
    const cancelled = (n: keyof typeof signals) => signals[n].some((s) => s.cmd === 'cancel' && s.callId === callId);
    return { company, ana, bruno, celia, callId, signals, ended, memberOf, rings, call, cancelled };
  }

  it.skipIf(!bin)('a blocked caller: the call is cancelled for everyone it rings, and ends in the database', async () => {
    const r = await ringing('Bruno');
    // Blocked through B while the call was placed and rings from A.
    await personFor(b, r.ana.userId, r.ana.cookie, sockets).call('members.block', { domain: r.company.domain, memberId: await r.memberOf(r.bruno.userId) });
    await until(() => r.cancelled('Ana') && r.cancelled('Celia'));
    await until(async () => (await r.call()).concluded);
    expect(await r.call()).toMatchObject({ concluded: true, endReason: 'cancelled' });
    expect(await r.rings()).toEqual([]);
    // A tab opened later does not ring either.
    expect(await r.celia.query('calls.incoming')).toEqual([]);
  });

  it.skipIf(!bin)('a blocked caller already in the call screen: the rings stop and the call ends once', async () => {
    const r = await ringing('Bruno');
    // His media is up on A while the others ring: the block closes that socket too.
    const peer = await CallPeer.open(a.url, r.bruno.cookie, r.bruno.userId, r.callId);
    sockets.push(peer.socket);
    await peer.join(r.callId);
    const dropped = disconnected(peer.socket);
    await personFor(b, r.ana.userId, r.ana.cookie, sockets).call('members.block', { domain: r.company.domain, memberId: await r.memberOf(r.bruno.userId) });
    await dropped;
    await until(() => r.cancelled('Ana') && r.cancelled('Celia'));
    await until(async () => (await r.call()).concluded);
    expect(await r.call()).toMatchObject({ concluded: true, endReason: 'cancelled' });
    expect(await r.rings()).toEqual([]);
    await settle();
    // Ended once: one 'call:ended' per tab that was rung.
    expect(r.ended.Celia.filter((e) => e.callId === r.callId)).toHaveLength(1);
  });

  it.skipIf(!bin)('a removed callee stops ringing on their tabs; the others still ring, and the call ends when no ring is left', async () => {
    const r = await ringing('Ana');
    await personFor(b, r.ana.userId, r.ana.cookie, sockets).call('members.remove', { domain: r.company.domain, memberId: await r.memberOf(r.bruno.userId) });
    await until(() => r.cancelled('Bruno'));
    // The caller hears that he will not answer; Celia's ring goes on.
    await until(() => r.signals.Ana.some((s) => s.cmd === 'otherReject' && s.to.id === r.bruno.userId));
    expect(await r.rings()).toEqual([r.celia.userId]);
    expect(r.cancelled('Celia')).toBe(false);
    expect((await r.call()).concluded).toBe(false);

    await r.ana.call('members.block', { memberId: await r.memberOf(r.celia.userId) });
    await until(() => r.cancelled('Celia'));
    await until(() => r.ended.Ana.some((e) => e.callId === r.callId));
    expect(await r.call()).toMatchObject({ concluded: true, endReason: 'cancelled' });
  });

  it.skipIf(!bin)('signing out of the last session: a caller’s ringing call is cancelled, a callee stops ringing', async () => {
    const r = await ringing('Bruno');
    // Ana has a second session: signing out of one leaves her reachable, so she still rings.
    const phone = await signIn(a.db, r.ana.userId);
    await personFor(b, r.ana.userId, r.ana.cookie, sockets).call('auth.signOut', {});
    await settle();
    expect(await r.rings()).toEqual([r.ana.userId, r.celia.userId].sort());
    // Revoking the other one too (from a third, on B): no session of hers is left, her ring ends.
    const sessions = await a.db.session.findMany({ where: { userId: r.ana.userId } });
    expect(sessions).toHaveLength(1);
    await personFor(b, r.ana.userId, phone, sockets).call('auth.signOut', {});
    await until(() => r.signals.Bruno.some((s) => s.cmd === 'otherReject' && s.to.id === r.ana.userId));
    expect(await r.rings()).toEqual([r.celia.userId]);

    // The caller signs out of his only session: Celia's ring stops, the call is over.
    await personFor(b, r.bruno.userId, r.bruno.cookie, sockets).call('auth.signOut', {});
    await until(() => r.cancelled('Celia'));
    await until(async () => (await r.call()).concluded);
    expect(await r.call()).toMatchObject({ concluded: true, endReason: 'cancelled' });
  });
});
