/**
 * Exactness with live calls: a three-person call charged by its own 30 s ticks (the hub's timers
 * on the injected clock, as in production) while top-up webhooks arrive, each three times, and an
 * operator refunds an earlier top-up. Afterwards credits equal the sum of the statement to the
 * cent, every balanceAfter follows from the entry before, and nothing is written twice.
 * (tests/api/billing-concurrency.test.ts does the same with the charge functions called directly.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offsetClock } from '../../src/server/clock';
import { resolveWorkerBin } from '../../src/server/media';
import { BILLING_TICK_MS } from '../../src/shared/constants';
import { toUnits } from '../../src/shared/domain/billing';
import { CallPeer, type ClientSocket } from '../helpers/call-peer';
import { addMember, createCompany, createUser, signIn } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/server';
import { startStripeServer, type StripeServer } from '../helpers/stripe-server';
import { callProcedure } from '../helpers/trpc';

const { bin } = resolveWorkerBin(process.env.MEDIASOUP_WORKER_BIN);
const why = bin ? '' : ' [skipped: no mediasoup worker binary; run `npm run build:worker` or set MEDIASOUP_WORKER_BIN]';

const clock = offsetClock();
let server: TestServer;
let stripe: StripeServer;
const sockets: ClientSocket[] = [];
const peers: CallPeer[] = [];

beforeAll(async () => {
  if (!bin) return;
  stripe = await startStripeServer();
  server = await startTestServer({
    clock,
    env: { ...stripe.env, MEDIASOUP_NUM_WORKERS: '1', MEDIASOUP_WORKER_BIN: bin, RTC_LISTEN_IP: '127.0.0.1', APP_ENV: 'dev', INSTANCE_ID: 'billing-ticks-test' },
  });
  stripe.setWebhookUrl(`${server.url}/webhooks/payments/stripe`);
});
afterAll(async () => {
  for (const p of peers) p.close();
  for (const s of sockets) s.disconnect();
  await server?.close();
  await stripe?.close();
});

async function person(domain: string, userId: string) {
  const cookie = await signIn(server.db, userId);
  const call = async <T = any>(path: string, input: Record<string, unknown> = {}, type: 'query' | 'mutation' = 'mutation') => {
    const res = await callProcedure(server.url, path, input, { cookie, type });
    if (res.error) throw new Error(`${path}: ${res.error.message}`);
    return res.data as T;
  };
  const member = <T = any>(path: string, input: Record<string, unknown> = {}, type?: 'query' | 'mutation') => call<T>(path, { domain, ...input }, type);
  const peer = async (callId: string) => {
    const p = await CallPeer.open(server.url, cookie, userId, callId);
    peers.push(p);
    return p;
  };
  return { userId, call, member, peer };
}

const sessionOf = (url: string) => new URL(url).pathname.split('/').pop()!;

describe.skipIf(!bin)(`billing with live call ticks${why}`, () => {
  it('ticks, duplicated top-up webhooks and a refund at once: credits equal the statement to the cent', async () => {
    // Prices that do not divide evenly into 30 s, so rounding is exercised on every tick.
    await server.db.prices.update({ where: { id: 1 }, data: { voicePerMinute: '0.13', videoPerMinute: '0.27' } });
    const ownerUser = await createUser(server.db, { name: 'Ana' });
    const company = await createCompany(server.db, ownerUser.id);
    const owner = await person(company.domain, ownerUser.id);
    await server.db.operator.create({ data: { userId: owner.userId } });
    const others = [];
    for (const name of ['Bruno', 'Carla']) {
      const u = await createUser(server.db, { name });
      await addMember(server.db, company.id, u.id);
      others.push(await person(company.domain, u.id));
    }

    // Money in only through the statement: an operator's starting balance and a top-up paid now.
    await owner.call('operator.adjustCredits', { companyDomain: company.domain, amount: '50', note: 'Starting balance' });
    const early = await owner.member<{ paymentId: string; url: string }>('billing.topUp', { amount: '20' });
    await stripe.pay(sessionOf(early.url));
    // Two top-ups paid at Stripe whose notifications will arrive during the ticks.
    const late = [];
    for (const amount of ['15.25', '30.10']) {
      const { url } = await owner.member<{ url: string }>('billing.topUp', { amount });
      late.push(await stripe.pay(sessionOf(url), false));
    }

    // A live video call with three connected participants.
    const { conversationId } = await owner.member<{ conversationId: string }>('chat.startTeam', { title: 'Team', userIds: others.map((o) => o.userId) });
    const { callId } = await owner.member<{ callId: string }>('calls.start', { conversationId, type: 2 });
    const ownerPeer = await owner.peer(callId);
    await ownerPeer.join(callId);
    for (const o of others) {
      await o.call('calls.accept', { callId });
      await (await o.peer(callId)).join(callId);
    }
    await ownerPeer.produce('cam');
    const participantCharges = () => server.db.chargeRecord.count({ where: { callId, subject: { startsWith: 'participant:' }, seconds: { gte: 1 } } });

    // Round 1: the ticks fire (clock) while the first late top-up is notified three times and the early one refunded.
    const round1 = Promise.all([stripe.deliver(late[0]!), stripe.deliver(late[0]!), stripe.deliver(late[0]!), owner.call('operator.refund', { paymentId: early.paymentId })]);
    clock.advance(BILLING_TICK_MS);
    expect(await round1).toMatchObject([200, 200, 200, { status: 'refunded' }]);
    await expect.poll(participantCharges).toBeGreaterThanOrEqual(3);
    // Round 2: the next ticks with the second late top-up, three times, and the refunded payment's old "paid" notice replayed (it must not credit again).
    const earlyPaid = stripe.events.findLast((e) => e.type === 'checkout.session.completed' && (e.data.object as { id: string }).id === sessionOf(early.url))!;
    const round2 = Promise.all([stripe.deliver(late[1]!), stripe.deliver(late[1]!), stripe.deliver(earlyPaid), stripe.deliver(late[1]!)]);
    clock.advance(BILLING_TICK_MS);
    expect(await round2).toEqual([200, 200, 200, 200]);
    await expect.poll(participantCharges).toBeGreaterThanOrEqual(6);

    const entries = await server.db.statementEntry.findMany({ where: { companyId: company.id }, orderBy: { seq: 'asc' } });
    const credits = (await server.db.company.findUniqueOrThrow({ where: { id: company.id } })).credits.toString();
    const sum = entries.reduce((s, e) => s + toUnits(e.amount.toString()), 0n);
    expect(toUnits(credits)).toBe(sum);
    let running = 0n;
    for (const e of entries) {
      running += toUnits(e.amount.toString());
      expect(toUnits(e.balanceAfter.toString())).toBe(running);
    }
    const byAction = (a: string) => entries.filter((e) => e.action === a).map((e) => e.amount.toString());
    expect(byAction('credit').sort()).toEqual(['15.25', '20', '30.1']);
    expect(byAction('refund')).toEqual(['-20']);
    expect(byAction('adjustment')).toEqual(['50']);
    const charges = await server.db.chargeRecord.findMany({ where: { companyId: company.id } });
    expect(byAction('charge')).toHaveLength(charges.length);
    expect(new Set(charges.map((r) => `${r.subject}#${r.tickIndex}`)).size).toBe(charges.length);
    expect(charges.some((r) => r.tag === 'video') && charges.some((r) => r.tag === 'voice')).toBe(true);
    const charged = charges.reduce((s, r) => s + toUnits(r.amount.toString()), 0n);
    expect(charged).toBeGreaterThan(0n);
    expect(sum).toBe(toUnits('50') + toUnits('20') + toUnits('15.25') + toUnits('30.10') - toUnits('20') - charged);
    // What the admin sees: the statement's newest balance is the company's credits.
    const statement = await owner.member<{ entries: { balanceAfter: string }[] }>('billing.statement', {}, 'query');
    expect(toUnits(statement.entries[0]!.balanceAfter)).toBe(toUnits(credits));
  });
});
