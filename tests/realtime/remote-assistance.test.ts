/**
 * Remote assistance calls (tipo 4) over real HTTP, sockets and a real mediasoup worker: started
 * only by an attendant in a conversation of their own company with the plan's annotation flag;
 * the annotation data channel opened only by the attendant and consumed by the customer (SCTP
 * negotiated through mediasoup-client's FakeHandler); arTime charged once per 30 s tick at the
 * remote price, in exact money, on the clock the test moves.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offsetClock } from '../../src/server/clock';
import { resolveWorkerBin } from '../../src/server/media';
import { chargeParticipant } from '../../src/server/modules/billing/service';
import { BILLING_TICK_MS } from '../../src/shared/constants';
import { chargeFor, fromUnits, toUnits } from '../../src/shared/domain/billing';
import { CALL_MESSAGES as M } from '../../src/shared/domain/calls';
import { PLAN_FEATURE_MESSAGES } from '../../src/shared/domain/company';
import { CallPeer } from '../helpers/call-peer';
import { customer, serviceCompany, type ClientSocket, type Person } from '../helpers/service';
import { startTestServer, type TestServer } from '../helpers/server';

const { bin } = resolveWorkerBin(process.env.MEDIASOUP_WORKER_BIN);
const why = bin ? '' : ' [skipped: no mediasoup worker binary; run `npm run build:worker` or set MEDIASOUP_WORKER_BIN]';

const clock = offsetClock();
let server: TestServer;
const sockets: ClientSocket[] = [];
const peers: CallPeer[] = [];

beforeAll(async () => {
  if (!bin) return;
  server = await startTestServer({
    clock,
    env: { MEDIASOUP_NUM_WORKERS: '1', MEDIASOUP_WORKER_BIN: bin, RTC_LISTEN_IP: '127.0.0.1', APP_ENV: 'dev', INSTANCE_ID: 'remote-test' },
  });
});
afterAll(async () => {
  for (const p of peers) p.close();
  for (const s of sockets) s.disconnect();
  await server?.close();
});

async function peer(person: Person, callId: string) {
  const p = await CallPeer.open(server.url, person.cookie, person.userId, callId);
  peers.push(p);
  await p.join(callId);
  return p;
}

/** A company with the annotation flag (or not), an attendant, and a customer's request they took. */
async function served(plan: Record<string, number> = { anotation: 1 }) {
  const c = await serviceCompany(server, sockets, { plan });
  const bia = await c.attendant('Bia Atendente', { groupIds: [c.group('member')] });
  const carlos = await customer(server, sockets, 'Carlos Cliente');
  const req = await carlos.call('customer.request', { domain: c.domain, queueKey: 'faleconosco', name: 'Carlos Cliente', text: 'Meu computador não imprime' });
  await bia.call('service.take', { domain: c.domain, conversationId: req.conversationId });
  return { c, bia, carlos, conversationId: req.conversationId as string };
}

/** Bia starts remote assistance in Carlos's conversation; both are in the call's room. */
async function inCall(s: Awaited<ReturnType<typeof served>>) {
  const { callId } = await s.bia.call('calls.start', { domain: s.c.domain, conversationId: s.conversationId, type: 4 });
  const biaPeer = await peer(s.bia, callId);
  await s.carlos.call('calls.accept', { callId });
  const carlosPeer = await peer(s.carlos, callId);
  return { callId: callId as string, biaPeer, carlosPeer };
}

describe.skipIf(!bin)(`remote assistance${why}`, () => {
  it("starts only in the attendant's own company's conversation, and only with the plan's annotation flag", async () => {
    const s = await served();
    const other = await served();
    // Another company's attendant: not their conversation, whichever company they name.
    expect((await other.bia.attempt('calls.start', { domain: other.c.domain, conversationId: s.conversationId, type: 4 })).error?.code).toBe('NOT_FOUND');
    expect((await other.bia.attempt('calls.start', { domain: s.c.domain, conversationId: s.conversationId, type: 4 })).error?.code).toBe('FORBIDDEN');
    // The customer is no member: remote assistance is the company's act.
    expect((await s.carlos.attempt('calls.start', { domain: s.c.domain, conversationId: s.conversationId, type: 4 })).error?.code).toBe('FORBIDDEN');
    // A type that does not exist is bad input, not a 500.
    expect((await s.bia.attempt('calls.start', { domain: s.c.domain, conversationId: s.conversationId, type: 5 })).error?.code).toBe('BAD_REQUEST');
    // Without `anotation` in the plan, remote assistance is refused (other calls are not).
    const plain = await served({ anotation: 0 });
    expect((await plain.bia.attempt('calls.start', { domain: plain.c.domain, conversationId: plain.conversationId, type: 4 })).error).toMatchObject({
      code: 'FORBIDDEN',
      message: PLAN_FEATURE_MESSAGES.anotation,
    });
    const { callId } = await s.bia.call('calls.start', { domain: s.c.domain, conversationId: s.conversationId, type: 4 });
    const call = await server.db.call.findUniqueOrThrow({ where: { id: callId } });
    expect(call).toMatchObject({ type: 4, companyId: s.c.company.id, ownerId: s.bia.userId });
    // Carlos is rung with the type, and it stays a remote assistance call once accepted.
    await s.carlos.call('calls.accept', { callId });
    expect((await server.db.call.findUniqueOrThrow({ where: { id: callId } })).type).toBe(4);
    await s.bia.call('calls.leave', { callId });
  });

  it('opens the annotation channel for the attendant only, and the customer receives it', async () => {
    const s = await served();
    const { callId, biaPeer, carlosPeer } = await inCall(s);
    await carlosPeer.produce('screen');
    // The customer cannot draw on the attendant's side.
    await expect(carlosPeer.produceData()).rejects.toThrow(M.annotationsOnlyOwner);
    const channel = await biaPeer.produceData();
    await expect.poll(() => carlosPeer.seen.newDataProducers.map((d) => d.dataProducerId)).toEqual([channel.id]);
    expect(carlosPeer.seen.newDataProducers[0]).toMatchObject({ userId: s.bia.userId, label: 'annotations' });
    const received = await carlosPeer.consumeData(channel.id);
    expect(received).toMatchObject({ dataProducerId: channel.id, label: 'annotations' });
    // A video call has no annotations, even for its owner.
    const video = await served();
    const { callId: videoId } = await video.bia.call('calls.start', { domain: video.c.domain, conversationId: video.conversationId, type: 2 });
    const owner = await peer(video.bia, videoId);
    await expect(owner.produceData()).rejects.toThrow(M.annotationsOnlyRemote);
    await s.bia.call('calls.end', { callId });
    await video.bia.call('calls.end', { callId: videoId });
  });

  it('charges arTime once per tick at the remote price, on the attendant, with the exact amount in the statement', async () => {
    await server.db.prices.update({ where: { id: 1 }, data: { voicePerMinute: '1', sharePerMinute: '4', remotePerMinute: '1.2345' } });
    try {
      const s = await served();
      await server.db.company.update({ where: { id: s.c.company.id }, data: { credits: '10' } });
      const { callId, biaPeer, carlosPeer } = await inCall(s);
      await biaPeer.produce('mic');
      await carlosPeer.produce('mic');
      await carlosPeer.produce('screen');
      await expect.poll(async () => (await server.db.callParticipant.findFirstOrThrow({ where: { callId, userId: s.carlos.userId } })).screen).toBe(true);

      clock.advance(BILLING_TICK_MS);
      await expect.poll(() => server.db.chargeRecord.count({ where: { callId, seconds: { gte: 30 } } })).toBe(1);
      const [tick] = await server.db.chargeRecord.findMany({ where: { callId, seconds: { gte: 30 } } });
      expect(tick).toMatchObject({ tag: 'remote', summary: expect.objectContaining({ field: 'arTime' }) });
      expect(tick!.amount.toString()).toBe(Number(chargeFor(tick!.seconds, '1.2345')).toString());
      // The customer's share and voice are inside arTime: ticked, never charged.
      await expect.poll(async () => (await server.db.callParticipant.findFirstOrThrow({ where: { callId, userId: s.carlos.userId } })).billedTicks).toBeGreaterThanOrEqual(1);
      const bia = await server.db.callParticipant.findFirstOrThrow({ where: { callId, userId: s.bia.userId } });
      const carlos = await server.db.callParticipant.findFirstOrThrow({ where: { callId, userId: s.carlos.userId } });
      expect(await server.db.chargeRecord.count({ where: { subject: `participant:${carlos.id}` } })).toBe(0);

      // The same tick run by two instances at once is charged once.
      const now = new Date(clock.now().getTime() + 7000);
      const outcomes = await Promise.all([chargeParticipant(server.db, bia.id, now), chargeParticipant(server.db, bia.id, now)]);
      expect(outcomes.map((o) => o.status).sort()).toEqual(['charged', 'nothingDue']);

      await s.bia.call('calls.end', { callId });
      const charges = await server.db.chargeRecord.findMany({ where: { callId }, include: { statementEntry: true } });
      expect(new Set(charges.map((c) => c.tag))).toEqual(new Set(['remote']));
      expect(charges.every((c) => c.subject === `participant:${bia.id}`)).toBe(true);
      const spent = charges.reduce((sum, c) => sum + toUnits(c.amount.toString()), 0n);
      for (const c of charges) expect(c.statementEntry!.amount.toString()).toBe(Number(fromUnits(-toUnits(c.amount.toString()))).toString());
      const company = await server.db.company.findUniqueOrThrow({ where: { id: s.c.company.id } });
      expect(toUnits(company.credits.toString())).toBe(toUnits('10') - spent);
      const call = await server.db.call.findUniqueOrThrow({ where: { id: callId } });
      expect(call.remoteSeconds).toBe(charges.reduce((sum, c) => sum + c.seconds, 0));
      expect(call).toMatchObject({ shareSeconds: 0, voiceSeconds: 0, videoSeconds: 0 });
      expect(toUnits(call.totalCharged.toString())).toBe(spent);
      // The statement shows the entries as remote assistance.
      const statement = await s.c.admin.call('billing.statement', { domain: s.c.domain }, 'query');
      expect(statement.entries.filter((e: { callId: string }) => e.callId === callId).map((e: { tag: string }) => e.tag)).toEqual(charges.map(() => 'remote'));
    } finally {
      await server.db.prices.update({ where: { id: 1 }, data: { voicePerMinute: '0', sharePerMinute: '0', remotePerMinute: '0' } });
    }
  });
});
