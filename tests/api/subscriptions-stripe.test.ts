/**
 * The plan subscription through the Stripe adapter: subscribe at the checkout, a renewal refused
 * (past_due) keeps the plan during the grace period, past it the plan is blocked (by the next
 * notification or the periodic re-query), paying clears it; exempt companies are never blocked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offsetClock } from '../../src/server/clock';
import { JOBS } from '../../src/server/jobs';
import { PAYMENT_MESSAGES } from '../../src/shared/schemas/billing';
import { serviceCompany, type ClientSocket } from '../helpers/service';
import { startTestServer, type TestServer } from '../helpers/server';
import { startStripeServer, type StripeServer } from '../helpers/stripe-server';

let server: TestServer;
let stripe: StripeServer;
const clock = offsetClock();
const sockets: ClientSocket[] = [];
const DAY = 86_400_000;

beforeAll(async () => {
  stripe = await startStripeServer();
  server = await startTestServer({ env: { ...stripe.env, STRIPE_PLAN_PRICE: 'price_test_plan', PLAN_GRACE_DAYS: '3' }, clock });
  stripe.setWebhookUrl(`${server.url}/webhooks/payments/stripe`);
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await server?.close();
  await stripe?.close();
});

const requery = () => JOBS.find((j) => j.name.startsWith('query unpaid plan subscriptions'))!.run(server.server.deps);

async function subscribed() {
  const c = await serviceCompany(server, sockets);
  const { url } = await c.admin.call('billing.subscribe', { domain: c.domain });
  const sessionId = new URL(url).pathname.split('/').pop()!;
  expect(stripe.sessions.get(sessionId)).toMatchObject({ mode: 'subscription' });
  await stripe.pay(sessionId);
  const subId = stripe.sessions.get(sessionId)!.subscription!;
  const blocked = async () => (await server.db.company.findUniqueOrThrow({ where: { id: c.company.id } })).planBlocked;
  const state = () => c.admin.call('billing.subscription', { domain: c.domain }, 'query');
  return { ...c, subId, blocked, state };
}

describe('plan subscription', () => {
  it('goes from active to blocked after the grace period and back when paid', async () => {
    const c = await subscribed();
    expect(await c.state()).toMatchObject({ status: 'active', planBlocked: false });

    const failed = await stripe.renew(c.subId, 'failed');
    expect(await c.state()).toMatchObject({ status: 'past_due', planBlocked: false });
    // The same notification again, two days later: still within the grace period.
    clock.advance(2 * DAY);
    await stripe.deliver(failed);
    expect(await c.blocked()).toBe(false);

    // Past the grace period, with no notification at all: the periodic re-query blocks the plan.
    clock.advance(1.5 * DAY);
    expect(await requery()).toBeGreaterThanOrEqual(1);
    expect(await c.state()).toMatchObject({ status: 'past_due', planBlocked: true });
    // The existing blocked-plan behaviour follows (admins-only mode).
    const ana = await c.attendant('Ana');
    expect(await ana.call('company.current', { domain: c.domain }, 'query')).toMatchObject({ planBlocked: true, blocked: { reason: 'planBlocked' } });

    await stripe.renew(c.subId, 'paid');
    expect(await c.state()).toMatchObject({ status: 'active', planBlocked: false, unpaidSince: null });
    expect(await ana.call('company.current', { domain: c.domain }, 'query')).toMatchObject({ planBlocked: false, blocked: null });
  });

  it('a forged renewal notice changes nothing', async () => {
    const c = await subscribed();
    const event = await stripe.renew(c.subId, 'failed', false);
    expect(await stripe.deliver(event, { secret: 'whsec_wrong' })).toBe(400);
    expect(await c.state()).toMatchObject({ status: 'active' });
  });

  it('exempt companies cannot subscribe and are never blocked', async () => {
    const c = await subscribed();
    await server.db.company.update({ where: { id: c.company.id }, data: { billingExempt: true } });
    await stripe.renew(c.subId, 'unpaid');
    clock.advance(10 * DAY);
    await requery();
    expect(await c.blocked()).toBe(false);
    expect((await c.admin.attempt('billing.subscribe', { domain: c.domain })).error).toMatchObject({ code: 'CONFLICT', message: PAYMENT_MESSAGES.exempt });
  });
});
