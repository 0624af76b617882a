/**
 * The attendant's desk on the server: a 1:1 chat between colleagues is a plain chat, not a
 * customer's request; the conversation list's filters (unread, mine, open requests, colleagues,
 * one queue) and the queue counts behind the navigation badge.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_MESSAGES as S } from '../../src/shared/schemas/service';
import { startTestServer, type TestServer } from '../helpers/server';
import { anonymousVisitor, serviceCompany, type ClientSocket } from '../helpers/service';

let server: TestServer;
const sockets: ClientSocket[] = [];
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await server?.close();
});

const ids = (page: { items: { conversationId: string }[] }) => page.items.map((i) => i.conversationId).sort();

describe('the desk', () => {
  it('a chat between colleagues is not a request: no service actions, not on the public page', async () => {
    const c = await serviceCompany(server, sockets);
    const bia = await c.attendant('Bia');
    const { conversationId } = await bia.call('chat.startDirect', { domain: c.domain, userId: c.admin.userId });
    expect(await bia.call('chat.conversation', { domain: c.domain, conversationId }, 'query')).toMatchObject({ type: 0, isService: false });
    for (const [path, type] of [['service.details', 'query'], ['service.conclude', 'mutation'], ['service.setWaiting', 'mutation']] as const) {
      const res = await c.admin.attempt(path, { domain: c.domain, conversationId, ...(path === 'service.setWaiting' && { waiting: true }) }, type);
      expect(res.error, path).toMatchObject({ code: 'BAD_REQUEST', message: S.notAService });
    }
    expect(await bia.call('customer.openServices', { domain: c.domain }, 'query')).toEqual([]);
    expect((await server.db.conversation.findUniqueOrThrow({ where: { id: conversationId } })).state).not.toBe(9999);

    const visitor = await anonymousVisitor(server, sockets);
    const request = await visitor.call('customer.request', { domain: c.domain, queueKey: 'faleconosco', name: 'Vera', text: 'Help' });
    await c.admin.call('service.take', { domain: c.domain, conversationId: request.conversationId });
    expect(await c.admin.call('chat.conversation', { domain: c.domain, conversationId: request.conversationId }, 'query')).toMatchObject({ type: 0, isService: true });
    expect((await visitor.call('customer.openServices', { domain: c.domain }, 'query')).map((s: { conversationId: string }) => s.conversationId)).toEqual([request.conversationId]);
  });

  it('filters the list: unread, mine, open requests, colleagues, one queue; and counts the queues', async () => {
    const c = await serviceCompany(server, sockets);
    const bia = await c.attendant('Bia', { groupIds: [c.group('member')] });
    const second = await c.admin.call('queues.create', { domain: c.domain, name: 'Vendas', groupIds: [c.group('member'), c.group('admin')] });
    const team = await c.admin.call('chat.startTeam', { domain: c.domain, title: 'Plantão', userIds: [bia.userId] });
    const direct = await bia.call('chat.startDirect', { domain: c.domain, userId: c.admin.userId });
    await bia.call('chat.send', { domain: c.domain, conversationId: direct.conversationId, clientId: 'd1', text: 'hi' });

    const v1 = await anonymousVisitor(server, sockets);
    const r1 = await v1.call('customer.request', { domain: c.domain, queueKey: 'faleconosco', name: 'Vera', text: 'One' });
    const v2 = await anonymousVisitor(server, sockets);
    const r2 = await v2.call('customer.request', { domain: c.domain, queueKey: 'vendas', name: 'Vitor', text: 'Two' });
    const v3 = await anonymousVisitor(server, sockets);
    await v3.call('customer.request', { domain: c.domain, queueKey: 'vendas', name: 'Val', text: 'Three' });

    const counts = await bia.call('service.queueCount', { domain: c.domain }, 'query');
    expect(counts.total).toBe(3);
    expect(Object.fromEntries(counts.queues.map((q: { id: string; waiting: number }) => [q.id, q.waiting]))).toEqual({ [c.queue.id]: 1, [second.id]: 2 });

    await c.admin.call('service.take', { domain: c.domain, conversationId: r1.conversationId });
    await bia.call('service.take', { domain: c.domain, conversationId: r2.conversationId });
    expect((await bia.call('service.queueCount', { domain: c.domain }, 'query')).total).toBe(1);

    const list = (filter: string, extra: Record<string, unknown> = {}) => c.admin.call('chat.recents', { domain: c.domain, filter, ...extra }, 'query');
    expect(ids(await list('all'))).toEqual([team.conversationId, direct.conversationId, r1.conversationId].sort());
    expect(ids(await list('team'))).toEqual([team.conversationId, direct.conversationId].sort());
    expect(ids(await list('open'))).toEqual([r1.conversationId]);
    expect(ids(await list('mine'))).toEqual([r1.conversationId]);
    // Unread: the colleague's message and the request's; not the team chat she opened herself.
    expect(ids(await list('unread'))).toEqual([direct.conversationId, r1.conversationId].sort());
    expect(ids(await list('all', { queueId: c.queue.id }))).toEqual([r1.conversationId]);
    expect(ids(await list('all', { queueId: second.id }))).toEqual([]);
    // Bia's: the request she took is hers; the admin's is not.
    const bias = await bia.call('chat.recents', { domain: c.domain, filter: 'mine' }, 'query');
    expect(ids(bias)).toEqual([r2.conversationId]);

    // Concluded requests leave "mine" and "open".
    await c.admin.call('service.conclude', { domain: c.domain, conversationId: r1.conversationId });
    expect(ids(await list('open'))).toEqual([]);
    expect(ids(await list('mine'))).toEqual([]);
    // A filter is a filter, not a door: another company's queue id gives nothing.
    const other = await serviceCompany(server, sockets);
    expect(ids(await other.admin.call('chat.recents', { domain: other.domain, filter: 'all', queueId: c.queue.id }, 'query'))).toEqual([]);
  });

  it("shows the customer beside their request: contact and their other requests, never another company's", async () => {
    const c = await serviceCompany(server, sockets);
    const visitor = await anonymousVisitor(server, sockets);
    const first = await visitor.call('customer.request', { domain: c.domain, queueKey: 'faleconosco', name: 'Vera Visitante', text: 'One' });
    await c.admin.call('service.take', { domain: c.domain, conversationId: first.conversationId });
    await c.admin.call('service.conclude', { domain: c.domain, conversationId: first.conversationId });
    const second = await visitor.call('customer.request', { domain: c.domain, queueKey: 'faleconosco', text: 'Two' });
    await c.admin.call('service.take', { domain: c.domain, conversationId: second.conversationId });

    const history = await c.admin.call('contacts.customerHistory', { domain: c.domain, userId: visitor.userId, exceptConversationId: second.conversationId }, 'query');
    expect(history.contact).toMatchObject({ name: 'Vera Visitante' });
    expect(history.conversations.map((x: { id: string; state: number }) => [x.id, x.state])).toEqual([[first.conversationId, 9999]]);
    // A colleague's chats are not "requests" of theirs.
    const bia = await c.attendant('Bia');
    await bia.call('chat.startDirect', { domain: c.domain, userId: c.admin.userId });
    expect((await c.admin.call('contacts.customerHistory', { domain: c.domain, userId: bia.userId }, 'query')).conversations).toEqual([]);

    const other = await serviceCompany(server, sockets);
    expect((await other.admin.attempt('contacts.customerHistory', { domain: c.domain, userId: visitor.userId }, 'query')).error?.code).toBe('FORBIDDEN');
    expect(await other.admin.call('contacts.customerHistory', { domain: other.domain, userId: visitor.userId }, 'query')).toEqual({ contact: null, conversations: [] });
  });
});
