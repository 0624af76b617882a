/**
 * Top-ups through the Stripe adapter against a local Stripe-protocol server: success, refusal,
 * duplicate and out-of-order webhooks, forged signatures and refunds. Credits only ever move by
 * statement entries, each payment's entries written once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYMENT_MESSAGES } from '../../src/shared/schemas/billing';
import { OPERATOR_MESSAGES } from '../../src/shared/schemas/operator';
import { serviceCompany, until, type ClientSocket } from '../helpers/service';
import { startTestServer, type TestServer } from '../helpers/server';
import { signPayload, startStripeServer, type StripeServer } from '../helpers/stripe-server';

let server: TestServer;
let stripe: StripeServer;
const sockets: ClientSocket[] = [];
const OPERATOR = 'ops@example.test';

beforeAll(async () => {
  stripe = await startStripeServer();
  server = await startTestServer({ env: { ...stripe.env, OPERATOR_EMAILS: OPERATOR } });
  stripe.setWebhookUrl(`${server.url}/webhooks/payments/stripe`);
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await server?.close();
  await stripe?.close();
});

async function company() {
  const c = await serviceCompany(server, sockets);
  const credits = async () => (await server.db.company.findUniqueOrThrow({ where: { id: c.company.id } })).credits.toString();
  const entries = () => server.db.statementEntry.findMany({ where: { companyId: c.company.id }, orderBy: { seq: 'asc' } });
  const topUp = async (amount: string) => {
    const res = await c.admin.call<{ paymentId: string; url: string }>('billing.topUp', { domain: c.domain, amount });
    const sessionId = new URL(res.url).pathname.split('/').pop()!;
    return { ...res, sessionId };
  };
  return { ...c, credits, entries, topUp };
}

async function sumOfStatement(companyId: string) {
  const rows = await server.db.$queryRaw<{ sum: string | null }[]>`SELECT sum("amount")::text AS sum FROM "StatementEntry" WHERE "companyId" = ${companyId}::uuid`;
  return Number(rows[0]!.sum ?? 0);
}

describe('stripe top-up', () => {
  it('credits the company once when paid, and the webhook delivered again changes nothing', async () => {
    const c = await company();
    expect(await c.admin.call('billing.paymentsStatus', { domain: c.domain }, 'query')).toEqual({ provider: 'stripe', currency: 'brl', cardForm: false });
    const { paymentId, url, sessionId } = await c.topUp('50');
    expect(url).toBe(`${stripe.url}/pay/${sessionId}`);
    expect(stripe.sessions.get(sessionId)).toMatchObject({ amount_total: 5000, currency: 'brl', client_reference_id: paymentId });

    const event = await stripe.pay(sessionId);
    expect(stripe.deliveries.at(-1)).toEqual({ eventId: event.id, status: 200 });
    expect(await c.credits()).toBe('50');
    // Stripe retries a delivery it thinks failed; the same event, twice more, at once.
    expect(await Promise.all([stripe.deliver(event), stripe.deliver(event)])).toEqual([200, 200]);
    // The return from checkout asks again too.
    expect(await c.admin.call('billing.payment', { domain: c.domain, paymentId })).toMatchObject({ status: 'paid', amount: '50' });
    const entries = await c.entries();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ action: 'credit', name: 'Top-up', paymentId });
    expect(entries[0]!.amount.toString()).toBe('50');
    expect(entries[0]!.balanceAfter.toString()).toBe('50');
    expect(await c.admin.call('billing.statement', { domain: c.domain }, 'query')).toMatchObject({ entries: [{ action: 'credit', amount: '50', balanceAfter: '50' }] });
  });

  it('shows a refused card as failed and credits nothing; paying afterwards credits once', async () => {
    const c = await company();
    const { paymentId, sessionId } = await c.topUp('20.50');
    await stripe.decline(sessionId);
    const [payment] = await c.admin.call('billing.payments', { domain: c.domain }, 'query');
    expect(payment).toMatchObject({ id: paymentId, status: 'failed', failureReason: 'Your card was declined.' });
    expect(await c.credits()).toBe('0');
    expect(await c.entries()).toHaveLength(0);

    await stripe.pay(sessionId);
    expect(await c.credits()).toBe('20.5');
    expect((await c.admin.call('billing.payments', { domain: c.domain }, 'query'))[0]).toMatchObject({ status: 'paid', failureReason: null });
  });

  it('an expired checkout shows as expired and credits nothing', async () => {
    const c = await company();
    const { paymentId, sessionId } = await c.topUp('10');
    expect(await stripe.expire(sessionId)).toBe(200);
    expect((await server.db.payment.findUniqueOrThrow({ where: { id: paymentId } })).status).toBe('expired');
    expect(await c.entries()).toHaveLength(0);
  });

  it('refuses a forged or stale signature and credits nothing', async () => {
    const c = await company();
    const { paymentId, sessionId } = await c.topUp('30');
    const event = await stripe.pay(sessionId, false);
    expect(await stripe.deliver(event, { secret: 'whsec_not_the_right_one' })).toBe(400);
    expect(await stripe.deliver(event, { signature: 'garbage' })).toBe(400);
    // The right secret over a timestamp from an hour ago: a replay outside Stripe's tolerance.
    const payload = JSON.stringify(event);
    expect(await stripe.deliver(event, { signature: signPayload(payload, stripe.webhookSecret, Math.floor(Date.now() / 1000) - 3600) })).toBe(400);
    // No signature at all.
    const res = await fetch(`${server.url}/webhooks/payments/stripe`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: payload });
    expect(res.status).toBe(400);
    expect(await c.credits()).toBe('0');
    expect((await server.db.payment.findUniqueOrThrow({ where: { id: paymentId } })).status).toBe('pending');
    expect(await c.entries()).toHaveLength(0);
  });

  it('a forged event naming a session that was never paid cannot credit it: the state comes from Stripe', async () => {
    const c = await company();
    const { sessionId } = await c.topUp('40');
    const fake = { id: 'evt_fake', object: 'event', type: 'checkout.session.completed', created: 0, data: { object: { ...stripe.sessions.get(sessionId), payment_status: 'paid', status: 'complete' } } };
    // Even correctly signed (a leaked secret), the claim "paid" is checked with Stripe, which says unpaid.
    expect(await stripe.deliver(fake as never)).toBe(200);
    expect(await c.credits()).toBe('0');
  });

  it('a refund from the dashboard writes one debit entry, even when its webhook arrives before the payment one', async () => {
    const c = await company();
    const { paymentId, sessionId } = await c.topUp('25');
    const paid = await stripe.pay(sessionId, false);
    const refunded = await stripe.refundFromDashboard(sessionId, false);
    // Out of order: the refund's webhook first (the payment is not linked to its PaymentIntent yet).
    expect(await stripe.deliver(refunded)).toBe(200);
    expect(await stripe.deliver(paid)).toBe(200);
    expect(await stripe.deliver(refunded)).toBe(200);
    expect(await stripe.deliver(paid)).toBe(200);
    const entries = await c.entries();
    expect(entries.map((e) => [e.action, e.amount.toString(), e.balanceAfter.toString()])).toEqual([
      ['credit', '25', '25'],
      ['refund', '-25', '0'],
    ]);
    expect(await server.db.payment.findUniqueOrThrow({ where: { id: paymentId } })).toMatchObject({ status: 'refunded' });
    expect(await c.credits()).toBe('0');
  });

  it('an operator refunds a paid top-up; admins cannot; a refund of a refunded payment is refused', async () => {
    const c = await company();
    const { paymentId, sessionId } = await c.topUp('15');
    await stripe.pay(sessionId);
    expect((await c.admin.attempt('operator.refund', { paymentId })).error).toMatchObject({ code: 'FORBIDDEN', message: OPERATOR_MESSAGES.notOperator });
    const ops = await c.attendant('Olga Operadora');
    await server.db.user.update({ where: { id: ops.userId }, data: { email: OPERATOR } });
    expect(await ops.call('operator.refund', { paymentId })).toMatchObject({ status: 'refunded', refundedAmount: '15' });
    expect((await ops.attempt('operator.refund', { paymentId })).error).toMatchObject({ code: 'CONFLICT', message: PAYMENT_MESSAGES.notRefundable });
    // Stripe's own charge.refunded webhook for it arrives later and writes nothing more.
    await until(async () => (await c.entries()).length === 2);
    expect(await c.credits()).toBe('0');
    expect(await sumOfStatement(c.company.id)).toBe(0);
  });

  it('refuses amounts that are not money and other companies’ payments', async () => {
    const c = await company();
    const other = await company();
    for (const amount of ['0', '-5', '1.234', 'abc', '100001', '1e3']) {
      expect((await c.admin.attempt('billing.topUp', { domain: c.domain, amount })).error, amount).toMatchObject({ code: 'BAD_REQUEST', message: `amount: ${PAYMENT_MESSAGES.amount}` });
    }
    const { paymentId } = await other.topUp('10');
    expect((await c.admin.attempt('billing.payment', { domain: c.domain, paymentId })).error).toMatchObject({ code: 'NOT_FOUND' });
    const attendant = await c.attendant('Ana Atendente');
    expect((await attendant.attempt('billing.topUp', { domain: c.domain, amount: '10' })).error).toMatchObject({ code: 'FORBIDDEN' });
  });
});

describe('no provider configured', () => {
  it('says payments are not set up', async () => {
    const bare = await startTestServer();
    try {
      const c = await serviceCompany(bare, sockets);
      expect(await c.admin.call('billing.paymentsStatus', { domain: c.domain }, 'query')).toEqual({ provider: null, currency: 'brl', cardForm: false });
      expect((await c.admin.attempt('billing.topUp', { domain: c.domain, amount: '10' })).error).toMatchObject({ code: 'PRECONDITION_FAILED', message: PAYMENT_MESSAGES.notSetUp });
      expect((await fetch(`${bare.url}/webhooks/payments/stripe`, { method: 'POST', body: '{}' })).status).toBe(404);
    } finally {
      await bare.close();
    }
  });
});
