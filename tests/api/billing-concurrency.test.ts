/**
 * Everything that moves one company's credits, at once: call ticks (each run twice, as two
 * instances would), translation charges, top-up webhooks delivered two and three times over, a
 * refund and an operator's adjustment. Afterwards the credits equal the sum of the statement to
 * the cent, every entry's balanceAfter follows from the one before, and nothing is written twice.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chargeParticipant, chargeTranslation } from '../../src/server/modules/billing/service';
import { fromUnits, toUnits } from '../../src/shared/domain/billing';
import { serviceCompany, type ClientSocket } from '../helpers/service';
import { startTestServer, type TestServer } from '../helpers/server';
import { startStripeServer, type StripeServer } from '../helpers/stripe-server';

let server: TestServer;
let stripe: StripeServer;
const sockets: ClientSocket[] = [];
const OPERATOR = 'ops-concurrency@example.test';

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

describe('one company, everything at once', () => {
  it('ends with credits equal to the statement, each entry once', async () => {
    const c = await serviceCompany(server, sockets);
    const ops = await c.attendant('Olga Operadora');
    await server.db.user.update({ where: { id: ops.userId }, data: { email: OPERATOR } });
    await ops.call('operator.adjustCredits', { companyDomain: c.domain, amount: '10', note: 'Starting balance' });

    // A top-up paid before the storm, refunded during it.
    const refunded = await c.admin.call('billing.topUp', { domain: c.domain, amount: '20' });
    await stripe.pay(new URL(refunded.url).pathname.split('/').pop()!);

    // Four top-ups paid at Stripe whose webhooks arrive during the storm, duplicated.
    const paid = [];
    for (const amount of ['15.25', '30', '7.10', '12.65']) {
      const { url } = await c.admin.call('billing.topUp', { domain: c.domain, amount });
      paid.push(await stripe.pay(new URL(url).pathname.split('/').pop()!, false));
    }

    // A call with three connected participants at 0.13 per minute (a price that does not divide evenly).
    const t0 = new Date(Date.now() - 600_000);
    const call = await server.db.call.create({
      data: { companyId: c.company.id, conversationId: (await server.db.conversation.create({ data: { companyId: c.company.id, type: 3, protocol: `${Date.now()}`.slice(-15) } })).id, type: 1, linkKey: randomUUID(), hostInstance: 'test', priceVoice: '0.1300' },
    });
    const people = await Promise.all([1, 2, 3].map((i) => server.db.user.create({ data: { name: `Pessoa ${i}` } })));
    const participants = await Promise.all(
      people.map((p) => server.db.callParticipant.create({ data: { callId: call.id, userId: p.id, connected: true, audio: true, billedUntil: t0 } })),
    );

    const work: Promise<unknown>[] = [];
    for (const p of participants) {
      for (let tick = 1; tick <= 6; tick++) {
        const now = new Date(t0.getTime() + tick * 30_000);
        work.push(chargeParticipant(server.db, p.id, now), chargeParticipant(server.db, p.id, now));
      }
    }
    for (let i = 0; i < 8; i++) {
      work.push(chargeTranslation(server.db, { companyId: c.company.id, callId: call.id, lineId: randomUUID(), lang: 'en', characters: 100 + i, amount: fromUnits(BigInt(500 + i * 7)), name: 'Pessoa 1', now: new Date() }));
    }
    for (const event of paid) work.push(stripe.deliver(event), stripe.deliver(event), stripe.deliver(event));
    work.push(ops.call('operator.refund', { paymentId: refunded.paymentId }));
    work.push(ops.call('operator.adjustCredits', { companyDomain: c.domain, amount: '-1.11', note: 'Goodwill correction' }));
    const outcomes = await Promise.allSettled(work);
    expect(outcomes.filter((o) => o.status === 'rejected')).toEqual([]);

    const entries = await server.db.statementEntry.findMany({ where: { companyId: c.company.id }, orderBy: { seq: 'asc' } });
    const credits = (await server.db.company.findUniqueOrThrow({ where: { id: c.company.id } })).credits.toString();
    const sum = entries.reduce((s, e) => s + toUnits(e.amount.toString()), 0n);
    expect(toUnits(credits)).toBe(sum);
    // Each entry's balance is the previous balance plus its amount: writers were serialised.
    let running = 0n;
    for (const e of entries) {
      running += toUnits(e.amount.toString());
      expect(toUnits(e.balanceAfter.toString())).toBe(running);
    }

    // Nothing twice: one credit per payment, one refund, one entry per charge record.
    const byAction = (a: string) => entries.filter((e) => e.action === a);
    expect(byAction('credit').map((e) => e.amount.toString()).sort()).toEqual(['12.65', '15.25', '20', '30', '7.1']);
    expect(byAction('refund').map((e) => e.amount.toString())).toEqual(['-20']);
    expect(byAction('adjustment').map((e) => e.amount.toString())).toEqual(['10', '-1.11']);
    const charges = await server.db.chargeRecord.findMany({ where: { companyId: c.company.id } });
    expect(byAction('charge')).toHaveLength(charges.length);
    expect(new Set(charges.map((r) => `${r.subject}#${r.tickIndex}`)).size).toBe(charges.length);
    expect(charges.filter((r) => r.tag === 'translate')).toHaveLength(8);
    // Every participant was billed for exactly the 180 s that passed, however the ticks interleaved.
    for (const p of participants) {
      const secs = charges.filter((r) => r.subject === `participant:${p.id}`).reduce((s, r) => s + r.seconds, 0);
      expect(secs).toBe(180);
    }
    const chargedTotal = charges.reduce((s, r) => s + toUnits(r.amount.toString()), 0n);
    expect(sum).toBe(toUnits('10') + toUnits('85') - toUnits('20') - toUnits('1.11') - chargedTotal);

    // The operator's two adjustments are in the audit log with before and after.
    const audit = await ops.call('operator.audit', { limit: 10 }, 'query');
    expect(audit.filter((a: { action: string; domain: string }) => a.action === 'credits' && a.domain === c.domain)).toHaveLength(2);
  });
});
