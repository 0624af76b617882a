/**
 * Plans through PagSeguro pre-approvals against the local PagSeguro-protocol server: the admin
 * chooses a plan of the catalogue, accepts the monthly automatic charge on PagSeguro's page, the
 * plan's flags apply; a suspended pre-approval (a refused charge) blocks the plan after the grace
 * period and an active one clears it; an unknown notification code changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offsetClock } from '../../src/server/clock';
import { JOBS } from '../../src/server/jobs';
import { startPagSeguroServer, type PagSeguroServer } from '../helpers/pagseguro-server';
import { serviceCompany, type ClientSocket } from '../helpers/service';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
let pagseguro: PagSeguroServer;
const clock = offsetClock();
const sockets: ClientSocket[] = [];
const DAY = 86_400_000;
const PRO = { key: 'pro', name: 'Pro', monthlyPrice: '149.9', features: ['members', 'calls', 'forms', 'kanban'] };

beforeAll(async () => {
  pagseguro = await startPagSeguroServer();
  server = await startTestServer({ env: { ...pagseguro.env, PLAN_GRACE_DAYS: '3' }, clock });
  const ops = await serviceCompany(server, sockets);
  await server.db.operator.create({ data: { userId: ops.admin.userId } });
  await ops.admin.call('operator.setPlans', { plans: [PRO] });
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await server?.close();
  await pagseguro?.close();
});

const requery = () => JOBS.find((j) => j.name.startsWith('query unpaid plan subscriptions'))!.run(server.server.deps);

describe('pagseguro plan subscription', () => {
  it('applies the plan when accepted, blocks it past the grace period when suspended, and clears it when active again', async () => {
    const c = await serviceCompany(server, sockets);
    const state = () => c.admin.call('billing.subscription', { domain: c.domain }, 'query');
    const company = () => server.db.company.findUniqueOrThrow({ where: { id: c.company.id } });
    const { url } = await c.admin.call<{ url: string }>('billing.subscribe', { domain: c.domain, planKey: 'pro' });
    const requestCode = new URL(url).searchParams.get('code')!;
    expect(url).toBe(`${pagseguro.url}/v2/pre-approvals/request.html?code=${requestCode}`);
    expect(pagseguro.preApprovalRequests.get(requestCode)).toMatchObject({ amountPerPayment: '149.90', period: 'MONTHLY', charge: 'auto', name: 'Pro' });
    expect((await company()).plan).not.toMatchObject({ kanban: 1 });

    const { preApproval, notification } = await pagseguro.acceptPreApproval(requestCode);
    expect(pagseguro.deliveries.at(-1)).toEqual({ notificationCode: notification.notificationCode, status: 200 });
    expect(await state()).toMatchObject({ status: 'active', planBlocked: false });
    expect((await company()).plan).toMatchObject({ kanban: 1, calls: 1, whatsapp: 0 });
    expect(await server.db.subscription.findFirstOrThrow({ where: { companyId: c.company.id } })).toMatchObject({ providerSubscriptionId: preApproval.code, planKey: 'pro' });
    expect((await server.db.subscription.findFirstOrThrow({ where: { companyId: c.company.id } })).monthlyPrice!.toString()).toBe('149.9');

    // A charge refused: PagSeguro suspends the pre-approval; within the grace period nothing is blocked.
    await pagseguro.setPreApproval(preApproval.code, 'SUSPENDED');
    expect(await state()).toMatchObject({ status: 'past_due', planBlocked: false });
    clock.advance(3.5 * DAY);
    expect(await requery()).toBeGreaterThanOrEqual(1);
    expect(await state()).toMatchObject({ status: 'past_due', planBlocked: true });

    await pagseguro.setPreApproval(preApproval.code, 'ACTIVE');
    expect(await state()).toMatchObject({ status: 'active', planBlocked: false, unpaidSince: null });
  });

  it('an unknown pre-approval notification code is refused and changes nothing', async () => {
    const c = await serviceCompany(server, sockets);
    const { url } = await c.admin.call<{ url: string }>('billing.subscribe', { domain: c.domain, planKey: 'pro' });
    const { notification } = await pagseguro.acceptPreApproval(new URL(url).searchParams.get('code')!, false);
    const post = (body: Record<string, string>) =>
      fetch(`${server.url}/webhooks/payments/pagseguro`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(body).toString() }).then((r) => r.status);
    expect(await post({ notificationCode: 'ABCDEF-0123456789AB-0123456789AB-ABCDEF', notificationType: 'preApproval' })).toBe(400);
    // A transaction-type question about a pre-approval's code: PagSeguro knows no such transaction notification.
    expect(await post({ notificationCode: notification.notificationCode, notificationType: 'transaction' })).toBe(400);
    expect(await c.admin.call('billing.subscription', { domain: c.domain }, 'query')).toMatchObject({ status: null });
    expect(await pagseguro.deliver(notification)).toBe(200);
    expect(await c.admin.call('billing.subscription', { domain: c.domain }, 'query')).toMatchObject({ status: 'active' });
  });
});
