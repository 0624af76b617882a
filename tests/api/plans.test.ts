/**
 * The plan catalogue: operators edit it (audited, validated, exact prices); admins see it and
 * subscribe to one plan through the provider's checkout; the company's plan flags change only
 * when the subscription is paid, to what was bought even if the catalogue changed since.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAN_MESSAGES } from '../../src/shared/schemas/billing';
import { OPERATOR_MESSAGES } from '../../src/shared/schemas/operator';
import { serviceCompany, type ClientSocket } from '../helpers/service';
import { startTestServer, type TestServer } from '../helpers/server';
import { startStripeServer, type StripeServer } from '../helpers/stripe-server';

let server: TestServer;
let stripe: StripeServer;
const sockets: ClientSocket[] = [];

const BASIC = { key: 'basic', name: 'Basic', monthlyPrice: '49.90', features: ['members', 'calls', 'forms'] };
const PRO = { key: 'pro', name: 'Pro', monthlyPrice: '149.99', features: ['members', 'calls', 'forms', 'transc', 'whatsapp', 'calendar', 'sla'] };

beforeAll(async () => {
  stripe = await startStripeServer();
  server = await startTestServer({ env: stripe.env });
  stripe.setWebhookUrl(`${server.url}/webhooks/payments/stripe`);
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await server?.close();
  await stripe?.close();
});

async function withOperator() {
  const c = await serviceCompany(server, sockets);
  const ops = await c.attendant('Otto Operador');
  // Granted like `npm run operator -- grant` does.
  await server.db.operator.create({ data: { userId: ops.userId } });
  const plan = async () => (await server.db.company.findUniqueOrThrow({ where: { id: c.company.id } })).plan as Record<string, number>;
  return { ...c, ops, plan };
}

describe('plan catalogue', () => {
  it('is edited by operators only, validated, audited, and read by admins', async () => {
    const c = await withOperator();
    expect((await c.admin.attempt('operator.setPlans', { plans: [BASIC] })).error).toMatchObject({ code: 'FORBIDDEN', message: OPERATOR_MESSAGES.notOperator });
    const bad: [unknown, string][] = [
      [{ ...BASIC, monthlyPrice: '49.999' }, PLAN_MESSAGES.price],
      [{ ...BASIC, monthlyPrice: '4.99e1' }, PLAN_MESSAGES.price],
      [{ ...BASIC, monthlyPrice: '0.50' }, PLAN_MESSAGES.price],
      [{ ...BASIC, key: 'Basic Plan' }, PLAN_MESSAGES.key],
      [{ ...BASIC, name: ' ' }, PLAN_MESSAGES.name],
    ];
    for (const [plan, message] of bad) {
      expect((await c.ops.attempt('operator.setPlans', { plans: [plan] })).error, JSON.stringify(plan)).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining(message) });
    }
    expect((await c.ops.attempt('operator.setPlans', { plans: [BASIC, { ...PRO, key: 'basic' }] })).error).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining(PLAN_MESSAGES.duplicate) });
    expect((await c.ops.attempt('operator.setPlans', { plans: [{ ...BASIC, features: ['calls', 'teleport'] }] })).error).toMatchObject({ code: 'BAD_REQUEST' });

    expect(await c.ops.call('operator.setPlans', { plans: [BASIC, PRO] })).toEqual([BASIC, PRO]);
    expect(await c.ops.call('operator.plans', undefined, 'query')).toEqual([BASIC, PRO]);
    const [audit] = await c.ops.call<{ action: string; before: Record<string, string>; after: Record<string, string> }[]>('operator.audit', { limit: 1 }, 'query');
    expect(audit).toMatchObject({ action: 'plans', after: { plans: 'basic: Basic, 49.90, members calls forms | pro: Pro, 149.99, members calls forms transc whatsapp calendar sla' } });
    // The prices document keeps its per-minute prices beside the plans.
    expect(await c.ops.call('operator.prices', undefined, 'query')).toMatchObject({ translatePerChar: expect.any(String) });

    expect(await c.admin.call('billing.plans', { domain: c.domain }, 'query')).toEqual({ plans: [BASIC, PRO], current: null });
    const member = await c.attendant('Mara Membro');
    expect((await member.attempt('billing.plans', { domain: c.domain }, 'query')).error).toMatchObject({ code: 'FORBIDDEN' });
  });

  it('subscribing to a plan sets the company’s plan flags when paid, to the plan as bought', async () => {
    const c = await withOperator();
    await c.ops.call('operator.setPlans', { plans: [BASIC, PRO] });
    expect((await c.admin.attempt('billing.subscribe', { domain: c.domain })).error).toMatchObject({ code: 'BAD_REQUEST', message: PLAN_MESSAGES.choose });
    expect((await c.admin.attempt('billing.subscribe', { domain: c.domain, planKey: 'gold' })).error).toMatchObject({ code: 'NOT_FOUND', message: PLAN_MESSAGES.notFound });

    const before = await c.plan();
    const { url } = await c.admin.call<{ url: string }>('billing.subscribe', { domain: c.domain, planKey: 'pro' });
    const sessionId = new URL(url).pathname.split('/').pop()!;
    // The monthly price, exact, in cents; recurring every month.
    expect(stripe.sessions.get(sessionId)).toMatchObject({ mode: 'subscription', amount_total: 14999, currency: 'brl', recurring: { interval: 'month' }, metadata: { planKey: 'pro' } });
    // The operator changes the catalogue before the customer pays: the company still gets what it chose.
    await c.ops.call('operator.setPlans', { plans: [BASIC, { ...PRO, features: ['calls'] }] });
    expect(await c.plan()).toEqual(before);

    const paid = await stripe.pay(sessionId);
    const plan = await c.plan();
    for (const f of PRO.features) expect(plan[f], f).toBe(1);
    for (const f of ['intmail', 'kanban', 'translate', 'cmdb', 'voipRecorder']) expect(plan[f], f).toBe(0);
    expect(await c.admin.call('billing.plans', { domain: c.domain }, 'query')).toMatchObject({ current: { planKey: 'pro', planName: 'Pro', monthlyPrice: '149.99', status: 'active' } });
    // While it is active, the same plan again (charged beside the first) is refused; another plan is a switch (subscriptions-switch.test.ts).
    expect((await c.admin.attempt('billing.subscribe', { domain: c.domain, planKey: 'pro' })).error).toMatchObject({ code: 'CONFLICT', message: PLAN_MESSAGES.alreadyActive });
    // The same notification again changes nothing more.
    await server.db.company.update({ where: { id: c.company.id }, data: { plan: { ...plan, size: 5 } } });
    expect(await stripe.deliver(paid)).toBe(200);
    expect(await c.plan()).toEqual({ ...plan, size: 5 });
  });

  it('with no catalogue, subscribing still uses the configured plan price (STRIPE_PLAN_PRICE)', async () => {
    const c = await withOperator();
    await c.ops.call('operator.setPlans', { plans: [] });
    const bare = await startTestServer({ env: { ...stripe.env, STRIPE_PLAN_PRICE: 'price_test_plan' }, databaseUrl: server.databaseUrl });
    try {
      const d = await serviceCompany(bare, sockets);
      const { url } = await d.admin.call<{ url: string }>('billing.subscribe', { domain: d.domain });
      expect(stripe.sessions.get(new URL(url).pathname.split('/').pop()!)).toMatchObject({ price: 'price_test_plan' });
    } finally {
      await bare.close();
    }
  });
});
