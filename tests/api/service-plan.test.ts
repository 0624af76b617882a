/**
 * Plan flags sla / kanban / timesheet (off in the default plan): their procedures refuse with a
 * clear text, the details and the company say so for the browser to hide their entries, and
 * switching a flag on opens the feature.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAN_FEATURE_MESSAGES as P } from '../../src/shared/domain/company';
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

async function takenRequest(plan?: Record<string, number>) {
  const c = await serviceCompany(server, sockets, { plan });
  const bia = await c.attendant('Bia Atendente', { groupIds: [c.group('member')] });
  const v = await anonymousVisitor(server, sockets);
  const { conversationId } = await v.call('customer.request', { domain: c.domain, queueKey: 'faleconosco', name: 'Vera', text: 'Oi' });
  await bia.call('service.take', { domain: c.domain, conversationId });
  return { c, bia, d: { domain: c.domain, conversationId: conversationId as string } };
}

describe('plan features off (the default plan)', () => {
  it('refuses SLA proposals, SLA queues, the SLA board and the timesheet with their texts, and writes nothing', async () => {
    const { c, bia, d } = await takenRequest();
    const inTwoDays = new Date(Date.now() + 2 * 24 * 3_600_000);
    expect((await bia.attempt('service.proposeSla', { ...d, offerDate: inTwoDays })).error).toMatchObject({ code: 'FORBIDDEN', message: P.sla });
    expect((await c.admin.attempt('service.proposeSla', { ...d, offerDate: inTwoDays })).error?.message).toBe(P.sla);
    expect((await c.admin.attempt('queues.update', { domain: c.domain, queueId: c.queue.id, sla: true })).error).toMatchObject({ code: 'FORBIDDEN', message: P.sla });
    expect((await c.admin.attempt('queues.create', { domain: c.domain, name: 'Com SLA', sla: true, groupIds: [c.group('member')] })).error?.message).toBe(P.sla);
    // Switching SLA off, or a queue without SLA, is fine.
    expect((await c.admin.attempt('queues.update', { domain: c.domain, queueId: c.queue.id, sla: false })).error).toBeUndefined();
    expect((await c.admin.attempt('service.slaBoard', { domain: c.domain }, 'query')).error).toMatchObject({ code: 'FORBIDDEN', message: P.kanban });
    expect((await bia.attempt('service.timesheet', d, 'query')).error).toMatchObject({ code: 'FORBIDDEN', message: P.timesheet });
    expect((await bia.attempt('service.addTime', { ...d, startedAt: new Date(), minutes: 10 })).error?.message).toBe(P.timesheet);
    expect((await bia.attempt('service.removeTime', { domain: c.domain, entryId: crypto.randomUUID() })).error?.message).toBe(P.timesheet);

    const row = await server.db.conversation.findUniqueOrThrow({ where: { id: d.conversationId } });
    expect(row.slaProposalOpen).toBe(false);
    expect(await server.db.queue.count({ where: { companyId: c.company.id, sla: true } })).toBe(0);
    expect(await server.db.timesheetEntry.count({ where: { conversationId: d.conversationId } })).toBe(0);
  });

  it('tells the browser what to hide: company features and the service actions', async () => {
    const { c, bia, d } = await takenRequest();
    expect((await bia.call('company.current', { domain: c.domain }, 'query')).features).toMatchObject({ sla: false, kanban: false, timesheet: false });
    expect((await bia.call('service.details', d, 'query')).can).toMatchObject({ proposeSla: false, timesheet: false });
  });
});

describe('plan features on', () => {
  it('opens each feature by its own flag', async () => {
    const { c, bia, d } = await takenRequest({ sla: 1, timesheet: 1 });
    expect((await bia.call('company.current', { domain: c.domain }, 'query')).features).toMatchObject({ sla: true, kanban: false, timesheet: true });
    expect((await bia.call('service.details', d, 'query')).can).toMatchObject({ proposeSla: true, timesheet: true });
    await bia.call('service.proposeSla', { ...d, offerDate: new Date(Date.now() + 2 * 24 * 3_600_000) });
    await bia.call('service.addTime', { ...d, startedAt: new Date(), minutes: 10 });
    expect((await c.admin.attempt('queues.update', { domain: c.domain, queueId: c.queue.id, sla: true })).error).toBeUndefined();
    // The board is its own flag.
    expect((await c.admin.attempt('service.slaBoard', { domain: c.domain }, 'query')).error?.message).toBe(P.kanban);
    await server.db.company.update({ where: { id: c.company.id }, data: { plan: { ...(c.company.plan as object), kanban: 1 } } });
    expect((await c.admin.attempt('service.slaBoard', { domain: c.domain }, 'query')).error).toBeUndefined();
  });
});
