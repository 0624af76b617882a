/**
 * Customer service, live: the queue appears and empties on every attendant's screen at once, the
 * customer follows their place in line, exactly one of 50 attendants racing over real HTTP takes a
 * request, and the queue alarm rings every 60 s (on the app's clock, moved by the test).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offsetClock } from '../../src/server/clock';
import { QUEUE_ALARM_INTERVAL_MS } from '../../src/shared/constants';
import { createUser, signIn } from '../helpers/fixtures';
import { anonymousVisitor, personFor, record, serviceCompany, until, type ClientSocket } from '../helpers/service';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
const clock = offsetClock();
const sockets: ClientSocket[] = [];
beforeAll(async () => {
  server = await startTestServer({ clock });
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await server?.close();
});

const company = () => serviceCompany(server, sockets);
const visitor = () => anonymousVisitor(server, sockets);

describe('the queue, live', () => {
  it('a new request reaches the attendants who can see it, and leaves every screen when taken', async () => {
    const c = await company();
    const { data: g } = await c.admin.attempt('groups.create', { domain: c.domain, name: 'Vendas' });
    await c.admin.call('queues.create', { domain: c.domain, name: 'Vendas', groupIds: [g.id] });
    const seller = await c.attendant('Sônia', { groupIds: [g.id] });
    const seller2 = await c.attendant('Saulo', { groupIds: [g.id] });
    const support = await c.attendant('Sérgio', { groupIds: [c.group('member')] });
    const [s1, s2, s3] = [await seller.open(), await seller2.open(), await support.open()];
    const [added1, added2, added3] = [record(s1, 'queue:added'), record(s2, 'queue:added'), record(s3, 'queue:added')];
    const [removed1, removed2, removed3] = [record(s1, 'queue:removed'), record(s2, 'queue:removed'), record(s3, 'queue:removed')];
    const notified = record(s1, 'notification:new');

    const v = await visitor();
    const sv = await v.open();
    const vUpdates = record(sv, 'conversation:updated');
    const vMessages = record(sv, 'message:new');
    const { conversationId } = await v.call('customer.request', { domain: c.domain, queueKey: 'vendas', name: 'Vítor', text: 'Quero comprar' });

    await until(() => added1.length === 1 && added2.length === 1);
    expect(added1[0]).toEqual({
      domain: c.domain,
      request: expect.objectContaining({ conversationId, customerName: 'Vítor', queueName: 'Vendas', preview: 'Quero comprar', forMe: false }),
    });
    await until(() => notified.length === 1);
    expect(notified[0]).toMatchObject({ type: 'queueRequest', title: 'New request in the queue', subtitle: 'Vítor · Vendas' });
    await until(() => vMessages.length === 2);
    expect(vMessages.map((m) => m.data && (m.data as { info: string }).info)).toEqual(['greeting', null]);

    await seller.call('service.take', { domain: c.domain, conversationId });
    await until(() => removed1.length === 1 && removed2.length === 1 && removed3.length === 1);
    expect(removed2[0]).toEqual({ domain: c.domain, conversationIds: [conversationId] });
    await until(() => vUpdates.length >= 1);
    await until(() => vMessages.length === 3);
    expect(vMessages[2]).toMatchObject({ type: 'info', text: 'Sônia took the service' });
    // The support attendant never saw it arrive.
    expect(added3).toEqual([]);
  });

  it('customers waiting behind learn their new place as the line moves', async () => {
    const c = await company();
    const bia = await c.attendant('Bia', { groupIds: [c.group('member')] });
    const [a, b, d] = [await visitor(), await visitor(), await visitor()];
    const ra = await a.call('customer.request', { domain: c.domain, queueKey: 'faleconosco', name: 'A' });
    const rb = await b.call('customer.request', { domain: c.domain, queueKey: 'faleconosco', name: 'B' });
    const rd = await d.call('customer.request', { domain: c.domain, queueKey: 'faleconosco', name: 'D' });
    expect([ra.position, rb.position, rd.position]).toEqual([1, 2, 3]);
    const [sb, sd] = [await b.open(), await d.open()];
    const [pb, pd] = [record(sb, 'service:position'), record(sd, 'service:position')];

    await bia.call('service.take', { domain: c.domain, conversationId: ra.conversationId });
    await until(() => pb.length === 1 && pd.length === 1);
    // Too little history for an estimate yet: the wait rides along as null.
    expect(pb[0]).toEqual({ conversationId: rb.conversationId, position: 1, estimatedWaitMinutes: null });
    expect(pd[0]).toEqual({ conversationId: rd.conversationId, position: 2, estimatedWaitMinutes: null });

    await b.call('customer.leaveQueue', { conversationId: rb.conversationId });
    await until(() => pd.length === 2);
    expect(pd[1]).toEqual({ conversationId: rd.conversationId, position: 1, estimatedWaitMinutes: null });
  });

  it('the estimated wait is pushed with the place, and follows the takes', async () => {
    const c = await company();
    const bia = await c.attendant('Bia', { groupIds: [c.group('member')] });
    // Two earlier requests that waited 4 and 10 minutes before being taken.
    for (const minutes of [4, 10]) {
      const v = await visitor();
      const { conversationId } = await v.call('customer.request', { domain: c.domain, queueKey: 'faleconosco', name: 'Antes' });
      await bia.call('service.take', { domain: c.domain, conversationId });
      const { takenAt } = await server.db.conversation.findUniqueOrThrow({ where: { id: conversationId } });
      await server.db.conversation.update({ where: { id: conversationId }, data: { queuedAt: new Date(takenAt!.getTime() - minutes * 60_000) } });
    }
    const [a, b] = [await visitor(), await visitor()];
    const ra = await a.call('customer.request', { domain: c.domain, queueKey: 'faleconosco', name: 'A' });
    const rb = await b.call('customer.request', { domain: c.domain, queueKey: 'faleconosco', name: 'B' });
    expect(await b.call('customer.conversation', { conversationId: rb.conversationId }, 'query')).toMatchObject({ position: 2, estimatedWaitMinutes: null });
    const pb = record(await b.open(), 'service:position');

    // A's take is the third sample (about 0 min): the median of 0, 4 and 10 is 4, pushed to B at once.
    await bia.call('service.take', { domain: c.domain, conversationId: ra.conversationId });
    await until(() => pb.length === 1);
    expect(pb[0]).toEqual({ conversationId: rb.conversationId, position: 1, estimatedWaitMinutes: 4 });
    expect(await b.call('customer.conversation', { conversationId: rb.conversationId }, 'query')).toMatchObject({ position: 1, estimatedWaitMinutes: 4 });
  });

  it('a transfer to an attendant reaches that attendant only, marked for them', async () => {
    const c = await company();
    const bia = await c.attendant('Bia', { groupIds: [c.group('member')] });
    const caio = await c.attendant('Caio', { groupIds: [c.group('member')] });
    const other = await c.attendant('Outro', { groupIds: [c.group('member')] });
    const v = await visitor();
    const { conversationId } = await v.call('customer.request', { domain: c.domain, queueKey: 'faleconosco', name: 'V' });
    await bia.call('service.take', { domain: c.domain, conversationId });
    const [sc, so] = [await caio.open(), await other.open()];
    const [gotCaio, gotOther] = [record(sc, 'queue:added'), record(so, 'queue:added')];
    const caioNotes = record(sc, 'notification:new');
    await bia.call('service.transfer', { domain: c.domain, conversationId, target: { kind: 'attendant', userId: caio.userId }, comment: 'é com você' });
    await until(() => gotCaio.length === 1 && caioNotes.length === 1);
    expect(gotCaio[0]!.request).toMatchObject({ conversationId, forMe: true });
    expect(caioNotes[0]).toMatchObject({ type: 'transfer', action: `/i/recent/queue/${c.queue.id}` });
    await new Promise((r) => setTimeout(r, 200));
    expect(gotOther).toEqual([]);
  });
});

describe('a concurrent take', () => {
  it('50 attendants race for one request over real HTTP: exactly one wins, the others get the spec text', async () => {
    const c = await company();
    const attendants = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const user = await createUser(server.db, { name: `Atendente ${i}` });
        const member = await server.db.member.create({ data: { companyId: c.company.id, userId: user.id, inviteAccepted: true, joinedAt: new Date() } });
        await server.db.groupMember.create({ data: { groupId: c.group('member'), memberId: member.id } });
        return personFor(server, user.id, await signIn(server.db, user.id), sockets);
      }),
    );
    const watcher = await attendants[0]!.open();
    const removed = record(watcher, 'queue:removed');
    const v = await visitor();
    const { conversationId } = await v.call('customer.request', { domain: c.domain, queueKey: 'faleconosco', name: 'Disputado' });

    const results = await Promise.all(attendants.map((a) => a.attempt('service.take', { domain: c.domain, conversationId })));
    const winners = results.filter((r) => !r.error);
    const losers = results.filter((r) => r.error);
    expect(winners).toHaveLength(1);
    expect(losers).toHaveLength(49);
    for (const l of losers) expect(l.error).toMatchObject({ code: 'CONFLICT', message: 'Solicitação já foi atendida' });

    const row = await server.db.conversation.findUniqueOrThrow({ where: { id: conversationId } });
    const winner = attendants[results.indexOf(winners[0]!)]!;
    expect(row).toMatchObject({ state: 1, inQueue: false, takenById: winner.userId, responsibleId: winner.userId });
    const responsible = await server.db.participant.findMany({ where: { conversationId, responsible: true } });
    expect(responsible.map((p) => p.userId)).toEqual([winner.userId]);
    expect(await server.db.message.count({ where: { conversationId, data: { path: ['info'], equals: 'taken' } } })).toBe(1);
    await until(() => removed.length === 1);
  }, 60_000);
});

describe('the queue alarm', () => {
  it('rings every 60 s for the attendants who see someone waiting, and stops when nobody waits', async () => {
    const c = await company();
    const bia = await c.attendant('Bia', { groupIds: [c.group('member')] });
    const nina = await c.attendant('Nina Sem Grupo');
    const [sb, sn] = [await bia.open(), await nina.open()];
    const [alarmsBia, alarmsNina] = [record(sb, 'queue:alarm'), record(sn, 'queue:alarm')];
    const v = await visitor();
    const { conversationId } = await v.call('customer.request', { domain: c.domain, queueKey: 'faleconosco', name: 'V' });
    const w = await visitor();
    await w.call('customer.request', { domain: c.domain, queueKey: 'faleconosco', name: 'W' });

    clock.advance(QUEUE_ALARM_INTERVAL_MS);
    await until(() => alarmsBia.length === 1);
    expect(alarmsBia[0]).toEqual({ domain: c.domain, waiting: 2 });

    // Another tick within the same minute (a second instance, say) does not ring again.
    const { ringQueueAlarms } = await import('../../src/server/modules/service/alarm');
    await ringQueueAlarms(server.server.deps);
    expect(alarmsBia).toHaveLength(1);

    await bia.call('service.take', { domain: c.domain, conversationId });
    clock.advance(QUEUE_ALARM_INTERVAL_MS);
    await until(() => alarmsBia.length === 2);
    expect(alarmsBia[1]).toEqual({ domain: c.domain, waiting: 1 });

    await w.call('customer.leaveQueue', { conversationId: (await w.call('customer.openServices', { domain: c.domain }, 'query'))[0].conversationId });
    clock.advance(QUEUE_ALARM_INTERVAL_MS);
    await new Promise((r) => setTimeout(r, 300));
    expect(alarmsBia).toHaveLength(2);
    expect(alarmsNina).toEqual([]);
  });
});
