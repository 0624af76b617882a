/**
 * Customer service over real HTTP against a real database: every state transition and rule of
 * issue 6, who may do what, tenancy (outsiders refused, nothing written) and bad input.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessageEvent } from '../../src/shared/chat-events';
import { anonymousVisitor, customer, serviceCompany, type ClientSocket, type Person } from '../helpers/service';
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

// The plan features these rules need (the default plan has none of them: tests/api/service-plan.test.ts).
const company = () => serviceCompany(server, sockets, { plan: { sla: 1, kanban: 1, timesheet: 1 } });
const visitor = () => anonymousVisitor(server, sockets);
const conv = (id: string) => server.db.conversation.findUniqueOrThrow({ where: { id } });
const messagesOf = (id: string) => server.db.message.findMany({ where: { conversationId: id }, orderBy: { seq: 'asc' } });
const infoKinds = async (id: string) => (await messagesOf(id)).map((m) => (m.data as { info?: string } | null)?.info ?? m.type);

/** A company, an attendant in the default queue's 'member' group, and a visitor's request in it. */
async function servedSetup() {
  const c = await company();
  const bia = await c.attendant('Bia Atendente', { groupIds: [c.group('member')] });
  const v = await visitor();
  const req = await v.call('customer.request', { domain: c.domain, queueKey: 'faleconosco', name: 'Vera Visitante', text: 'Preciso de ajuda' });
  return { c, bia, v, id: req.conversationId as string };
}

async function taken() {
  const s = await servedSetup();
  await s.bia.call('service.take', { domain: s.c.domain, conversationId: s.id });
  return s;
}

describe('the company public page', () => {
  it('shows what anyone may see, with the public queues only', async () => {
    const c = await company();
    await c.admin.call('queues.create', { domain: c.domain, name: 'Interna', internal: true, groupIds: [c.group('member')] });
    await c.admin.call('queues.create', { domain: c.domain, name: 'Desligada', active: false, groupIds: [c.group('member')] });
    const v = await visitor();
    expect(await v.call('customer.companyPage', { domain: c.domain }, 'query')).toMatchObject({
      domain: c.domain,
      name: c.company.name,
      hasImage: false,
      // Nobody rated it yet: no rating at all, not the stored seed '5.0 · 1'.
      rating: null,
      contactUs: { name: 'Fale Conosco', blocked: false },
      takingRequests: true,
      queues: [{ key: 'faleconosco', name: 'Fale Conosco' }],
    });
    expect((await v.attempt('customer.companyPage', { domain: 'nosuchco' }, 'query')).error).toMatchObject({ code: 'NOT_FOUND', message: 'Domain not found' });
  });
});

describe('asking for service', () => {
  it("makes an anonymous visitor give a name first ('Para iniciar informe seu nome:'), writing nothing", async () => {
    const c = await company();
    const v = await visitor();
    const res = await v.attempt('customer.request', { domain: c.domain, queueKey: 'faleconosco' });
    expect(res.error).toMatchObject({ code: 'BAD_REQUEST', message: 'Para iniciar informe seu nome:' });
    const blank = await v.attempt('customer.request', { domain: c.domain, queueKey: 'faleconosco', name: '   ' });
    expect(blank.error?.message).toBe('name: Para iniciar informe seu nome:');
    expect(await server.db.conversation.count({ where: { companyId: c.company.id } })).toBe(0);
  });

  it('opens the request waiting in the queue (state 0, naFila, not taken) with the greeting filled in', async () => {
    const c = await company();
    const v = await visitor();
    const res = await v.call('customer.request', { domain: c.domain, queueKey: 'faleconosco', name: 'Vera Visitante', text: 'Preciso de ajuda' });
    expect(res).toMatchObject({ position: 1, existing: false });
    expect(res.protocol).toMatch(/^\d{15}$/);
    const row = await conv(res.conversationId);
    expect(row).toMatchObject({ type: 0, state: 0, inQueue: true, takenById: null, responsibleId: null, title: 'Vera Visitante', queueName: 'Fale Conosco', creatorId: v.userId });
    expect([...row.queueGroupIds].sort()).toEqual([c.group('admin'), c.group('member')].sort());
    const [greeting, first] = await messagesOf(res.conversationId);
    expect(greeting).toMatchObject({ type: 'info', authorId: null });
    expect(greeting!.text).toBe(`Olá Vera Visitante, bem vindo (a) ao canal de atendimento da empresa ${c.company.name}. Aguarde um momento que logo iremos atender você!`);
    expect(first).toMatchObject({ type: 'texto', authorId: v.userId, text: 'Preciso de ajuda' });
    expect((await server.db.user.findUniqueOrThrow({ where: { id: v.userId } })).name).toBe('Vera Visitante');

    // The same visitor asking again gets the open request back; another visitor waits behind.
    expect(await v.call('customer.request', { domain: c.domain, queueKey: 'faleconosco' })).toMatchObject({ conversationId: res.conversationId, existing: true, position: 1 });
    const w = await visitor();
    expect(await w.call('customer.request', { domain: c.domain, queueKey: 'faleconosco', name: 'Wagner' })).toMatchObject({ position: 2, existing: false });
    expect(await w.call('customer.openServices', { domain: c.domain }, 'query')).toEqual([expect.objectContaining({ state: 0, queueName: 'Fale Conosco' })]);
  });

  it('uses the greeting the company configured', async () => {
    const c = await company();
    await c.admin.call('settings.updateGreeting', { domain: c.domain, greeting: 'Oi [nomecliente]! Aqui é a [nomeempresa].' });
    const v = await customer(server, sockets, 'Carla');
    const { conversationId } = await v.call('customer.request', { domain: c.domain, queueKey: 'faleconosco' });
    expect((await messagesOf(conversationId))[0]!.text).toBe(`Oi Carla! Aqui é a ${c.company.name}.`);
  });

  it('refuses disabled queues, hides internal ones from outsiders, and stops while the company is blocked', async () => {
    const c = await company();
    const v = await visitor();
    await c.admin.call('queues.create', { domain: c.domain, name: 'Desligada', active: false, groupIds: [c.group('member')] });
    await c.admin.call('queues.create', { domain: c.domain, name: 'Interna', internal: true, groupIds: [c.group('member')] });
    const ask = (queueKey: string) => v.attempt('customer.request', { domain: c.domain, queueKey, name: 'V' });
    expect((await ask('desligada')).error?.message).toBe('This queue is not taking requests at the moment');
    expect((await ask('interna')).error).toMatchObject({ code: 'NOT_FOUND', message: 'Queue not found' });
    expect((await ask('nosuchqueue')).error?.message).toBe('Queue not found');
    // A member may use the internal queue.
    const bia = await c.attendant('Bia');
    expect(await bia.call('customer.request', { domain: c.domain, queueKey: 'interna' })).toMatchObject({ position: 1 });
    await server.db.company.update({ where: { id: c.company.id }, data: { planBlocked: true } });
    expect((await ask('faleconosco')).error).toMatchObject({ code: 'FORBIDDEN', message: 'This company is not taking requests at the moment' });
    expect(await server.db.conversation.count({ where: { companyId: c.company.id, creatorId: v.userId } })).toBe(0);
  });

  it('answers bad input with readable errors, never a 500', async () => {
    const c = await company();
    const v = await visitor();
    const long = await v.attempt('customer.request', { domain: c.domain, queueKey: 'faleconosco', name: 'V', text: 'x'.repeat(1501) });
    expect(long.error).toMatchObject({ code: 'BAD_REQUEST', message: 'text: Messages have at most 1500 characters' });
    const noQueue = await v.attempt('customer.request', { domain: c.domain, name: 'V' });
    expect(noQueue.error?.code).toBe('BAD_REQUEST');
    expect((await v.attempt('customer.conversation', { conversationId: 'nope' }, 'query')).error?.code).toBe('BAD_REQUEST');
  });
});

describe('the queue and taking a request', () => {
  it('shows a request to attendants sharing one of its groups only (spec 5 visibility)', async () => {
    const c = await company();
    const { data: g1 } = await c.admin.attempt('groups.create', { domain: c.domain, name: 'Vendas' });
    const { data: g2 } = await c.admin.attempt('groups.create', { domain: c.domain, name: 'Suporte' });
    await c.admin.call('queues.create', { domain: c.domain, name: 'Vendas', groupIds: [g1.id] });
    const seller = await c.attendant('Sônia Vendas', { groupIds: [g1.id] });
    const support = await c.attendant('Sérgio Suporte', { groupIds: [g2.id] });
    const nobody = await c.attendant('Nina Sem Grupo');
    const v = await visitor();
    const { conversationId } = await v.call('customer.request', { domain: c.domain, queueKey: 'vendas', name: 'Vítor' });

    const queueOf = async (p: Person) => (await p.call('service.queue', { domain: c.domain }, 'query')).requests.map((r: { conversationId: string }) => r.conversationId);
    expect(await queueOf(seller)).toEqual([conversationId]);
    expect(await queueOf(support)).toEqual([]);
    expect(await queueOf(nobody)).toEqual([]);
    // The admin is in the default groups only.
    expect(await queueOf(c.admin)).toEqual([]);
    const view = await seller.call('service.queue', { domain: c.domain, queueId: (await conv(conversationId)).queueId }, 'query');
    expect(view.requests).toEqual([expect.objectContaining({ conversationId, customerName: 'Vítor', queueName: 'Vendas', forMe: false })]);
    expect(view.queues.find((q: { name: string }) => q.name === 'Vendas')).toMatchObject({ waiting: 1 });

    // Someone who cannot see it cannot take it either: for them it does not exist.
    expect((await support.attempt('service.take', { domain: c.domain, conversationId })).error).toMatchObject({ code: 'NOT_FOUND', message: 'Solicitação não econtrada' });
    expect(await conv(conversationId)).toMatchObject({ inQueue: true, state: 0 });
  });

  it('takes it in one transaction: naFila false, atendido, responsible, state 1; a second take is refused', async () => {
    const { c, bia, v, id } = await servedSetup();
    expect(await bia.call('service.take', { domain: c.domain, conversationId: id })).toEqual({ conversationId: id });
    const row = await conv(id);
    expect(row).toMatchObject({ inQueue: false, state: 1, takenById: bia.userId, responsibleId: bia.userId });
    expect(row.takenAt).toBeInstanceOf(Date);
    expect(await server.db.participant.findUniqueOrThrow({ where: { conversationId_userId: { conversationId: id, userId: bia.userId } } })).toMatchObject({ responsible: true });
    expect(await infoKinds(id)).toEqual(['greeting', 'texto', 'taken']);

    const other = await c.attendant('Outro', { groupIds: [c.group('member')] });
    expect((await other.attempt('service.take', { domain: c.domain, conversationId: id })).error).toMatchObject({ code: 'CONFLICT', message: 'Solicitação já foi atendida' });
    expect((await other.attempt('service.take', { domain: c.domain, conversationId: '00000000-0000-4000-8000-000000000000' })).error).toMatchObject({
      code: 'NOT_FOUND',
      message: 'Solicitação não econtrada',
    });
    expect(await v.call('customer.conversation', { conversationId: id }, 'query')).toMatchObject({ state: 1, responsibleName: 'Bia Atendente', position: null, canLeaveQueue: false });
  });

  it('service.details says whether this attendant may take the request, by the same rule as the queue', async () => {
    const { c, bia, id } = await servedSetup();
    const d = { domain: c.domain, conversationId: id };
    // Bia is not a participant yet: the queue shows her the request, so its panel opens too.
    expect(await bia.call('service.details', d, 'query')).toMatchObject({ state: 0, inQueue: true, can: { take: true, conclude: false } });
    // Someone the queue does not show it to neither sees the panel nor may take it.
    const nobody = await c.attendant('Nina Sem Grupo');
    expect(await nobody.call('service.queue', { domain: c.domain }, 'query')).toMatchObject({ requests: [] });
    expect((await nobody.attempt('service.details', d, 'query')).error).toMatchObject({ code: 'FORBIDDEN' });

    await bia.call('service.take', d);
    expect(await bia.call('service.details', d, 'query')).toMatchObject({ state: 1, inQueue: false, can: { take: false, conclude: true } });
    // Taken: the next attendant of the group no longer may take it (nor see it, not being part of it).
    const other = await c.attendant('Outro', { groupIds: [c.group('member')] });
    expect((await other.attempt('service.details', d, 'query')).error).toMatchObject({ code: 'FORBIDDEN' });
    expect((await c.admin.call('service.details', d, 'query')).can.take).toBe(false);
  });

  it('stops non-admins from serving while the company plan is blocked; admins continue', async () => {
    const { c, bia, id } = await servedSetup();
    await server.db.company.update({ where: { id: c.company.id }, data: { planBlocked: true } });
    expect((await bia.attempt('service.take', { domain: c.domain, conversationId: id })).error).toMatchObject({
      code: 'FORBIDDEN',
      message: 'No momento a conta da empresa está desativada, você não poderá atender a fila, ou interagir com atendimentos.',
    });
    expect(await c.admin.call('service.take', { domain: c.domain, conversationId: id })).toEqual({ conversationId: id });
  });

  it("refuses another company's attendants and leaves the request untouched", async () => {
    const { id } = await servedSetup();
    const outsider = await company();
    const res = await outsider.admin.attempt('service.take', { domain: outsider.domain, conversationId: id });
    expect(res.error).toMatchObject({ code: 'NOT_FOUND', message: 'Solicitação não econtrada' });
    for (const path of ['service.conclude', 'service.reopen', 'service.setTags']) {
      const r = await outsider.admin.attempt(path, { domain: outsider.domain, conversationId: id, tags: ['x'] });
      expect(r.error, path).toMatchObject({ code: 'NOT_FOUND', message: 'Conversation not found' });
    }
    expect((await outsider.admin.attempt('service.details', { domain: outsider.domain, conversationId: id }, 'query')).error?.message).toBe('Conversation not found');
    expect(await conv(id)).toMatchObject({ inQueue: true, state: 0, tags: [] });
    // And the customer's procedures refuse whoever is not in the conversation.
    const stranger = await visitor();
    for (const [path, input, type] of [
      ['customer.conversation', {}, 'query'],
      ['customer.messages', {}, 'query'],
      ['customer.send', { clientId: 'x', text: 'hi' }, 'mutation'],
      ['customer.leaveQueue', {}, 'mutation'],
      ['customer.rate', { stars: 1 }, 'mutation'],
      ['customer.answerSla', { accept: true }, 'mutation'],
      ['customer.markRead', { uptoSeq: 1 }, 'mutation'],
    ] as const) {
      const r = await stranger.attempt(path, { conversationId: id, ...input }, type);
      expect(r.error, path).toMatchObject({ code: 'FORBIDDEN', message: 'Invalid Access' });
    }
    expect(await conv(id)).toMatchObject({ inQueue: true, state: 0, lastSeq: 2 });
  });
});

describe('serving: waiting, conclusion, reopening', () => {
  it('moves 1 -> 2 -> 1 -> 9999 -> 1 by the responsible person, each with its info message', async () => {
    const { c, bia, id } = await taken();
    const d = { domain: c.domain, conversationId: id };
    expect(await bia.call('service.setWaiting', { ...d, waiting: true })).toEqual({ state: 2 });
    expect(await bia.call('service.setWaiting', { ...d, waiting: false })).toEqual({ state: 1 });
    expect(await bia.call('service.conclude', d)).toEqual({ state: 9999 });
    const concluded = await conv(id);
    expect(concluded.concludedAt).toBeInstanceOf(Date);
    expect(concluded.inQueue).toBe(false);
    expect(await bia.call('service.reopen', d)).toEqual({ state: 1 });
    expect(await conv(id)).toMatchObject({ state: 1, concludedAt: null });
    expect((await infoKinds(id)).slice(3)).toEqual(['waitingThirdParty', 'resumed', 'concluded', 'reopened']);
    expect((await messagesOf(id)).at(-1)!.text).toBe('Service reopened');
  });

  it('lets only the responsible person (or an admin, to conclude) act; reopening is for the owner only', async () => {
    const { c, bia, id } = await taken();
    const d = { domain: c.domain, conversationId: id };
    const other = await c.attendant('Outro', { groupIds: [c.group('member')] });
    const refusal = { code: 'FORBIDDEN', message: 'Only the person responsible for this service can do this' };
    expect((await other.attempt('service.conclude', d)).error).toMatchObject(refusal);
    expect((await other.attempt('service.setWaiting', { ...d, waiting: true })).error).toMatchObject(refusal);
    // An admin may conclude a service they are not responsible for, but not reopen it.
    expect(await c.admin.call('service.conclude', d)).toEqual({ state: 9999 });
    expect((await c.admin.attempt('service.reopen', d)).error).toMatchObject(refusal);
    expect((await bia.attempt('service.conclude', d)).error).toMatchObject({ code: 'BAD_REQUEST', message: 'This service is not in a state that allows this' });
    expect(await bia.call('service.reopen', d)).toEqual({ state: 1 });
  });

  it('keeps the responsible person in until they transfer (spec 4)', async () => {
    const { c, bia, id } = await taken();
    expect((await bia.attempt('chat.leave', { domain: c.domain, conversationId: id })).error?.message).toBe('Transfer the service to someone else before leaving');
    await bia.call('service.transfer', { domain: c.domain, conversationId: id, target: { kind: 'queue', queueId: c.queue.id } });
    expect(await bia.call('chat.leave', { domain: c.domain, conversationId: id })).toEqual({ left: true });
  });
});

describe('transfer', () => {
  it('to another queue: back to state 0 in that queue, the comment only when not blank, members only', async () => {
    const { c, bia, v, id } = await taken();
    const { data: g } = await c.admin.attempt('groups.create', { domain: c.domain, name: 'Financeiro' });
    const { data: q } = await c.admin.attempt('queues.create', { domain: c.domain, name: 'Financeiro', groupIds: [g.id] });
    const fin = await c.attendant('Fábio Financeiro', { groupIds: [g.id] });

    const blank = await bia.call('service.transfer', { domain: c.domain, conversationId: id, target: { kind: 'queue', queueId: q.id }, comment: '   ' });
    expect(blank).toEqual({ transferred: true });
    expect(await conv(id)).toMatchObject({ state: 0, inQueue: true, queueId: q.id, queueName: 'Financeiro', responsibleId: null, queueGroupIds: [g.id] });
    expect(await server.db.message.count({ where: { conversationId: id, isComment: true } })).toBe(0);
    expect((await infoKinds(id)).at(-1)).toBe('transferredToQueue');

    // The finance attendant takes it and passes it on with a comment the customer never sees.
    await fin.call('service.take', { domain: c.domain, conversationId: id });
    await fin.call('service.transfer', { domain: c.domain, conversationId: id, target: { kind: 'queue', queueId: c.queue.id }, comment: '  cliente VIP  ' });
    const comments = await server.db.message.findMany({ where: { conversationId: id, isComment: true } });
    expect(comments.map((m) => [m.text, m.authorId])).toEqual([['cliente VIP', fin.userId]]);
    const seen = await v.call<ChatMessageEvent[]>('customer.messages', { conversationId: id }, 'query');
    expect(seen.some((m) => m.isComment || m.text.includes('VIP'))).toBe(false);
    expect(seen.length).toBe((await messagesOf(id)).length - 1);
    expect(await v.call('customer.conversation', { conversationId: id }, 'query')).toMatchObject({ state: 0, position: 1, queueName: 'Fale Conosco' });
  });

  it('to an attendant: it waits for them only (userFila), and they take it', async () => {
    const { c, bia, id } = await taken();
    const caio = await c.attendant('Caio', { groupIds: [c.group('member')] });
    const other = await c.attendant('Outro', { groupIds: [c.group('member')] });
    await bia.call('service.transfer', { domain: c.domain, conversationId: id, target: { kind: 'attendant', userId: caio.userId } });
    expect(await conv(id)).toMatchObject({ state: 0, inQueue: true, queueUserId: caio.userId, responsibleId: null });
    const caioQueue = await caio.call('service.queue', { domain: c.domain }, 'query');
    expect(caioQueue.requests).toEqual([expect.objectContaining({ conversationId: id, forMe: true })]);
    expect((await other.call('service.queue', { domain: c.domain }, 'query')).requests).toEqual([]);
    expect((await bia.call('service.queue', { domain: c.domain }, 'query')).requests).toEqual([]);
    expect((await other.attempt('service.take', { domain: c.domain, conversationId: id })).error?.message).toBe('Solicitação não econtrada');
    await caio.call('service.take', { domain: c.domain, conversationId: id });
    expect(await conv(id)).toMatchObject({ state: 1, responsibleId: caio.userId, takenById: caio.userId, queueUserId: null });
    // Caio was told.
    expect(await server.db.notification.findFirst({ where: { userId: caio.userId, type: 'transfer' } })).toMatchObject({ action: `/i/recent/queue/${c.queue.id}` });
  });

  it('refuses people who cannot transfer and targets that do not exist', async () => {
    const { c, bia, id } = await taken();
    const other = await c.attendant('Outro', { groupIds: [c.group('member')] });
    const d = { domain: c.domain, conversationId: id };
    expect((await other.attempt('service.transfer', { ...d, target: { kind: 'queue', queueId: c.queue.id } })).error?.message).toBe(
      'Only the person responsible for this service can do this',
    );
    const stranger = await company();
    expect((await bia.attempt('service.transfer', { ...d, target: { kind: 'queue', queueId: stranger.queue.id } })).error?.message).toBe('Queue not found');
    expect((await bia.attempt('service.transfer', { ...d, target: { kind: 'attendant', userId: stranger.admin.userId } })).error?.message).toBe('User not found in domain');
    expect((await bia.attempt('service.transfer', { ...d, target: { kind: 'attendant', userId: bia.userId } })).error?.message).toBe('You are already responsible for this service');
    expect((await bia.attempt('service.transfer', { ...d, target: { kind: 'robot' } })).error?.code).toBe('BAD_REQUEST');
    expect(await conv(id)).toMatchObject({ state: 1, responsibleId: bia.userId });
  });

  it('lists the queues and attendants a service can go to', async () => {
    const { c, bia } = await taken();
    const targets = await bia.call('service.transferTargets', { domain: c.domain }, 'query');
    expect(targets.queues).toEqual([{ id: c.queue.id, name: 'Fale Conosco' }]);
    expect(targets.attendants.map((a: { name: string; me: boolean }) => [a.name, a.me])).toEqual([
      ['Ana Admin', false],
      ['Bia Atendente', true],
    ]);
  });
});

describe("the customer's side", () => {
  it('reads and answers in their own conversation, never sees comments, and cannot write once it is concluded', async () => {
    const { c, bia, v, id } = await taken();
    await bia.call('chat.send', { domain: c.domain, conversationId: id, clientId: 'b1', text: 'Olá! Como posso ajudar?' });
    await bia.call('chat.send', { domain: c.domain, conversationId: id, clientId: 'b2', text: 'nota interna', isComment: true });
    // greeting 1, first words 2, taken 3, Bia 4, comment 5.
    expect(await v.call('customer.markRead', { conversationId: id, uptoSeq: 4 })).toEqual({ uptoSeq: 4, moved: true });
    expect(await v.call('customer.markRead', { conversationId: id, uptoSeq: 2 })).toEqual({ uptoSeq: 2, moved: false });
    const sent = await v.call('customer.send', { conversationId: id, clientId: 'v1', text: 'Minha senha não funciona' });
    expect(await v.call('customer.send', { conversationId: id, clientId: 'v1', text: 'Minha senha não funciona' })).toMatchObject({ id: sent.id });
    const seen = await v.call<ChatMessageEvent[]>('customer.messages', { conversationId: id }, 'query');
    expect(seen.map((m) => m.text)).not.toContain('nota interna');
    expect(seen.map((m) => m.text).slice(-2)).toEqual(['Olá! Como posso ajudar?', 'Minha senha não funciona']);
    expect((await v.call<ChatMessageEvent[]>('customer.messages', { conversationId: id, afterSeq: sent.seq - 1 }, 'query')).map((m) => m.seq)).toEqual([sent.seq]);

    await bia.call('service.conclude', { domain: c.domain, conversationId: id });
    expect((await v.attempt('customer.send', { conversationId: id, clientId: 'v2', text: 'ainda aí?' })).error?.message).toBe('This service is concluded: start a new one');
    // Starting a new service opens a new request.
    const again = await v.call('customer.request', { domain: c.domain, queueKey: 'faleconosco' });
    expect(again).toMatchObject({ existing: false, position: 1 });
    expect(again.conversationId).not.toBe(id);
  });

  it('leaves the queue while waiting (the request ends), but not once it was taken', async () => {
    const { c, bia, v, id } = await servedSetup();
    const w = await visitor();
    const second = await w.call('customer.request', { domain: c.domain, queueKey: 'faleconosco', name: 'Wagner' });
    expect(await v.call('customer.leaveQueue', { conversationId: id })).toEqual({ left: true });
    expect(await conv(id)).toMatchObject({ state: 9999, inQueue: false, takenById: null });
    expect(await w.call('customer.conversation', { conversationId: second.conversationId }, 'query')).toMatchObject({ position: 1, canLeaveQueue: true });
    await bia.call('service.take', { domain: c.domain, conversationId: second.conversationId });
    expect((await w.attempt('customer.leaveQueue', { conversationId: second.conversationId })).error).toMatchObject({ message: 'Solicitação já foi atendida' });
    expect((await v.attempt('customer.rate', { conversationId: id, stars: 5 })).error?.message).toBe('Only a concluded service that someone served can be rated');
  });

  it("rates a concluded service once; the company's rating follows (5 over 1 to start, 1 decimal)", async () => {
    const { c, bia, v, id } = await taken();
    expect((await v.attempt('customer.rate', { conversationId: id, stars: 4 })).error?.message).toBe('Only a concluded service that someone served can be rated');
    await bia.call('service.conclude', { domain: c.domain, conversationId: id });
    expect(await v.call('customer.conversation', { conversationId: id }, 'query')).toMatchObject({ canRate: true, rating: null });
    expect(await v.call('customer.rate', { conversationId: id, stars: 4 })).toEqual({ stars: 4, companyRating: { total: 4.5, count: 2 } });
    expect((await v.attempt('customer.rate', { conversationId: id, stars: 5 })).error).toMatchObject({ code: 'CONFLICT', message: 'This service was already rated' });
    expect((await v.attempt('customer.rate', { conversationId: id, stars: 6 })).error?.code).toBe('BAD_REQUEST');
    expect(await server.db.company.findUniqueOrThrow({ where: { id: c.company.id } })).toMatchObject({ ratingTotal: 4.5, ratingCount: 2 });
    // The public page now shows it: one customer's rating.
    expect(await v.call('customer.companyPage', { domain: c.domain }, 'query')).toMatchObject({ rating: { total: 4.5, count: 1 } });
    expect((await bia.attempt('customer.rate', { conversationId: id, stars: 1 })).error?.message).toBe('Only a concluded service that someone served can be rated');
    expect(await conv(id)).toMatchObject({ rating: 4 });
  });
});

describe('SLA', () => {
  it('an SLA queue gives requests a due date SLAtempoAtendimento days ahead', async () => {
    const c = await company();
    await c.admin.call('queues.update', { domain: c.domain, queueId: c.queue.id, sla: true, slaServiceTime: 2 });
    const v = await visitor();
    const { conversationId } = await v.call('customer.request', { domain: c.domain, queueKey: 'faleconosco', name: 'V' });
    const row = await conv(conversationId);
    expect(row.slaDueAt!.getTime() - row.createdAt.getTime()).toBe(2 * 24 * 3_600_000);
  });

  it('propose a date, the customer accepts (escolhaProposta on the message, dataConclusaoSLA aceito) or declines', async () => {
    const { c, bia, v, id } = await taken();
    const d = { domain: c.domain, conversationId: id };
    const inTwoDays = new Date(Date.now() + 2 * 24 * 3_600_000);
    expect((await bia.attempt('service.proposeSla', { ...d, offerDate: new Date(Date.now() - 60_000) })).error?.message).toBe('The proposed date must be in the future');
    const { messageId } = await bia.call('service.proposeSla', { ...d, offerDate: inTwoDays });
    expect(await conv(id)).toMatchObject({ slaProposalOpen: true, slaOfferDate: inTwoDays, slaAccepted: false });
    expect((await bia.attempt('service.proposeSla', { ...d, offerDate: inTwoDays })).error?.message).toBe('A proposal is already waiting for the customer’s answer');
    expect(await v.call('customer.conversation', { conversationId: id }, 'query')).toMatchObject({ sla: { proposal: 'open' } });

    expect(await v.call('customer.answerSla', { conversationId: id, accept: true })).toEqual({ choice: 'accepted' });
    expect(await conv(id)).toMatchObject({ slaProposalOpen: false, slaAccepted: true, slaDueAt: inTwoDays });
    expect((await server.db.message.findUniqueOrThrow({ where: { id: messageId } })).data).toMatchObject({ escolhaProposta: 'accepted', offerDate: inTwoDays.toISOString() });
    expect((await infoKinds(id)).at(-1)).toBe('slaAnswered');
    expect((await v.attempt('customer.answerSla', { conversationId: id, accept: true })).error?.message).toBe('There is no proposal waiting for an answer');
    expect(await server.db.notification.findFirst({ where: { userId: bia.userId, type: 'slaAnswered' } })).toMatchObject({ title: 'SLA proposal accepted' });

    // A new proposal, declined: the agreed date stays.
    const later = new Date(Date.now() + 5 * 24 * 3_600_000);
    await bia.call('service.proposeSla', { ...d, offerDate: later });
    await v.call('customer.answerSla', { conversationId: id, accept: false });
    expect(await conv(id)).toMatchObject({ slaProposalOpen: false, slaAccepted: true, slaDueAt: inTwoDays, slaOfferDate: later });
    expect((await bia.call('service.details', d, 'query')).sla).toMatchObject({ proposal: 'accepted', accepted: true });
  });

  it('the board sorts service requests by SLA column; attendants see theirs, admins all', async () => {
    const { c, bia, v, id } = await taken();
    const now = Date.now();
    await bia.call('service.proposeSla', { domain: c.domain, conversationId: id, offerDate: new Date(now + 3 * 24 * 3_600_000) });
    const w = await visitor();
    const late = await w.call('customer.request', { domain: c.domain, queueKey: 'faleconosco', name: 'Atrasado' });
    await server.db.conversation.update({ where: { id: late.conversationId }, data: { slaDueAt: new Date(now - 3_600_000) } });
    const column = (board: { columns: { key: string; cards: { conversationId: string }[] }[] }, key: string) => board.columns.find((x) => x.key === key)!.cards.map((x) => x.conversationId);
    const adminBoard = await c.admin.call('service.slaBoard', { domain: c.domain }, 'query');
    expect(adminBoard.columns.map((x: { key: string }) => x.key)).toEqual(['noDate', 'proposal', 'onTime', 'dueToday', 'overdue', 'concluded']);
    expect(column(adminBoard, 'proposal')).toEqual([id]);
    expect(column(adminBoard, 'overdue')).toEqual([late.conversationId]);
    const biaBoard = await bia.call('service.slaBoard', { domain: c.domain }, 'query');
    expect(column(biaBoard, 'proposal')).toEqual([id]);
    expect(column(biaBoard, 'overdue')).toEqual([]);
    await v.call('customer.answerSla', { conversationId: id, accept: true });
    expect(column(await bia.call('service.slaBoard', { domain: c.domain }, 'query'), 'onTime')).toEqual([id]);
  });
});

describe('tags, tasks, timesheet', () => {
  it('keeps tags trimmed and without repeats, and suggests the company tags', async () => {
    const { c, bia, id } = await taken();
    expect(await bia.call('service.setTags', { domain: c.domain, conversationId: id, tags: [' senha ', 'Senha', 'urgente'] })).toEqual({ tags: ['senha', 'urgente'] });
    expect(await bia.call('service.tags', { domain: c.domain }, 'query')).toEqual(['senha', 'urgente']);
    const other = await c.attendant('Outro');
    expect((await other.attempt('service.setTags', { domain: c.domain, conversationId: id, tags: ['x'] })).error?.message).toBe('You are not in this conversation');
    expect((await bia.attempt('service.setTags', { domain: c.domain, conversationId: id, tags: ['x'.repeat(41)] })).error?.code).toBe('BAD_REQUEST');
  });

  it('opens tasks (type 2, idPai) from a conversation, with the attendants who do them', async () => {
    const { c, bia, id } = await taken();
    const caio = await c.attendant('Caio');
    const { conversationId: taskId, protocol } = await bia.call('service.createTask', { domain: c.domain, conversationId: id, title: 'Trocar a senha', userIds: [caio.userId] });
    expect(await conv(taskId)).toMatchObject({ type: 2, parentId: id, title: 'Trocar a senha', state: 1, responsibleId: bia.userId });
    expect((await server.db.participant.findMany({ where: { conversationId: taskId } })).map((p) => p.userId).sort()).toEqual([bia.userId, caio.userId].sort());
    const details = await bia.call('service.details', { domain: c.domain, conversationId: id }, 'query');
    expect(details.tasks).toEqual([{ id: taskId, title: 'Trocar a senha', protocol, state: 1 }]);
    expect((await infoKinds(id)).at(-1)).toBe('taskCreated');
    // The task is concluded like a service.
    expect(await bia.call('service.conclude', { domain: c.domain, conversationId: taskId })).toEqual({ state: 9999 });
    const stranger = await company();
    expect((await bia.attempt('service.createTask', { domain: c.domain, conversationId: id, title: 'x', userIds: [stranger.admin.userId] })).error?.message).toBe('User not found in domain');
    expect((await bia.attempt('service.createTask', { domain: c.domain, conversationId: id, title: '  ' })).error?.message).toBe('title: Fill in all fields');
  });

  it('records time per conversation with totals; people remove their own entries, admins any', async () => {
    const { c, bia, id } = await taken();
    const d = { domain: c.domain, conversationId: id };
    await bia.call('service.addTime', { ...d, startedAt: new Date('2026-11-23T10:00:00Z'), minutes: 30, description: 'Diagnóstico' });
    const { id: second } = await bia.call('service.addTime', { ...d, startedAt: new Date('2026-11-23T11:00:00Z'), minutes: 15 });
    const sheet = await bia.call('service.timesheet', d, 'query');
    expect(sheet.totalMinutes).toBe(45);
    expect(sheet.totals).toEqual([{ userId: bia.userId, name: 'Bia Atendente', minutes: 45 }]);
    expect(sheet.entries.map((e: { description: string; mine: boolean }) => [e.description, e.mine])).toEqual([
      ['Diagnóstico', true],
      ['', true],
    ]);
    const other = await c.attendant('Outro');
    expect((await other.attempt('service.timesheet', d, 'query')).error?.message).toBe('You are not in this conversation');
    expect((await other.attempt('service.removeTime', { domain: c.domain, entryId: second })).error?.message).toBe('Time entry not found');
    expect((await bia.attempt('service.addTime', { ...d, startedAt: new Date(), minutes: 0 })).error?.code).toBe('BAD_REQUEST');
    expect(await c.admin.call('service.removeTime', { domain: c.domain, entryId: second })).toEqual({ ok: true });
    expect((await bia.call('service.timesheet', d, 'query')).totalMinutes).toBe(30);
  });
});

describe('linked tickets', () => {
  it('opens a ticket in a client company, linked to the conversation it came from', async () => {
    const { c, bia, id } = await taken();
    const client = await company();
    await server.db.clientCompanyLink.create({ data: { companyId: c.company.id, clientDomain: client.domain, email: 'x@example.test', accepted: true } });
    const targets = await bia.call('service.linkTargets', { domain: c.domain }, 'query');
    expect(targets).toEqual([{ domain: client.domain, name: client.company.name, hasImage: false, queues: [{ key: 'faleconosco', name: 'Fale Conosco' }] }]);
    const opened = await bia.call('service.openLinkedTicket', { domain: c.domain, conversationId: id, targetDomain: client.domain, queueKey: 'faleconosco', text: 'Favor verificar' });
    expect(await conv(opened.conversationId)).toMatchObject({ companyId: client.company.id, type: 1, state: 0, inQueue: true, creatorId: bia.userId, linkedConversationId: id });
    expect((await infoKinds(id)).at(-1)).toBe('linkedTicketOpened');
    expect((await bia.call('service.details', { domain: c.domain, conversationId: id }, 'query')).linkedTickets).toEqual([
      { conversationId: opened.conversationId, protocol: opened.protocol, state: 0, domain: client.domain, companyName: client.company.name },
    ]);
    // The client's attendants serve it like any request; Bia follows it as its customer.
    expect(await bia.call('customer.conversation', { conversationId: opened.conversationId }, 'query')).toMatchObject({ state: 0, position: 1, domain: client.domain });

    const unrelated = await company();
    expect((await bia.attempt('service.openLinkedTicket', { domain: c.domain, conversationId: id, targetDomain: unrelated.domain, queueKey: 'faleconosco' })).error).toMatchObject({
      code: 'FORBIDDEN',
      message: 'This company is not one of your client or network companies',
    });
    expect(await server.db.conversation.count({ where: { companyId: unrelated.company.id } })).toBe(0);
  });
});

describe('Contact Us', () => {
  it('serves the configured form and turns a valid one into a ticket in the Contact Us queue', async () => {
    const c = await company();
    await c.admin.call('additionalFields.create', { domain: c.domain, name: 'Plano', tag: 'plano', multipleChoice: true, options: ['Básico', 'Pro'] });
    const v = await visitor();
    const form = await v.call('customer.contactUsForm', { domain: c.domain }, 'query');
    expect(form).toMatchObject({ name: 'Fale Conosco', blocked: false, extras: [{ tag: 'plano', name: 'Plano', multipleChoice: true, options: ['Básico', 'Pro'] }] });
    expect(form.fields.map((f: { key: string }) => f.key)).toEqual(['name', 'email', 'phone', 'message']);

    const bad = await v.attempt('customer.contactUs', { domain: c.domain, values: { name: 'M', email: 'nope', message: '', plano: 'Gold' } });
    expect(bad.error).toMatchObject({ code: 'BAD_REQUEST', message: 'name: Too short' });
    expect(bad.error!.data.fieldErrors).toEqual({ name: ['Too short'], email: ['Invalid email'], message: ['Fill in all fields'], plano: ['Choose one of the options'] });
    expect(await server.db.conversation.count({ where: { companyId: c.company.id } })).toBe(0);

    const ok = await v.call('customer.contactUs', { domain: c.domain, values: { name: 'Marta', email: 'marta@example.com', message: 'Quero um orçamento', plano: 'Pro' } });
    expect(await conv(ok.conversationId)).toMatchObject({ type: 1, state: 0, inQueue: true, queueId: c.queue.id, title: 'Marta' });
    expect((await messagesOf(ok.conversationId))[1]!.text).toBe('Nome: Marta\nE-mail: marta@example.com\nMensagem: Quero um orçamento\nPlano: Pro');
  });

  it('says so when Contact Us is blocked', async () => {
    const c = await company();
    const settings = await c.admin.call('settings.contactUs', { domain: c.domain }, 'query');
    await c.admin.call('settings.updateContactUs', { domain: c.domain, ...settings, blocked: true });
    const v = await visitor();
    expect(await v.call('customer.companyPage', { domain: c.domain }, 'query')).toMatchObject({ contactUs: { blocked: true } });
    expect((await v.attempt('customer.contactUs', { domain: c.domain, values: { name: 'Marta', email: 'm@example.com', message: 'oi' } })).error).toMatchObject({
      code: 'FORBIDDEN',
      message: 'Contact Us is not available at the moment',
    });
  });
});
