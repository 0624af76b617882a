/**
 * service:take over the attendant's own socket: the same takeRequest as service.take (one winner
 * per request, none lost, the "taken" line and the pushes), and the same refusals in the same
 * words and HTTP status, asked again on every take (a member blocked a moment ago is refused).
 */
import { describe, expect, it } from 'vitest';
import { groupCommitStats } from '../../src/server/modules/chat/group-commit';
import { ACCESS_MESSAGES } from '../../src/shared/domain/membership';
import { PERMISSION_KEYS } from '../../src/shared/domain/profiles';
import { PERMISSION_DENIED } from '../../src/server/modules/profiles/permissions';
import type { ServiceTakeAck, ServiceTakeInput } from '../../src/shared/realtime';
import { SERVICE_MESSAGES as M } from '../../src/shared/schemas/service';
import { createUser, signIn } from '../helpers/fixtures';
import { anonymousVisitor, personFor, record, serviceCompany, until, type ClientSocket, type Person } from '../helpers/service';
import type { TestServer } from '../helpers/server';
import { serverSuite } from '../helpers/suite';
import { callProcedure } from '../helpers/trpc';
import { budget } from '../helpers/time';

let server: TestServer;
const sockets = serverSuite((s) => (server = s));

const company = () => serviceCompany(server, sockets);
const visitor = () => anonymousVisitor(server, sockets);
const take = (socket: ClientSocket, input: ServiceTakeInput): Promise<ServiceTakeAck> => socket.timeout(budget(20_000)).emitWithAck('service:take', input);

/** service.take over HTTP, answered as the socket's refusal would be. */
async function takeOverHttp(person: Person, input: ServiceTakeInput) {
  const res = await callProcedure(server.url, 'service.take', input, { cookie: person.cookie, type: 'mutation' });
  return res.error ? { ok: false, error: res.error.message, httpStatus: res.error.httpStatus } : { ok: true, ...(res.data as object) };
}

/** Nothing of a take was written: still waiting, nobody took it, no "taken" line, nobody responsible. */
async function untouched(conversationId: string) {
  const row = await server.db.conversation.findUniqueOrThrow({ where: { id: conversationId } });
  expect(row).toMatchObject({ inQueue: true, state: 0, takenById: null, responsibleId: null });
  expect(await server.db.message.count({ where: { conversationId, data: { path: ['info'], equals: 'taken' } } })).toBe(0);
  expect(await server.db.participant.count({ where: { conversationId, responsible: true } })).toBe(0);
}

describe('service:take', () => {
  it('takes a request over the socket and acknowledges it, with the line and the pushes service.take makes', async () => {
    const c = await company();
    const bia = await c.attendant('Bia', { groupIds: [c.group('member')] });
    const watcher = await c.attendant('Caio', { groupIds: [c.group('member')] });
    const [sb, sw] = [await bia.open(), await watcher.open()];
    const removed = record(sw, 'queue:removed');
    const v = await visitor();
    const sv = await v.open();
    const vMessages = record(sv, 'message:new');
    const vUpdates = record(sv, 'conversation:updated');
    const { conversationId } = await v.call('customer.request', { domain: c.domain, queueKey: 'faleconosco', name: 'Vera' });
    const grouped = groupCommitStats(server.db).items;
    const bMessages = record(sb, 'message:new');

    expect(await take(sb, { domain: c.domain, conversationId })).toEqual({ ok: true, conversationId });
    // The request is Bia's from the answer on; the line follows it (the desk gets it as a push).
    expect(await server.db.conversation.findUniqueOrThrow({ where: { id: conversationId } })).toMatchObject({ takenById: bia.userId, inQueue: false });
    await until(() => bMessages.some((m) => m.type === 'info' && m.text === 'Bia took the service'));
    // The "taken" line went through the group commit (one statement for the lines of a burst), as the server's own line.
    expect(groupCommitStats(server.db).items).toBe(grouped + 1);
    const line = await server.db.message.findFirstOrThrow({ where: { conversationId, data: { path: ['info'], equals: 'taken' } } });
    expect(line).toMatchObject({ type: 'info', authorId: null, clientId: null, text: 'Bia took the service', data: { info: 'taken', params: { name: 'Bia' } } });
    const seqs = (await server.db.message.findMany({ where: { conversationId }, orderBy: { seq: 'asc' }, select: { seq: true } })).map((m) => m.seq);
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    const row = await server.db.conversation.findUniqueOrThrow({ where: { id: conversationId } });
    expect(row).toMatchObject({ state: 1, inQueue: false, takenById: bia.userId, responsibleId: bia.userId });
    expect((await server.db.participant.findMany({ where: { conversationId, responsible: true } })).map((p) => p.userId)).toEqual([bia.userId]);
    await until(() => removed.length === 1 && vUpdates.length >= 1 && vMessages.some((m) => m.type === 'info' && m.text === 'Bia took the service'));
    expect(removed[0]).toEqual({ domain: c.domain, conversationIds: [conversationId] });
    // Taken once: the next take, over either path, is the spec's "already taken".
    expect(await take(sw, { domain: c.domain, conversationId })).toEqual({ ok: false, error: M.alreadyTaken, httpStatus: 409 });
    expect(await takeOverHttp(watcher, { domain: c.domain, conversationId })).toEqual({ ok: false, error: M.alreadyTaken, httpStatus: 409 });
    expect(await server.db.message.count({ where: { conversationId, data: { path: ['info'], equals: 'taken' } } })).toBe(1);
  });

  it('100 attendants racing over their sockets take every request exactly once, none lost', async () => {
    const c = await company();
    const attendants = await Promise.all(
      Array.from({ length: 100 }, async (_, i) => {
        const user = await createUser(server.db, { name: `Atendente ${i}` });
        const member = await server.db.member.create({ data: { companyId: c.company.id, userId: user.id, inviteAccepted: true, joinedAt: new Date() } });
        await server.db.groupMember.create({ data: { groupId: c.group('member'), memberId: member.id } });
        return personFor(server, user.id, await signIn(server.db, user.id), sockets);
      }),
    );
    const desks = await Promise.all(attendants.map((a) => a.open()));
    const heard = record(desks[0]!, 'queue:removed');
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      const v = await visitor();
      ids.push((await v.call('customer.request', { domain: c.domain, queueKey: 'faleconosco', name: `Cliente ${i}` })).conversationId);
    }
    // Every attendant goes through the whole line, oldest first, all at once: each request is
    // fought over by all 100.
    const won = new Map<string, number[]>();
    const refusals = new Set<string>();
    await Promise.all(
      desks.map(async (desk, a) => {
        for (const conversationId of ids) {
          const ack = await take(desk, { domain: c.domain, conversationId });
          if (ack.ok) won.set(conversationId, [...(won.get(conversationId) ?? []), a]);
          else refusals.add(`${ack.httpStatus} ${ack.error}`);
        }
      }),
    );
    expect([...refusals]).toEqual([`409 ${M.alreadyTaken}`]);
    expect(ids.map((id) => won.get(id)?.length)).toEqual(ids.map(() => 1));
    const rows = await server.db.conversation.findMany({ where: { id: { in: ids } } });
    expect(rows.filter((r) => r.inQueue || r.state !== 1)).toEqual([]);
    for (const r of rows) expect(r.takenById).toBe(attendants[won.get(r.id)![0]!]!.userId);
    const responsibles = await server.db.participant.groupBy({ by: ['conversationId'], where: { conversationId: { in: ids }, responsible: true }, _count: true });
    expect(responsibles.map((r) => r._count).sort()).toEqual(ids.map(() => 1));
    // Each winner was answered before its line was written: wait for the lines, then count them.
    const takenLines = () =>
      server.db.message.groupBy({ by: ['conversationId'], where: { conversationId: { in: ids }, type: 'info', data: { path: ['info'], equals: 'taken' } }, _count: true });
    await until(async () => (await takenLines()).length === ids.length);
    expect((await takenLines()).map((l) => l._count)).toEqual(ids.map(() => 1));
    // A desk hears each request leave exactly once, in bursts merged (queue-removals.ts).
    await until(() => heard.flatMap((p) => p.conversationIds).length >= ids.length);
    expect(heard.flatMap((p) => p.conversationIds).sort()).toEqual([...ids].sort());
  }, 120_000);

  it('takes sent together are claimed together and judged one by one: every request once, in any order, refusals kept apart', async () => {
    const c = await company();
    const attendants = await Promise.all(Array.from({ length: 30 }, (_, i) => c.attendant(`Ana ${i}`, { groupIds: [c.group('member')] })));
    const desks = await Promise.all(attendants.map((a) => a.open()));
    const removed = await c.attendant('Rui', { groupIds: [c.group('member')] });
    const removedDesk = await removed.open();
    await server.db.member.update({ where: { companyId_userId: { companyId: c.company.id, userId: removed.userId } }, data: { removed: true } });
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const v = await visitor();
      ids.push((await v.call('customer.request', { domain: c.domain, queueKey: 'faleconosco', name: `Cliente ${i}` })).conversationId);
    }
    const ascending = [...ids].sort();
    const descending = [...ascending].reverse();
    // Every desk sends all its takes at once, half of them in one order and half in the other:
    // claims of several requests in one statement, several such statements at once, in opposite
    // orders, must neither deadlock nor take a request twice.
    const won = new Map<string, number>();
    const refusals = new Set<string>();
    const sent: Promise<void>[] = [];
    const refusedAcks = Promise.all(ascending.map((conversationId) => take(removedDesk, { domain: c.domain, conversationId })));
    for (const [a, desk] of desks.entries()) {
      for (const conversationId of a % 2 ? descending : ascending) {
        sent.push(
          take(desk, { domain: c.domain, conversationId }).then((ack) => {
            if (ack.ok) won.set(conversationId, (won.get(conversationId) ?? 0) + 1);
            else refusals.add(`${ack.httpStatus} ${ack.error}`);
          }),
        );
      }
      // A few desks per moment, so that the server claims them in several statements at once.
      if (a % 3 === 2) await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(sent);
    expect([...refusals]).toEqual([`409 ${M.alreadyTaken}`]);
    expect(ids.map((id) => won.get(id))).toEqual(ids.map(() => 1));
    for (const ack of await refusedAcks) expect(ack).toMatchObject({ ok: false, error: ACCESS_MESSAGES.removed, httpStatus: 403 });
    const rows = await server.db.conversation.findMany({ where: { id: { in: ids } } });
    expect(rows.filter((r) => r.inQueue || r.state !== 1 || r.takenById === removed.userId)).toEqual([]);
    const responsibles = await server.db.participant.groupBy({ by: ['conversationId'], where: { conversationId: { in: ids }, responsible: true }, _count: true });
    expect(responsibles.map((r) => r._count)).toEqual(ids.map(() => 1));
    expect(await server.db.participant.count({ where: { conversationId: { in: ids }, userId: removed.userId } })).toBe(0);
  }, 120_000);

  it('refuses what service.take refuses, in its words and status, and writes nothing', async () => {
    const c = await company();
    const other = await company();
    const outsider = await c.attendant('Nina Sem Grupo');
    const bia = await c.attendant('Bia', { groupIds: [c.group('member')] });
    const [sn, sb] = [await outsider.open(), await bia.open()];
    const v = await visitor();
    const { conversationId } = await v.call('customer.request', { domain: c.domain, queueKey: 'faleconosco', name: 'Vera' });
    const w = await visitor();
    const { conversationId: theirs } = await w.call('customer.request', { domain: other.domain, queueKey: 'faleconosco', name: 'Wanda' });

    const cases: [Person, ClientSocket, ServiceTakeInput, string][] = [
      // Not in any group the queue is served by: the request does not exist for them.
      [outsider, sn, { domain: c.domain, conversationId }, M.requestNotFound],
      // Another company's request, named under one's own domain: not found here either.
      [bia, sb, { domain: c.domain, conversationId: theirs }, M.requestNotFound],
      // ...or under its own domain, where Bia is no member.
      [bia, sb, { domain: other.domain, conversationId: theirs }, ACCESS_MESSAGES.notMember],
      [bia, sb, { domain: 'nosuchcompany', conversationId }, 'Domain not found'],
    ];
    for (const [person, socket, input, text] of cases) {
      const overSocket = await take(socket, input);
      const overHttp = await takeOverHttp(person, input);
      expect(overSocket, text).toMatchObject({ ok: false, error: text });
      expect(overSocket).toMatchObject(overHttp);
    }
    // Bad input is refused as bad input, never a crash.
    expect(await take(sb, { domain: c.domain, conversationId: 'not-a-uuid' })).toMatchObject({ ok: false, httpStatus: 400 });
    expect(await take(sb, null as unknown as ServiceTakeInput)).toMatchObject({ ok: false, httpStatus: 400 });
    expect(await take(sb, { domain: c.domain, conversationId: `${conversationId}\u0000` })).toMatchObject({ ok: false, httpStatus: 400 });
    await untouched(conversationId);
    await untouched(theirs);
    expect(await server.db.participant.count({ where: { conversationId: { in: [conversationId, theirs] }, userId: { in: [outsider.userId, bia.userId] } } })).toBe(0);
  });

  it('refuses, in the claim\'s own statement, every caller the rules refuse: the same words as service.take, nothing written', async () => {
    const c = await company();
    const v = await visitor();
    const { conversationId } = await v.call('customer.request', { domain: c.domain, queueKey: 'faleconosco', name: 'Vera' });
    const t = await visitor();
    const { conversationId: ticket } = await t.call('customer.contactUs', { domain: c.domain, values: { name: 'Tina', email: 'tina@example.test', message: 'Olá' } });
    await server.db.profile.create({ data: { companyId: c.company.id, code: 'P01', name: 'Nothing', permissions: Object.fromEntries(PERMISSION_KEYS.map((k) => [k, false])) } });
    const memberOf = (p: Person) => ({ companyId_userId: { companyId: c.company.id, userId: p.userId } });
    // Each: how the attendant (or the company, or the app) is changed, the words of the refusal, and how it is undone.
    const cases: { name: string; target?: string; change: (p: Person) => Promise<unknown>; undo?: () => Promise<unknown>; text: string; status: number }[] = [
      { name: 'removed', change: (p) => server.db.member.update({ where: memberOf(p), data: { removed: true } }), text: ACCESS_MESSAGES.removed, status: 403 },
      { name: 'invite not accepted', change: (p) => server.db.member.update({ where: memberOf(p), data: { inviteAccepted: false } }), text: ACCESS_MESSAGES.notAccepted, status: 403 },
      { name: 'signed out', change: (p) => server.db.session.deleteMany({ where: { userId: p.userId } }), text: 'Sign in to continue', status: 401 },
      { name: 'session expired', change: (p) => server.db.session.updateMany({ where: { userId: p.userId }, data: { expiresAt: new Date(Date.now() - 1000) } }), text: 'Sign in to continue', status: 401 },
      { name: 'guest expired', change: (p) => server.db.user.update({ where: { id: p.userId }, data: { guestExpiresAt: new Date(Date.now() - 1000) } }), text: 'Sign in to continue', status: 401 },
      {
        name: 'e-mail not verified',
        change: () => server.db.appConfig.upsert({ where: { id: 1 }, create: { id: 1, verifyEmail: true }, update: { verifyEmail: true } }),
        undo: () => server.db.appConfig.update({ where: { id: 1 }, data: { verifyEmail: false } }),
        text: ACCESS_MESSAGES.emailUnverified,
        status: 403,
      },
      {
        name: 'plan blocked',
        change: () => server.db.company.update({ where: { id: c.company.id }, data: { planBlocked: true } }),
        undo: () => server.db.company.update({ where: { id: c.company.id }, data: { planBlocked: false } }),
        text: M.blocked,
        status: 403,
      },
      {
        name: 'company deactivated',
        change: () => server.db.company.update({ where: { id: c.company.id }, data: { deactivated: true } }),
        undo: () => server.db.company.update({ where: { id: c.company.id }, data: { deactivated: false } }),
        text: M.blocked,
        status: 403,
      },
      { name: 'profile without serveContactUs', target: ticket, change: (p) => server.db.member.update({ where: memberOf(p), data: { profile: 'P01' } }), text: PERMISSION_DENIED, status: 403 },
    ];
    for (const k of cases) {
      const target = k.target ?? conversationId;
      const person = await c.attendant(`Bia ${k.name}`, { groupIds: [c.group('member')] });
      const socket = await person.open();
      await k.change(person);
      try {
        const overSocket = await take(socket, { domain: c.domain, conversationId: target });
        expect(overSocket, k.name).toMatchObject({ ok: false, error: k.text, httpStatus: k.status });
        expect(overSocket, k.name).toMatchObject(await takeOverHttp(person, { domain: c.domain, conversationId: target }));
      } finally {
        await k.undo?.();
      }
      await untouched(target);
    }
    // An admin of a company whose plan is blocked still serves the queue, over the socket too.
    await server.db.company.update({ where: { id: c.company.id }, data: { planBlocked: true } });
    const boss = await c.attendant('Admin Bia', { groupIds: [c.group('admin')], isAdmin: true });
    expect(await take(await boss.open(), { domain: c.domain, conversationId: ticket })).toEqual({ ok: true, conversationId: ticket });
  });

  it('refuses a member blocked while their socket stays open, on the very next take', async () => {
    const c = await company();
    const bia = await c.attendant('Bia', { groupIds: [c.group('member')] });
    const sb = await bia.open();
    const v = await visitor();
    const { conversationId: first } = await v.call('customer.request', { domain: c.domain, queueKey: 'faleconosco', name: 'Vera' });
    const w = await visitor();
    const { conversationId: second } = await w.call('customer.request', { domain: c.domain, queueKey: 'faleconosco', name: 'Wanda' });
    expect(await take(sb, { domain: c.domain, conversationId: first })).toEqual({ ok: true, conversationId: first });

    const member = await server.db.member.findFirstOrThrow({ where: { companyId: c.company.id, userId: bia.userId } });
    await c.admin.call('members.block', { domain: c.domain, memberId: member.id });
    expect(sb.connected).toBe(true);
    const refused = await take(sb, { domain: c.domain, conversationId: second });
    expect(refused).toEqual({ ok: false, error: ACCESS_MESSAGES.blocked, httpStatus: 403, access: 'blocked' });
    expect(refused).toMatchObject(await takeOverHttp(bia, { domain: c.domain, conversationId: second }));
    await untouched(second);
    // Unblocked: the same socket takes again (nothing was cached either way).
    await server.db.member.update({ where: { id: member.id }, data: { blocked: false } });
    expect(await take(sb, { domain: c.domain, conversationId: second })).toEqual({ ok: true, conversationId: second });
  });
});
