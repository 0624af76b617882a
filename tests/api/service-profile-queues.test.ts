/**
 * Profile.queueIds (spec Profile "queues"): an attendant whose profile lists queues sees, is
 * notified of and takes only requests of those queues; a profile without queues sees them all.
 * Requests aimed at one attendant (a transfer to them) stay theirs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_MESSAGES as M } from '../../src/shared/schemas/service';
import { anonymousVisitor, serviceCompany, type ClientSocket } from '../helpers/service';
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

const perms = { createService: true, integrateSingleService: false, serveContactUs: true, addContacts: false, editContacts: false, viewReports: false, voiceCall: true, sendAudio: true };

async function setup() {
  const c = await serviceCompany(server, sockets);
  const sales = await c.admin.call('queues.create', { domain: c.domain, name: 'Vendas', groupIds: [c.group('member')] });
  const profile = await c.admin.call('profiles.create', { domain: c.domain, name: 'Só vendas', type: 'internal', queueIds: [sales.id], permissions: perms });
  const bia = await c.attendant('Bia Vendas', { groupIds: [c.group('member')] });
  const caio = await c.attendant('Caio Geral', { groupIds: [c.group('member')] });
  const biaMember = await server.db.member.findFirstOrThrow({ where: { companyId: c.company.id, userId: bia.userId } });
  await c.admin.call('members.setProfile', { domain: c.domain, memberId: biaMember.id, profileCode: profile.code });
  const ask = async (queueKey: string, name: string) => {
    const v = await anonymousVisitor(server, sockets);
    return (await v.call('customer.request', { domain: c.domain, queueKey, name, text: 'Oi' })).conversationId as string;
  };
  const general = await ask('faleconosco', 'Geral');
  const forSales = await ask(sales.key, 'Comprador');
  return { c, sales, profile, bia, caio, general, forSales };
}

describe('a profile restricted to some queues', () => {
  it("shows its members only those queues and their requests; others see everything", async () => {
    const { c, sales, bia, caio, general, forSales } = await setup();
    const biaQueue = await bia.call('service.queue', { domain: c.domain }, 'query');
    expect(biaQueue.requests.map((r: { conversationId: string }) => r.conversationId)).toEqual([forSales]);
    expect(biaQueue.queues.map((q: { id: string }) => q.id)).toEqual([sales.id]);
    expect(biaQueue.total).toBe(1);
    expect((await bia.call('service.queue', { domain: c.domain, queueId: c.queue.id }, 'query')).requests).toEqual([]);

    const caioQueue = await caio.call('service.queue', { domain: c.domain }, 'query');
    expect(caioQueue.requests.map((r: { conversationId: string }) => r.conversationId).sort()).toEqual([general, forSales].sort());
    expect(caioQueue.queues.map((q: { id: string }) => q.id)).toEqual(expect.arrayContaining([c.queue.id, sales.id]));
  });

  it("lets its members take only from those queues: another queue's request 'Solicitação não econtrada'", async () => {
    const { c, bia, caio, general, forSales } = await setup();
    expect((await bia.attempt('service.take', { domain: c.domain, conversationId: general })).error).toMatchObject({ code: 'NOT_FOUND', message: M.requestNotFound });
    expect((await server.db.conversation.findUniqueOrThrow({ where: { id: general } })).inQueue).toBe(true);
    await bia.call('service.take', { domain: c.domain, conversationId: forSales });
    expect(await server.db.conversation.findUniqueOrThrow({ where: { id: forSales } })).toMatchObject({ inQueue: false, responsibleId: bia.userId });
    await caio.call('service.take', { domain: c.domain, conversationId: general });
  });

  it('notifies its members only of requests in those queues', async () => {
    const { c, sales, bia, caio } = await setup();
    // The notification of a new request opens its queue's screen.
    const notified = async (userId: string) =>
      (await server.db.notification.findMany({ where: { userId, companyId: c.company.id, type: 'queueRequest' }, select: { action: true } })).map((n) => n.action);
    expect(await notified(bia.userId)).toEqual([`/i/recent/queue/${sales.id}`]);
    expect((await notified(caio.userId)).sort()).toEqual([`/i/recent/queue/${c.queue.id}`, `/i/recent/queue/${sales.id}`].sort());
  });

  it('a profile whose queue list is emptied sees every queue again', async () => {
    const { c, profile, bia, general, forSales } = await setup();
    await c.admin.call('profiles.update', { domain: c.domain, profileId: profile.id, queueIds: [] });
    const biaQueue = await bia.call('service.queue', { domain: c.domain }, 'query');
    expect(biaQueue.requests.map((r: { conversationId: string }) => r.conversationId).sort()).toEqual([general, forSales].sort());
  });
});
