/**
 * PagSeguro's transparent checkout against the local PagSeguro-protocol server: a session for the
 * DirectPayment script, a card token and sender hash made as the script makes them (on PagSeguro's
 * side), the payment created by us with `POST /v2/transactions` and credited once, whatever the
 * notifications repeat; a refused card; forged notifications; a card number never accepted by us.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYMENT_MESSAGES } from '../../src/shared/schemas/billing';
import { startPagSeguroServer, TEST_CARDS, type PagSeguroServer } from '../helpers/pagseguro-server';
import { serviceCompany, until, type ClientSocket } from '../helpers/service';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
let pagseguro: PagSeguroServer;
const sockets: ClientSocket[] = [];

const BASIC = { key: 'basic', name: 'Basic', monthlyPrice: '49.90', features: ['members', 'calls', 'forms'] };
const PRO = { key: 'pro', name: 'Pro', monthlyPrice: '149.99', features: ['members', 'calls', 'forms', 'kanban', 'whatsapp'] };

beforeAll(async () => {
  pagseguro = await startPagSeguroServer();
  server = await startTestServer({ env: pagseguro.env });
  pagseguro.setNotificationUrl(`${server.url}/webhooks/payments/pagseguro`);
  const ops = await serviceCompany(server, sockets);
  await server.db.operator.create({ data: { userId: ops.admin.userId } });
  await ops.admin.call('operator.setPlans', { plans: [BASIC, PRO] });
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await server?.close();
  await pagseguro?.close();
});

const HOLDER = { name: 'Ana Pagadora', cpf: '123.456.789-09', birthDate: '07/03/1985', areaCode: '11', phone: '98765-4321' };
const BILLING = { street: 'Av. Paulista', number: '1000', district: 'Bela Vista', postalCode: '01310-100', city: 'São Paulo', state: 'SP' };

async function company() {
  const c = await serviceCompany(server, sockets);
  const credits = async () => (await server.db.company.findUniqueOrThrow({ where: { id: c.company.id } })).credits.toString();
  const entries = () => server.db.statementEntry.findMany({ where: { companyId: c.company.id }, orderBy: { seq: 'asc' } });
  /** What /i/recarga does: a session, the script's token and hash, then our payment. */
  const payByCard = async (amount: string, number: string) => {
    const session = await c.admin.call<{ sessionId: string; scriptUrl: string }>('billing.cardSession', { domain: c.domain });
    const { cardToken, senderHash } = await pagseguro.tokenize(session.sessionId, number);
    const input = { domain: c.domain, amount, cardToken, senderHash, holder: HOLDER, billing: BILLING };
    return { input, result: await c.admin.attempt('billing.payByCard', input) };
  };
  const paymentRow = (id: string) => server.db.payment.findUniqueOrThrow({ where: { id } });
  return { ...c, credits, entries, payByCard, paymentRow };
}

const webhook = (body: string) =>
  fetch(`${server.url}/webhooks/payments/pagseguro`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body }).then((r) => r.status);
const notificationsOf = (transactionCode: string) => [...pagseguro.notifications.values()].filter((n) => n.transactionCode === transactionCode);

describe('pagseguro transparent checkout', () => {
  it('gives a session and the DirectPayment script the page loads', async () => {
    const c = await company();
    expect(await c.admin.call('billing.paymentsStatus', { domain: c.domain }, 'query')).toEqual({ provider: 'pagseguro', currency: 'brl', cardForm: true });
    const session = await c.admin.call<{ sessionId: string; scriptUrl: string }>('billing.cardSession', { domain: c.domain });
    expect(pagseguro.sessions.has(session.sessionId)).toBe(true);
    expect(session.scriptUrl).toBe(`${pagseguro.url}/pagseguro/api/v2/checkout/pagseguro.directpayment.js`);
    const script = await fetch(session.scriptUrl).then((r) => r.text());
    expect(script).toContain('PagSeguroDirectPayment');
    // Members who are not admins cannot pay nor open sessions.
    const member = await c.attendant('Bia Atendente');
    expect((await member.attempt('billing.cardSession', { domain: c.domain })).error).toMatchObject({ code: 'FORBIDDEN' });
  });

  it('pays by card and credits once, however often the notification comes', async () => {
    const c = await company();
    const { result } = await c.payByCard('75.50', TEST_CARDS.approved);
    expect(result.error).toBeUndefined();
    const paymentId = result.data!.id;
    // What PagSeguro received: the token, the hash, one installment of the whole amount, our id as the reference.
    const sent = pagseguro.cardPayments.find((p) => p.reference === paymentId)!;
    expect(sent).toMatchObject({ paymentMethod: 'creditCard', paymentMode: 'default', itemAmount1: '75.50', installmentQuantity: '1', installmentValue: '75.50', senderCPF: '12345678909', billingAddressPostalCode: '01310100', notificationURL: `${server.url}/webhooks/payments/pagseguro` });
    expect(Object.values(sent).join(' ')).not.toContain(TEST_CARDS.approved);

    const row = await c.paymentRow(paymentId);
    await until(async () => (await c.credits()) === '75.5');
    const [note] = notificationsOf(row.providerRef!);
    await until(() => pagseguro.deliveries.some((d) => d.notificationCode === note!.notificationCode));
    // The notification again, twice at once, and the page asking: nothing more.
    expect(await Promise.all([pagseguro.deliver(note!), pagseguro.deliver(note!)])).toEqual([200, 200]);
    expect(await c.admin.call('billing.payment', { domain: c.domain, paymentId })).toMatchObject({ status: 'paid', amount: '75.5' });
    expect((await c.entries()).map((e) => [e.action, e.amount.toString(), e.balanceAfter.toString(), e.paymentId])).toEqual([['credit', '75.5', '75.5', paymentId]]);
    const statement = await c.admin.call<{ entries: { action: string; amount: string }[] }>('billing.statement', { domain: c.domain, limit: 10 }, 'query');
    expect(statement.entries.map((e) => [e.action, e.amount])).toEqual([['credit', '75.5']]);
  });

  it('a card refused by its issuer shows as failed and credits nothing', async () => {
    const c = await company();
    const { result } = await c.payByCard('40', TEST_CARDS.refused);
    const paymentId = result.data!.id;
    await until(async () => (await c.paymentRow(paymentId)).status === 'failed');
    expect(await c.admin.call('billing.payment', { domain: c.domain, paymentId })).toMatchObject({ status: 'failed', failureReason: 'Refused by the card issuer' });
    expect(await c.entries()).toHaveLength(0);
    expect(await c.credits()).toBe('0');
  });

  it('a token used twice, or made up, is refused by PagSeguro: the payment fails with a clear message', async () => {
    const c = await company();
    const { input, result } = await c.payByCard('10', TEST_CARDS.approved);
    expect(result.error).toBeUndefined();
    const again = await c.admin.attempt('billing.payByCard', input);
    expect(again.error).toMatchObject({ code: 'BAD_REQUEST', message: PAYMENT_MESSAGES.cardRefused });
    const madeUp = await c.admin.attempt('billing.payByCard', { ...input, cardToken: 'f'.repeat(32) });
    expect(madeUp.error).toMatchObject({ code: 'BAD_REQUEST', message: PAYMENT_MESSAGES.cardRefused });
    const rows = await server.db.payment.findMany({ where: { companyId: c.company.id }, orderBy: { createdAt: 'asc' } });
    expect(rows.map((r) => r.status)).toEqual([expect.stringMatching(/pending|paid/), 'failed', 'failed']);
    expect(rows[1]!.failureReason).toContain('53037');
    await until(async () => (await c.credits()) === '10');
  });

  it('never takes a card number, and bad details get the spec-style message, not a 500', async () => {
    const c = await company();
    const session = await c.admin.call<{ sessionId: string }>('billing.cardSession', { domain: c.domain });
    const { cardToken, senderHash } = await pagseguro.tokenize(session.sessionId, TEST_CARDS.approved);
    const base = { domain: c.domain, amount: '10', cardToken, senderHash, holder: HOLDER, billing: BILLING };
    const withNumber = await c.admin.attempt('billing.payByCard', { ...base, cardNumber: TEST_CARDS.approved, cvv: '123' });
    expect(withNumber.error).toMatchObject({ code: 'BAD_REQUEST' });
    const badCpf = await c.admin.attempt('billing.payByCard', { ...base, holder: { ...HOLDER, cpf: '12' } });
    expect(badCpf.error).toMatchObject({ code: 'BAD_REQUEST', message: `holder.cpf: ${PAYMENT_MESSAGES.cardDetails}` });
    const badAmount = await c.admin.attempt('billing.payByCard', { ...base, amount: '0.001' });
    expect(badAmount.error).toMatchObject({ code: 'BAD_REQUEST', message: `amount: ${PAYMENT_MESSAGES.amount}` });
    expect(await server.db.payment.count({ where: { companyId: c.company.id } })).toBe(0);
  });

  it('refuses forged notifications and credits nothing; the real one credits once', async () => {
    const c = await company();
    pagseguro.holdCardPayments(true);
    let paymentId: string;
    try {
      const { result } = await c.payByCard('33.33', TEST_CARDS.approved);
      expect(result.data).toMatchObject({ status: 'pending' });
      paymentId = result.data!.id;
    } finally {
      pagseguro.holdCardPayments(false);
    }
    const row = await c.paymentRow(paymentId);
    const note = await pagseguro.releaseCardPayment(row.providerRef!, false);
    // Someone who knows our payment id or the transaction code tries to pass for PagSeguro.
    expect(await webhook(new URLSearchParams({ notificationCode: 'ABCDEF-0123456789AB-0123456789AB-ABCDEF', notificationType: 'transaction' }).toString())).toBe(400);
    expect(await webhook(new URLSearchParams({ notificationCode: row.providerRef!, notificationType: 'transaction' }).toString())).toBe(400);
    expect(await webhook(new URLSearchParams({ notificationCode: paymentId, notificationType: 'transaction' }).toString())).toBe(400);
    expect(await webhook(JSON.stringify({ reference: paymentId, status: 3 }))).toBe(400);
    expect(await c.credits()).toBe('0');
    expect(await c.entries()).toHaveLength(0);
    expect((await c.paymentRow(paymentId)).status).toBe('pending');
    expect(await pagseguro.deliver(note)).toBe(200);
    expect(await pagseguro.deliver(note)).toBe(200);
    expect(await c.credits()).toBe('33.33');
    expect(await c.entries()).toHaveLength(1);
  });
});

describe('pagseguro plan paid by card on our page', () => {
  async function subscriber() {
    const c = await company();
    const plan = async () => (await server.db.company.findUniqueOrThrow({ where: { id: c.company.id } })).plan as Record<string, number>;
    const subs = () => server.db.subscription.findMany({ where: { companyId: c.company.id }, orderBy: { createdAt: 'asc' } });
    const subscribe = async (planKey: string, number: string) => {
      const session = await c.admin.call<{ sessionId: string }>('billing.cardSession', { domain: c.domain });
      const { cardToken, senderHash } = await pagseguro.tokenize(session.sessionId, number);
      return c.admin.attempt('billing.subscribeByCard', { domain: c.domain, planKey, cardToken, senderHash, holder: HOLDER, billing: BILLING });
    };
    return { ...c, plan, subs, subscribe };
  }

  it('subscribes with a card token, applies the plan once active, and a switch by card credits the unused days', async () => {
    const c = await subscriber();
    const first = await c.subscribe('basic', TEST_CARDS.approved);
    expect(first.error).toBeUndefined();
    const adhesion = pagseguro.adhesions.at(-1)!;
    expect(adhesion).toMatchObject({ paymentMethod: { type: 'CREDITCARD' }, sender: { documents: [{ type: 'CPF', value: '12345678909' }] } });
    expect(JSON.stringify(adhesion)).not.toContain(TEST_CARDS.approved);
    expect(pagseguro.recurringPlans.get(adhesion.plan)).toMatchObject({ amountPerPayment: '49.90', period: 'MONTHLY', charge: 'AUTO' });
    await until(async () => (await c.subs()).some((s) => s.status === 'active'));
    expect(await c.plan()).toMatchObject({ forms: 1, kanban: 0 });
    expect(await c.admin.call('billing.plans', { domain: c.domain }, 'query')).toMatchObject({ current: { planKey: 'basic', status: 'active' } });

    const second = await c.subscribe('pro', TEST_CARDS.approved);
    expect(second.error).toBeUndefined();
    await until(async () => (await c.subs()).map((s) => s.status).join() === 'canceled,active');
    expect(await c.plan()).toMatchObject({ kanban: 1, whatsapp: 1 });
    // Switched the day Basic was paid: its whole price comes back, once.
    await until(async () => (await c.entries()).length === 1);
    expect((await c.entries()).map((e) => [e.action, e.name, e.amount.toString()])).toEqual([['proration', 'Basic', '49.9']]);
    expect(pagseguro.cancelled).toContain((await c.subs())[0]!.providerSubscriptionId);
  });

  it('a card refused on the first charge leaves no plan; the same plan again is refused while active', async () => {
    const c = await subscriber();
    expect((await c.subscribe('pro', TEST_CARDS.refused)).error).toBeUndefined();
    await until(async () => (await c.subs()).every((s) => s.status === 'canceled'));
    expect(await c.plan()).not.toMatchObject({ kanban: 1 });
    expect((await c.subscribe('pro', TEST_CARDS.approved)).error).toBeUndefined();
    await until(async () => (await c.subs()).some((s) => s.status === 'active'));
    const again = await c.subscribe('pro', TEST_CARDS.approved);
    expect(again.error).toMatchObject({ code: 'CONFLICT' });
    const bad = await c.admin.attempt('billing.subscribeByCard', { domain: c.domain, planKey: 'basic', cardToken: 'f'.repeat(32), senderHash: 'a'.repeat(64), holder: HOLDER, billing: BILLING });
    expect(bad.error).toMatchObject({ code: 'BAD_REQUEST', message: PAYMENT_MESSAGES.cardRefused });
  });
});
