/**
 * The recurring plan (the spec's pre-approval): a company subscribes through the provider's
 * checkout; its state is only what the provider answers (pagConsultaAdesao), on each notification
 * and on a periodic re-query (pagConsultaPagtos). A renewal unpaid for longer than PLAN_GRACE_DAYS
 * sets Company.planBlocked and the existing blocked-plan behaviour follows; paying clears it.
 * Companies exempt from charges (billingExempt) are never charged nor blocked.
 */
import { TRPCError } from '@trpc/server';
import type { Prisma } from '../../../generated/prisma/client';
import type { Db } from '../../db/client';
import { PAYMENT_MESSAGES } from '../../../shared/schemas/billing';
import { MONEY_TX } from './ledger';
import type { PaymentsDeps } from './payments';
import { paymentProvider } from './providers';
import type { SubscriptionState } from './providers/types';

const UNPAID = new Set(['past_due', 'unpaid']);

export async function startSubscription(deps: PaymentsDeps, input: { companyId: string; userId: string }) {
  const provider = paymentProvider(deps.config);
  if (!provider) throw new TRPCError({ code: 'PRECONDITION_FAILED', message: PAYMENT_MESSAGES.notSetUp });
  const company = await deps.db.company.findUniqueOrThrow({ where: { id: input.companyId }, select: { billingExempt: true } });
  if (company.billingExempt) throw new TRPCError({ code: 'CONFLICT', message: PAYMENT_MESSAGES.exempt });
  const back = `${deps.config.publicUrl}/i/recarga?subscription=1`;
  let checkout;
  try {
    checkout = await provider.createSubscription({ companyId: input.companyId, successUrl: back, cancelUrl: `${back}&cancelled=1` });
  } catch (err) {
    throw new TRPCError({ code: 'BAD_GATEWAY', message: PAYMENT_MESSAGES.providerDown, cause: err });
  }
  await deps.db.subscription.create({ data: { companyId: input.companyId, provider: provider.name, checkoutId: checkout.providerPaymentId, createdById: input.userId } });
  return { url: checkout.url };
}

/** Records the provider's answer under the subscription's row lock, then decides the block. */
export async function reconcileSubscription(deps: PaymentsDeps & { now: Date }, id: string, state: SubscriptionState) {
  return deps.db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT 1 FROM "Subscription" WHERE "id" = ${id}::uuid FOR UPDATE`;
    const sub = await tx.subscription.findUniqueOrThrow({ where: { id } });
    const unpaidSince = UNPAID.has(state.status) ? (sub.unpaidSince ?? deps.now) : state.status === 'active' ? null : sub.unpaidSince;
    const updated = await tx.subscription.update({
      where: { id },
      data: { status: state.status, providerSubscriptionId: state.subscriptionId ?? sub.providerSubscriptionId, unpaidSince },
    });
    await decideBlock(tx, sub.companyId, deps.now, deps.config.payments.graceDays);
    return updated;
  }, MONEY_TX);
}

/**
 * A company with an active subscription is not blocked; one whose latest subscription has been
 * unpaid for the grace period is. Companies that never subscribed are left as they are.
 */
async function decideBlock(tx: Prisma.TransactionClient, companyId: string, now: Date, graceDays: number) {
  const company = await tx.company.findUniqueOrThrow({ where: { id: companyId }, select: { billingExempt: true, planBlocked: true } });
  if (company.billingExempt) return;
  const subs = await tx.subscription.findMany({ where: { companyId, status: { not: 'incomplete' } }, orderBy: { createdAt: 'desc' } });
  if (!subs.length) return;
  const active = subs.some((s) => s.status === 'active');
  const overdue = subs.some((s) => s.unpaidSince && now.getTime() - s.unpaidSince.getTime() >= graceDays * 86_400_000);
  const blocked = !active && overdue;
  if (blocked !== company.planBlocked) await tx.company.update({ where: { id: companyId }, data: { planBlocked: blocked } });
}

export async function findSubscription(db: Db, provider: string, ids: { checkoutId?: string; subscriptionId?: string }) {
  return (
    (ids.checkoutId && (await db.subscription.findUnique({ where: { provider_checkoutId: { provider, checkoutId: ids.checkoutId } } }))) ||
    (ids.subscriptionId && (await db.subscription.findUnique({ where: { provider_providerSubscriptionId: { provider, providerSubscriptionId: ids.subscriptionId } } }))) ||
    null
  );
}

/** The periodic re-query: unpaid or pending subscriptions are asked again, and blocks applied. */
export async function refreshSubscriptions(deps: PaymentsDeps & { clock: { now(): Date } }): Promise<number> {
  const provider = paymentProvider(deps.config);
  if (!provider) return 0;
  const subs = await deps.db.subscription.findMany({ where: { provider: provider.name, status: { in: ['incomplete', 'past_due', 'unpaid'] } }, take: 200 });
  for (const sub of subs) await reconcileSubscription({ ...deps, now: deps.clock.now() }, sub.id, await provider.querySubscription(sub.checkoutId));
  return subs.length;
}

export async function currentSubscription(db: Db, companyId: string) {
  const sub = await db.subscription.findFirst({ where: { companyId, status: { not: 'incomplete' } }, orderBy: { createdAt: 'desc' } });
  const company = await db.company.findUniqueOrThrow({ where: { id: companyId }, select: { planBlocked: true, billingExempt: true } });
  return { status: sub?.status ?? null, unpaidSince: sub?.unpaidSince ?? null, planBlocked: company.planBlocked, billingExempt: company.billingExempt };
}
