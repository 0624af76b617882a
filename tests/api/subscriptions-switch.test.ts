/**
 * Changing plan while subscribed, through each provider's local protocol server: the admin buys
 * the new plan beside the active one; until it is paid the company keeps the old plan's flags and
 * the old subscription; once paid, the old one is cancelled at the provider (Stripe: DELETE
 * /v1/subscriptions/:id; PagSeguro: the v2 pre-approval cancellation), exactly once, and only the
 * new one is left to charge. The provider's own cancellation notice changes nothing more.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOBS } from '../../src/server/jobs';
import { PLAN_MESSAGES } from '../../src/shared/schemas/billing';
import { startPagSeguroServer, type PagSeguroServer } from '../helpers/pagseguro-server';
import { serviceCompany, until, type ClientSocket } from '../helpers/service';
import { startTestServer, type TestServer } from '../helpers/server';
import { startStripeServer, type StripeServer } from '../helpers/stripe-server';

const BASIC = { key: 'basic', name: 'Basic', monthlyPrice: '49.90', features: ['members', 'calls', 'forms'] };
const PRO = { key: 'pro', name: 'Pro', monthlyPrice: '149.99', features: ['members', 'calls', 'forms', 'kanban', 'whatsapp'] };
const sockets: ClientSocket[] = [];
afterAll(() => {
  for (const s of sockets) s.disconnect();
});

async function company(server: TestServer) {
  const c = await serviceCompany(server, sockets);
  const plan = async () => (await server.db.company.findUniqueOrThrow({ where: { id: c.company.id } })).plan as Record<string, number>;
  const subs = () => server.db.subscription.findMany({ where: { companyId: c.company.id }, orderBy: { createdAt: 'asc' } });
  const subscribe = (planKey: string) => c.admin.call<{ url: string }>('billing.subscribe', { domain: c.domain, planKey });
  return { ...c, plan, subs, subscribe };
}

async function withCatalogue(server: TestServer) {
  const ops = await serviceCompany(server, sockets);
  await server.db.operator.create({ data: { userId: ops.admin.userId } });
  await ops.admin.call('operator.setPlans', { plans: [BASIC, PRO] });
}

describe('changing plan through Stripe', () => {
  let server: TestServer;
  let stripe: StripeServer;
  beforeAll(async () => {
    stripe = await startStripeServer();
    server = await startTestServer({ env: stripe.env });
    stripe.setWebhookUrl(`${server.url}/webhooks/payments/stripe`);
    await withCatalogue(server);
  });
  afterAll(async () => {
    await server?.close();
    await stripe?.close();
  });
  const sessionOf = (url: string) => new URL(url).pathname.split('/').pop()!;

  it('cancels the old subscription at Stripe only once the new plan is paid, and switches the flags then', async () => {
    const c = await company(server);
    const first = sessionOf((await c.subscribe('basic')).url);
    await stripe.pay(first);
    const oldSub = stripe.sessions.get(first)!.subscription!;
    expect(await c.plan()).toMatchObject({ forms: 1, kanban: 0, whatsapp: 0 });

    // The same plan again is refused: it would be charged twice for the same thing.
    expect((await c.admin.attempt('billing.subscribe', { domain: c.domain, planKey: 'basic' })).error).toMatchObject({ code: 'CONFLICT', message: PLAN_MESSAGES.alreadyActive });

    const second = sessionOf((await c.subscribe('pro')).url);
    expect(stripe.sessions.get(second)).toMatchObject({ mode: 'subscription', amount_total: 14999 });
    // Not paid yet: the old plan, and its subscription, go on; nothing is cancelled.
    expect(await c.plan()).toMatchObject({ kanban: 0, whatsapp: 0 });
    expect(stripe.cancelled).toEqual([]);
    expect(await c.admin.call('billing.plans', { domain: c.domain }, 'query')).toMatchObject({ current: { planKey: 'basic', status: 'active' } });

    const paid = await stripe.pay(second);
    const newSub = stripe.sessions.get(second)!.subscription!;
    expect(stripe.cancelled).toEqual([oldSub]);
    expect(stripe.subscriptions.get(oldSub)!.status).toBe('canceled');
    expect(stripe.subscriptions.get(newSub)!.status).toBe('active');
    expect(await c.plan()).toMatchObject({ forms: 1, kanban: 1, whatsapp: 1 });
    expect((await c.subs()).map((s) => [s.planKey, s.status])).toEqual([
      ['basic', 'canceled'],
      ['pro', 'active'],
    ]);
    expect(await c.admin.call('billing.plans', { domain: c.domain }, 'query')).toMatchObject({ current: { planKey: 'pro', status: 'active' } });

    // Stripe's customer.subscription.deleted arrives (after its answer), and a replayed payment notice: nothing changes.
    await until(() => stripe.deliveries.some((d) => stripe.events.find((e) => e.id === d.eventId)?.type === 'customer.subscription.deleted'));
    expect(stripe.deliveries.filter((d) => d.status !== 200)).toEqual([]);
    expect(await stripe.deliver(paid)).toBe(200);
    expect(stripe.cancelled).toEqual([oldSub]);
    expect(await c.plan()).toMatchObject({ kanban: 1, whatsapp: 1 });
    expect(await c.admin.call('billing.subscription', { domain: c.domain }, 'query')).toMatchObject({ status: 'active', planBlocked: false });
  });

  it('a new plan that is never paid leaves the old one untouched', async () => {
    const c = await company(server);
    const first = sessionOf((await c.subscribe('pro')).url);
    await stripe.pay(first);
    const before = stripe.cancelled.length;
    const second = sessionOf((await c.subscribe('basic')).url);
    await stripe.expire(second);
    expect(stripe.cancelled.length).toBe(before);
    expect(await c.plan()).toMatchObject({ kanban: 1, whatsapp: 1 });
    expect((await c.subs()).map((s) => [s.planKey, s.status])).toEqual([
      ['pro', 'active'],
      ['basic', 'canceled'],
    ]);
  });
});

describe('changing plan through PagSeguro', () => {
  let server: TestServer;
  let pagseguro: PagSeguroServer;
  beforeAll(async () => {
    pagseguro = await startPagSeguroServer();
    server = await startTestServer({ env: pagseguro.env });
    await withCatalogue(server);
  });
  afterAll(async () => {
    await server?.close();
    await pagseguro?.close();
  });
  const codeOf = (url: string) => new URL(url).searchParams.get('code')!;

  it('cancels the old pre-approval only once the new one is accepted, and switches the flags then', async () => {
    const c = await company(server);
    const { preApproval: old } = await pagseguro.acceptPreApproval(codeOf((await c.subscribe('basic')).url));
    expect(await c.plan()).toMatchObject({ forms: 1, kanban: 0 });

    const request = codeOf((await c.subscribe('pro')).url);
    expect(pagseguro.preApprovalRequests.get(request)).toMatchObject({ amountPerPayment: '149.99' });
    expect(pagseguro.cancelled).toEqual([]);
    expect(await c.plan()).toMatchObject({ kanban: 0 });

    const { preApproval: fresh } = await pagseguro.acceptPreApproval(request);
    expect(pagseguro.cancelled).toEqual([old.code]);
    expect(pagseguro.preApprovals.get(old.code)!.status).toBe('CANCELLED');
    expect(pagseguro.preApprovals.get(fresh.code)!.status).toBe('ACTIVE');
    expect(await c.plan()).toMatchObject({ forms: 1, kanban: 1, whatsapp: 1 });
    expect((await c.subs()).map((s) => [s.planKey, s.status])).toEqual([
      ['basic', 'canceled'],
      ['pro', 'active'],
    ]);
    // PagSeguro's CANCELLED notice for the old pre-approval is acknowledged and changes nothing.
    const aboutOld = () => pagseguro.deliveries.filter((d) => pagseguro.notifications.get(d.notificationCode)?.transactionCode === old.code);
    await until(() => aboutOld().length === 2);
    expect(aboutOld().map((d) => d.status)).toEqual([200, 200]);
    expect(await c.plan()).toMatchObject({ kanban: 1, whatsapp: 1 });
    expect(await c.admin.call('billing.subscription', { domain: c.domain }, 'query')).toMatchObject({ status: 'active', planBlocked: false });
  });

  it('credits the unused days of the old plan once, as a statement entry, and the balance follows', async () => {
    const c = await company(server);
    await server.db.company.update({ where: { id: c.company.id }, data: { credits: '5' } });
    const { preApproval: old } = await pagseguro.acceptPreApproval(codeOf((await c.subscribe('basic')).url));
    // Basic was paid 10 days and 1 hour ago.
    const paidAt = new Date(Date.now() - 10 * 86_400_000 - 3_600_000);
    await server.db.subscription.updateMany({ where: { companyId: c.company.id, planKey: 'basic' }, data: { activeSince: paidAt } });
    const { notification } = await pagseguro.acceptPreApproval(codeOf((await c.subscribe('pro')).url));
    expect(pagseguro.cancelled).toContain(old.code);

    // Computed here independently: the period is the calendar month from the day Basic was paid.
    const end = new Date(paidAt);
    end.setUTCMonth(end.getUTCMonth() + 1);
    const days = Math.round((end.getTime() - paidAt.getTime()) / 86_400_000);
    const expected = (Math.round((4990 * (days - 10)) / days) / 100).toFixed(2);
    const entries = () => server.db.statementEntry.findMany({ where: { companyId: c.company.id }, orderBy: { seq: 'asc' } });
    expect((await entries()).map((e) => [e.action, e.name, e.amount.toFixed(2), e.balanceAfter.toFixed(2)])).toEqual([['proration', 'Basic', expected, (5 + Number(expected)).toFixed(2)]]);
    expect((await server.db.company.findUniqueOrThrow({ where: { id: c.company.id } })).credits.toFixed(2)).toBe((5 + Number(expected)).toFixed(2));

    // The statement the admin reads shows it; the same notice again, PagSeguro's cancellation
    // notice and a re-query write nothing more.
    const statement = await c.admin.call<{ entries: { action: string; amount: string; name: string }[] }>('billing.statement', { domain: c.domain, limit: 10 }, 'query');
    expect(statement.entries.map((e) => [e.action, e.name, Number(e.amount).toFixed(2)])).toEqual([['proration', 'Basic', expected]]);
    expect(await pagseguro.deliver(notification)).toBe(200);
    await until(() => pagseguro.deliveries.filter((d) => pagseguro.notifications.get(d.notificationCode)?.transactionCode === old.code).length === 2);
    await JOBS.find((j) => j.name.startsWith('query unpaid plan subscriptions'))!.run(server.server.deps);
    expect(await entries()).toHaveLength(1);
  });

  it('an exempt company switching plans gets no proration entry (it was never charged)', async () => {
    const c = await company(server);
    await pagseguro.acceptPreApproval(codeOf((await c.subscribe('basic')).url));
    const request = codeOf((await c.subscribe('pro')).url);
    // Made exempt (isentarCobranca) by the operator after subscribing.
    await server.db.company.update({ where: { id: c.company.id }, data: { billingExempt: true } });
    await pagseguro.acceptPreApproval(request);
    expect((await c.subs()).map((s) => s.status)).toEqual(['canceled', 'active']);
    expect(await server.db.statementEntry.count({ where: { companyId: c.company.id } })).toBe(0);
    expect((await server.db.company.findUniqueOrThrow({ where: { id: c.company.id } })).credits.toString()).toBe('0');
  });

  it('a cancellation PagSeguro could not take is retried by the periodic re-query', async () => {
    const c = await company(server);
    const { preApproval: old } = await pagseguro.acceptPreApproval(codeOf((await c.subscribe('basic')).url));
    const request = codeOf((await c.subscribe('pro')).url);
    // Accepted without the notice reaching us; then the old one is already gone at PagSeguro when we ask.
    const { notification } = await pagseguro.acceptPreApproval(request, false);
    const original = pagseguro.preApprovals.get(old.code)!;
    const saved = { ...original };
    pagseguro.preApprovals.delete(old.code); // PagSeguro answering 404: the cancel fails
    expect(await pagseguro.deliver(notification)).toBe(200);
    expect((await c.subs()).map((s) => s.status)).toEqual(['active', 'active']);
    expect(await c.plan()).toMatchObject({ kanban: 1 });

    pagseguro.preApprovals.set(old.code, saved);
    await JOBS.find((j) => j.name.startsWith('query unpaid plan subscriptions'))!.run(server.server.deps);
    expect((await c.subs()).map((s) => [s.planKey, s.status])).toEqual([
      ['basic', 'canceled'],
      ['pro', 'active'],
    ]);
    expect(pagseguro.cancelled.filter((code) => code === old.code)).toEqual([old.code]);
    // Retired late, credited once: the whole Basic price (switched the day it was paid).
    expect((await server.db.statementEntry.findMany({ where: { companyId: c.company.id } })).map((e) => [e.action, e.amount.toFixed(2)])).toEqual([['proration', '49.90']]);
  });
});
