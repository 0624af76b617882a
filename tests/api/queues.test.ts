/**
 * Queues and groups admin (/i/settings/queues, /i/settings/groups): the spec's rules, tenancy and
 * bad input, over real HTTP against a real database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createUser, signIn } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/server';
import { callProcedure } from '../helpers/trpc';

let server: TestServer;
let n = 0;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

/** A company registered through the real procedure: default groups, queue and Contact Us. */
async function company() {
  const admin = await createUser(server.db, { name: 'Admin' });
  const cookie = await signIn(server.db, admin.id);
  const domain = `q${Date.now().toString(36).slice(-6)}${++n}`;
  const res = await callProcedure(server.url, 'company.register', { domain, name: `Queues ${domain}`, language: 'pt' }, { cookie, type: 'mutation' });
  expect(res.error).toBeUndefined();
  // SLA queues need the plan's sla flag (off in the default plan: tests/api/service-plan.test.ts).
  const row = await server.db.company.update({ where: { domain }, data: { plan: { ...(await server.db.company.findUniqueOrThrow({ where: { domain } })).plan as object, sla: 1 } } });
  const call = async (path: string, input: Record<string, unknown> = {}, type: 'query' | 'mutation' = 'mutation', as = cookie) =>
    callProcedure(server.url, path, { domain, ...input }, { cookie: as, type });
  const groups = await server.db.group.findMany({ where: { companyId: row.id } });
  return { domain, companyId: row.id, adminId: admin.id, cookie, call, groupId: (key: string) => groups.find((g) => g.key === key)!.id };
}

describe('queues', () => {
  it('lists the default queue with both default groups', async () => {
    const c = await company();
    const res = await c.call('queues.list', {}, 'query');
    expect(res.data).toEqual([
      expect.objectContaining({ key: 'faleconosco', name: 'Fale Conosco', active: true, internal: false, sla: false, slaServiceTime: 1, waiting: 0, groups: [{ value: c.groupId('admin'), label: 'admin' }, { value: c.groupId('member'), label: 'member' }] }),
    ]);
  });

  it("refuses a queue without a group with the spec's text, and writes nothing", async () => {
    const c = await company();
    const res = await c.call('queues.create', { name: 'Vendas', groupIds: [] });
    expect(res.error).toMatchObject({ code: 'BAD_REQUEST', message: 'groupIds: Você precisa definir pelo menos um grupo de atendimento para este canal' });
    expect(await server.db.queue.count({ where: { companyId: c.companyId } })).toBe(1);
    const res2 = await c.call('queues.create', { name: 'Vendas' });
    expect(res2.error?.message).toContain('groupIds');
  });

  it("creates queues with defaults ('(sem nome)', active, SLA time 1) and a link key from the name", async () => {
    const c = await company();
    const unnamed = await c.call('queues.create', { name: '  ', groupIds: [c.groupId('member')] });
    expect(unnamed.data).toMatchObject({ name: '(sem nome)', key: 'semnome', active: true, internal: false, sla: false, slaServiceTime: 1 });
    const again = await c.call('queues.create', { groupIds: [c.groupId('member')] });
    expect(again.data).toMatchObject({ name: '(sem nome)', key: 'semnome2' });
    const sales = await c.call('queues.create', { name: 'Suporte Técnico', groupIds: [c.groupId('admin')], sla: true, slaServiceTime: 3, internal: true });
    expect(sales.data).toMatchObject({ key: 'suportetecnico', sla: true, slaServiceTime: 3, internal: true });
  });

  it('edits a queue: name, disabled, internal, SLA, groups; the link key stays', async () => {
    const c = await company();
    const { data: q } = (await c.call('queues.create', { name: 'Vendas', groupIds: [c.groupId('member')] })) as { data: { id: string } };
    const res = await c.call('queues.update', { queueId: q.id, name: 'Comercial', active: false, sla: true, slaServiceTime: 2, groupIds: [c.groupId('admin')] });
    expect(res.data).toMatchObject({ key: 'vendas', name: 'Comercial', active: false, sla: true, slaServiceTime: 2, groups: [{ value: c.groupId('admin'), label: 'admin' }] });
    const empty = await c.call('queues.update', { queueId: q.id, groupIds: [] });
    expect(empty.error?.message).toBe('groupIds: Você precisa definir pelo menos um grupo de atendimento para este canal');
    const bad = await c.call('queues.update', { queueId: q.id, slaServiceTime: 0 });
    expect(bad.error).toMatchObject({ code: 'BAD_REQUEST', httpStatus: 400 });
    expect(bad.error!.message).toMatch(/^slaServiceTime: /);
  });

  it("refuses another company's groups and queues as not found, writing nothing", async () => {
    const [c, other] = [await company(), await company()];
    const res = await c.call('queues.create', { name: 'X', groupIds: [other.groupId('member')] });
    expect(res.error).toMatchObject({ code: 'NOT_FOUND', message: 'Group not found' });
    const otherQueue = await server.db.queue.findFirstOrThrow({ where: { companyId: other.companyId } });
    expect((await c.call('queues.get', { queueId: otherQueue.id }, 'query')).error).toMatchObject({ code: 'NOT_FOUND', message: 'Queue not found' });
    expect((await c.call('queues.update', { queueId: otherQueue.id, name: 'mine now' })).error?.message).toBe('Queue not found');
    expect((await c.call('queues.delete', { queueId: otherQueue.id })).error?.message).toBe('Queue not found');
    expect(await server.db.queue.findUniqueOrThrow({ where: { id: otherQueue.id } })).toMatchObject({ name: 'Fale Conosco' });
    expect(await server.db.queue.count({ where: { companyId: c.companyId } })).toBe(1);
  });

  it('removes a queue, but not while people wait in it, nor the Contact Us queue', async () => {
    const c = await company();
    const { data: q } = (await c.call('queues.create', { name: 'Vendas', groupIds: [c.groupId('member')] })) as { data: { id: string } };
    const waiting = await server.db.conversation.create({
      data: { companyId: c.companyId, type: 0, state: 0, protocol: `9${Date.now()}${n}`.slice(0, 15), queueId: q.id, inQueue: true, queuedAt: new Date() },
    });
    expect((await c.call('queues.delete', { queueId: q.id })).error?.message).toBe('People are waiting in this queue: serve or transfer them before removing it');
    await server.db.conversation.update({ where: { id: waiting.id }, data: { inQueue: false, state: 9999 } });
    expect((await c.call('queues.delete', { queueId: q.id })).data).toEqual({ ok: true });
    // The conversation it served stays, without the queue.
    expect(await server.db.conversation.findUniqueOrThrow({ where: { id: waiting.id } })).toMatchObject({ queueId: null });
    const contactUs = await server.db.queue.findFirstOrThrow({ where: { companyId: c.companyId, key: 'faleconosco' } });
    expect((await c.call('queues.delete', { queueId: contactUs.id })).error?.message).toBe(
      'Contact Us requests go to this queue: choose another one in the Contact Us settings first',
    );
  });

  it('is for admins only', async () => {
    const c = await company();
    const plain = await createUser(server.db);
    await addMember(server.db, c.companyId, plain.id);
    const res = await c.call('queues.create', { name: 'X', groupIds: [c.groupId('member')] }, 'mutation', await signIn(server.db, plain.id));
    expect(res.error).toMatchObject({ code: 'FORBIDDEN', message: 'Only administrators can do this' });
  });
});

describe('groups', () => {
  it('lists groups with their members and queues (nrIntegrantes)', async () => {
    const c = await company();
    const res = (await c.call('groups.list', {}, 'query')) as { data: { key: string; memberCount: number; queues: { label: string }[] }[] };
    expect(res.data.map((g) => [g.key, g.memberCount, g.queues.map((q) => q.label)])).toEqual([
      ['member', 1, ['Fale Conosco']],
      ['admin', 1, ['Fale Conosco']],
    ]);
  });

  it('creates a group with members and queues, renames it, and changes its members', async () => {
    const c = await company();
    const ana = await createUser(server.db, { name: 'Ana' });
    const anaMember = await addMember(server.db, c.companyId, ana.id);
    const queue = await server.db.queue.findFirstOrThrow({ where: { companyId: c.companyId } });
    const created = (await c.call('groups.create', { name: '', memberIds: [anaMember.id], queueIds: [queue.id] })) as { data: { id: string } };
    expect(created.data).toMatchObject({ name: '(sem nome)', memberCount: 1, members: [{ value: anaMember.id, label: 'Ana' }], queues: [{ value: queue.id, label: 'Fale Conosco' }] });
    const renamed = await c.call('groups.update', { groupId: created.data.id, name: 'Suporte', memberIds: [] });
    expect(renamed.data).toMatchObject({ name: 'Suporte', memberCount: 0, members: [] });
    const stranger = await company();
    const strangerMember = await server.db.member.findFirstOrThrow({ where: { companyId: stranger.companyId } });
    expect((await c.call('groups.update', { groupId: created.data.id, memberIds: [strangerMember.id] })).error?.message).toBe('Member not found');
  });

  it("refuses to remove a group with members (spec text); without members it goes", async () => {
    const c = await company();
    const ana = await createUser(server.db, { name: 'Ana' });
    const anaMember = await addMember(server.db, c.companyId, ana.id);
    const { data: g } = (await c.call('groups.create', { name: 'Noite', memberIds: [anaMember.id] })) as { data: { id: string } };
    const res = await c.call('groups.delete', { groupId: g.id });
    expect(res.error).toMatchObject({ code: 'BAD_REQUEST', message: 'Este grupo está vinculado a um ou mais membros. Por favor desvincule todos para continuar.' });
    await c.call('groups.update', { groupId: g.id, memberIds: [] });
    expect((await c.call('groups.delete', { groupId: g.id })).data).toEqual({ ok: true });
    expect(await server.db.group.count({ where: { id: g.id } })).toBe(0);
  });

  it('keeps every queue with at least one group', async () => {
    const c = await company();
    const { data: g } = (await c.call('groups.create', { name: 'Vendas' })) as { data: { id: string } };
    const { data: q } = (await c.call('queues.create', { name: 'Vendas', groupIds: [g.id] })) as { data: { id: string } };
    expect((await c.call('groups.delete', { groupId: g.id })).error?.message).toBe('This group is the only one serving a queue: give that queue another group first');
    expect((await c.call('groups.update', { groupId: g.id, queueIds: [] })).error?.message).toBe('Você precisa definir pelo menos um grupo de atendimento para este canal');
    // Once another group serves the queue, this one may leave it and go.
    await c.call('groups.update', { groupId: c.groupId('member'), queueIds: [q.id, (await server.db.queue.findFirstOrThrow({ where: { companyId: c.companyId, key: 'faleconosco' } })).id] });
    expect((await c.call('groups.delete', { groupId: g.id })).data).toEqual({ ok: true });
    expect((await c.call('queues.get', { queueId: q.id }, 'query')).data).toMatchObject({ groups: [{ value: c.groupId('member'), label: 'member' }] });
  });
});
