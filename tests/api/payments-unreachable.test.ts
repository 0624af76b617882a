/**
 * The provider unreachable during a top-up, through each adapter against its local protocol
 * server: the checkout is made at the provider but its answer is lost (the connection drops). The
 * admin gets the clear "could not be reached" text (BAD_GATEWAY, never a 500), the payment row is
 * marked failed with the reason (not left pending forever) and nothing is credited. If the
 * customer pays that checkout anyway, its notification finds the payment by the metadata /
 * reference we gave, and credits it exactly once, however often it is delivered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYMENT_MESSAGES } from '../../src/shared/schemas/billing';
import { startPagSeguroServer, type PagSeguroServer } from '../helpers/pagseguro-server';
import { serviceCompany, type ClientSocket } from '../helpers/service';
import { startTestServer, type TestServer } from '../helpers/server';
import { startStripeServer, type StripeServer } from '../helpers/stripe-server';

const sockets: ClientSocket[] = [];
afterAll(() => {
  for (const s of sockets) s.disconnect();
});

async function company(server: TestServer) {
  const c = await serviceCompany(server, sockets);
  const credits = async () => (await server.db.company.findUniqueOrThrow({ where: { id: c.company.id } })).credits.toString();
  const entries = () => server.db.statementEntry.findMany({ where: { companyId: c.company.id }, orderBy: { seq: 'asc' } });
  const payments = () => server.db.payment.findMany({ where: { companyId: c.company.id } });
  return { ...c, credits, entries, payments };
}

/** The admin's top-up fails with the provider's-down text, and leaves one failed payment and no credit. */
async function failedTopUp(c: Awaited<ReturnType<typeof company>>, amount: string) {
  const { error } = await c.admin.attempt('billing.topUp', { domain: c.domain, amount });
  expect(error).toMatchObject({ code: 'BAD_GATEWAY', message: PAYMENT_MESSAGES.providerDown });
  const [payment, ...more] = await c.payments();
  expect(more).toEqual([]);
  expect(payment).toMatchObject({ status: 'failed', failureReason: expect.stringMatching(/\S/) });
  expect(await c.admin.call('billing.payments', { domain: c.domain }, 'query')).toMatchObject([{ id: payment!.id, status: 'failed' }]);
  expect(await c.credits()).toBe('0');
  expect(await c.entries()).toEqual([]);
  return payment!;
}

async function creditedOnce(c: Awaited<ReturnType<typeof company>>, paymentId: string, amount: string) {
  expect(await c.credits()).toBe(amount);
  const entries = await c.entries();
  expect(entries.map((e) => [e.action, e.amount.toString(), e.paymentId])).toEqual([['credit', amount, paymentId]]);
  expect(await c.admin.call('billing.payment', { domain: c.domain, paymentId })).toMatchObject({ status: 'paid', amount, failureReason: null });
}

describe('stripe unreachable during a top-up', () => {
  let server: TestServer;
  let stripe: StripeServer;
  beforeAll(async () => {
    stripe = await startStripeServer();
    server = await startTestServer({ env: stripe.env });
    stripe.setWebhookUrl(`${server.url}/webhooks/payments/stripe`);
  });
  afterAll(async () => {
    await server?.close();
    await stripe?.close();
  });

  it('tells the admin, marks the payment failed, and a later notification still credits once', async () => {
    const c = await company(server);
    // Every attempt of the SDK (it retries twice with the same idempotency key) loses its answer.
    stripe.dropCheckouts(10);
    const payment = await failedTopUp(c, '35.50');
    stripe.dropCheckouts(0);
    // The idempotency key made it one checkout at Stripe, whatever the retries.
    const made = [...stripe.sessions.values()].filter((s) => s.metadata.paymentId === payment.id);
    expect(made).toHaveLength(1);

    const paid = await stripe.pay(made[0]!.id);
    expect(stripe.deliveries.at(-1)).toEqual({ eventId: paid.id, status: 200 });
    await creditedOnce(c, payment.id, '35.5');
    expect(await Promise.all([stripe.deliver(paid), stripe.deliver(paid)])).toEqual([200, 200]);
    await creditedOnce(c, payment.id, '35.5');
    expect((await c.payments())[0]!.providerPaymentId).toBe(made[0]!.id);
  });

  it('Stripe down altogether: the clear text, a failed payment, nothing credited', async () => {
    const down = await startTestServer({ env: { ...stripe.env, STRIPE_API_URL: 'http://127.0.0.1:9' }, databaseUrl: server.databaseUrl });
    try {
      const admin = await serviceCompany(down, sockets);
      const { error } = await admin.admin.attempt('billing.topUp', { domain: admin.domain, amount: '10' });
      expect(error).toMatchObject({ code: 'BAD_GATEWAY', message: PAYMENT_MESSAGES.providerDown });
      expect(await down.db.payment.findMany({ where: { companyId: admin.company.id } })).toMatchObject([{ status: 'failed' }]);
      expect(await down.db.statementEntry.count({ where: { companyId: admin.company.id } })).toBe(0);
    } finally {
      await down.close();
    }
  });
});

describe('pagseguro unreachable during a top-up', () => {
  let server: TestServer;
  let pagseguro: PagSeguroServer;
  beforeAll(async () => {
    pagseguro = await startPagSeguroServer();
    server = await startTestServer({ env: pagseguro.env });
  });
  afterAll(async () => {
    await server?.close();
    await pagseguro?.close();
  });

  it('tells the admin, marks the payment failed, and a later notification still credits once', async () => {
    const c = await company(server);
    pagseguro.dropCheckouts(1);
    const payment = await failedTopUp(c, '12.34');
    const made = [...pagseguro.checkouts.values()].filter((k) => k.reference === payment.id);
    expect(made).toHaveLength(1);

    const { notification } = await pagseguro.pay(made[0]!.code);
    expect(pagseguro.deliveries.at(-1)).toEqual({ notificationCode: notification.notificationCode, status: 200 });
    await creditedOnce(c, payment.id, '12.34');
    expect(await Promise.all([pagseguro.deliver(notification), pagseguro.deliver(notification)])).toEqual([200, 200]);
    await creditedOnce(c, payment.id, '12.34');
  });
});
