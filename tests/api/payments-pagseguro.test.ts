/**
 * Top-ups through the PagSeguro adapter against a local PagSeguro-protocol server: a payment
 * credited once whatever the notifications repeat, a refused card, forged or unknown notification
 * codes (nothing credited), refunds from PagSeguro's panel and by an operator.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYMENT_MESSAGES } from '../../src/shared/schemas/billing';
import { startPagSeguroServer, type PagSeguroServer } from '../helpers/pagseguro-server';
import { serviceCompany, until, type ClientSocket } from '../helpers/service';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
let pagseguro: PagSeguroServer;
const sockets: ClientSocket[] = [];
const OPERATOR = 'ops-pagseguro@example.test';

beforeAll(async () => {
  pagseguro = await startPagSeguroServer();
  server = await startTestServer({ env: { ...pagseguro.env, OPERATOR_EMAILS: OPERATOR } });
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await server?.close();
  await pagseguro?.close();
});

async function company() {
  const c = await serviceCompany(server, sockets);
  const credits = async () => (await server.db.company.findUniqueOrThrow({ where: { id: c.company.id } })).credits.toString();
  const entries = () => server.db.statementEntry.findMany({ where: { companyId: c.company.id }, orderBy: { seq: 'asc' } });
  const topUp = async (amount: string) => {
    const res = await c.admin.call<{ paymentId: string; url: string }>('billing.topUp', { domain: c.domain, amount });
    const code = new URL(res.url).searchParams.get('code')!;
    return { ...res, code };
  };
  return { ...c, credits, entries, topUp };
}

const webhook = (body: string) =>
  fetch(`${server.url}/webhooks/payments/pagseguro`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body }).then((r) => r.status);

describe('pagseguro top-up', () => {
  it('credits once when paid, however often the notification comes', async () => {
    const c = await company();
    expect(await c.admin.call('billing.paymentsStatus', { domain: c.domain }, 'query')).toEqual({ provider: 'pagseguro', currency: 'brl', cardForm: true });
    const { paymentId, url, code } = await c.topUp('50.10');
    expect(url).toBe(`${pagseguro.url}/v2/checkout/payment.html?code=${code}`);
    // Our payment id is the reference; the amount went with two decimals; notifications come back to us.
    expect(pagseguro.checkouts.get(code)).toMatchObject({ reference: paymentId, amount: '50.10', currency: 'BRL', notificationURL: `${server.url}/webhooks/payments/pagseguro` });

    const { notification } = await pagseguro.pay(code);
    expect(pagseguro.deliveries.at(-1)).toEqual({ notificationCode: notification.notificationCode, status: 200 });
    expect(await c.credits()).toBe('50.1');
    // The same notification again, twice at once, then the return from the payment page.
    expect(await Promise.all([pagseguro.deliver(notification), pagseguro.deliver(notification)])).toEqual([200, 200]);
    expect(await c.admin.call('billing.payment', { domain: c.domain, paymentId })).toMatchObject({ status: 'paid', amount: '50.1' });
    const entries = await c.entries();
    expect(entries.map((e) => [e.action, e.amount.toString(), e.balanceAfter.toString(), e.paymentId])).toEqual([['credit', '50.1', '50.1', paymentId]]);
  });

  it('shows a refused card as failed and credits nothing; paying with another card credits once', async () => {
    const c = await company();
    const { paymentId, code } = await c.topUp('20');
    await pagseguro.decline(code);
    expect((await c.admin.call('billing.payments', { domain: c.domain }, 'query'))[0]).toMatchObject({ id: paymentId, status: 'failed', failureReason: 'Refused by the card issuer' });
    expect(await c.entries()).toHaveLength(0);

    const { notification } = await pagseguro.pay(code);
    await pagseguro.deliver(notification);
    expect(await c.credits()).toBe('20');
    expect((await c.admin.call('billing.payments', { domain: c.domain }, 'query'))[0]).toMatchObject({ status: 'paid', failureReason: null });
    expect(await c.entries()).toHaveLength(1);
  });

  it('refuses a notification code PagSeguro does not know, and credits nothing', async () => {
    const c = await company();
    const { paymentId, code } = await c.topUp('30');
    // Someone who read the reference (our payment id) tries to pass for PagSeguro.
    expect(await webhook(new URLSearchParams({ notificationCode: 'ABCDEF-0123456789AB-0123456789AB-ABCDEF', notificationType: 'transaction' }).toString())).toBe(400);
    expect(await webhook(new URLSearchParams({ notificationCode: paymentId, notificationType: 'transaction' }).toString())).toBe(400);
    expect(await webhook('notificationType=transaction')).toBe(400);
    expect(await webhook(JSON.stringify({ reference: paymentId, status: 3 }))).toBe(400);
    // A real code, but of another type than transactions.
    const { notification } = await pagseguro.pay(code, false);
    expect(await webhook(new URLSearchParams({ notificationCode: notification.notificationCode, notificationType: 'other' }).toString())).toBe(400);
    expect(await c.credits()).toBe('0');
    expect(await c.entries()).toHaveLength(0);
    expect((await server.db.payment.findUniqueOrThrow({ where: { id: paymentId } })).status).toBe('pending');
    // The real notification still works afterwards.
    expect(await pagseguro.deliver(notification)).toBe(200);
    expect(await c.credits()).toBe('30');
  });

  it('a refund in PagSeguro’s panel writes one debit entry, even when it is notified before the payment', async () => {
    const c = await company();
    const { paymentId, code } = await c.topUp('25');
    const paid = await pagseguro.pay(code, false);
    const refunded = await pagseguro.refundFromPanel(paid.transaction.code, false);
    expect(await pagseguro.deliver(refunded)).toBe(200);
    expect(await pagseguro.deliver(paid.notification)).toBe(200);
    expect(await pagseguro.deliver(refunded)).toBe(200);
    const entries = await c.entries();
    expect(entries.map((e) => [e.action, e.amount.toString(), e.balanceAfter.toString()])).toEqual([
      ['credit', '25', '25'],
      ['refund', '-25', '0'],
    ]);
    expect(await server.db.payment.findUniqueOrThrow({ where: { id: paymentId } })).toMatchObject({ status: 'refunded' });
    expect(await c.credits()).toBe('0');
  });

  it('an operator refunds a paid top-up through /v2/transactions/refunds; its notification writes nothing more', async () => {
    const c = await company();
    const { paymentId, code } = await c.topUp('15.99');
    const { transaction } = await pagseguro.pay(code);
    const ops = await c.attendant('Olga Operadora');
    await server.db.user.update({ where: { id: ops.userId }, data: { email: OPERATOR } });
    // The console lists the company's payments to pick from; admins of the company cannot.
    expect((await c.admin.attempt('operator.payments', { companyDomain: c.domain }, 'query')).error).toMatchObject({ code: 'FORBIDDEN' });
    expect(await ops.call('operator.payments', { companyDomain: c.domain }, 'query')).toMatchObject([{ id: paymentId, status: 'paid', amount: '15.99' }]);
    expect((await ops.attempt('operator.payments', { companyDomain: 'nosuchcompany' }, 'query')).error).toMatchObject({ code: 'NOT_FOUND' });
    expect(await ops.call('operator.refund', { paymentId })).toMatchObject({ status: 'refunded', refundedAmount: '15.99' });
    expect(pagseguro.transactions.get(transaction.code)!.status).toBe(6);
    expect((await ops.attempt('operator.refund', { paymentId })).error).toMatchObject({ code: 'CONFLICT', message: PAYMENT_MESSAGES.notRefundable });
    await until(() => pagseguro.deliveries.length > 0 && pagseguro.deliveries.filter((d) => pagseguro.notifications.get(d.notificationCode)?.transactionCode === transaction.code).length === 2);
    expect((await c.entries()).map((e) => e.amount.toString())).toEqual(['15.99', '-15.99']);
    expect(await c.credits()).toBe('0');
  });

  it('PagSeguro refusing the request (bad credentials) fails the top-up with the provider message', async () => {
    const broken = await startTestServer({ env: { ...pagseguro.env, PAGSEGURO_TOKEN: 'WRONG' } });
    try {
      const c = await serviceCompany(broken, sockets);
      expect((await c.admin.attempt('billing.topUp', { domain: c.domain, amount: '10' })).error).toMatchObject({ code: 'BAD_GATEWAY', message: PAYMENT_MESSAGES.providerDown });
      const [payment] = await broken.db.payment.findMany({ where: { companyId: c.company.id } });
      expect(payment).toMatchObject({ status: 'failed', failureReason: 'PagSeguro answered 401: Unauthorized' });
    } finally {
      await broken.close();
    }
  });
});
