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
import { PLAN_FEATURES } from '../../../shared/domain/company';
import { PAYMENT_MESSAGES, PLAN_MESSAGES } from '../../../shared/schemas/billing';
import { isZero } from '../../../shared/domain/billing';
import { prorateSwitch } from '../../../shared/domain/plan-proration';
import { MONEY_TX, postEntry } from './ledger';
import type { PaymentsDeps } from './payments';
import { paymentProvider } from './providers';
import type { SubscriptionState } from './providers/types';
import { getPlans } from './service';

const UNPAID = new Set(['past_due', 'unpaid']);

/**
 * Subscribes to a plan of the catalogue (or, with no catalogue, to STRIPE_PLAN_PRICE as before).
 * The plan is copied onto the subscription row: what the company pays for is what it was offered,
 * whatever the operator edits afterwards.
 */
export async function startSubscription(deps: PaymentsDeps, input: { companyId: string; userId: string; planKey?: string }) {
  const provider = paymentProvider(deps.config);
  if (!provider) throw new TRPCError({ code: 'PRECONDITION_FAILED', message: PAYMENT_MESSAGES.notSetUp });
  const plan = await choosePlan(deps, input);
  const back = `${deps.config.publicUrl}/i/recarga?subscription=1`;
  let checkout;
  try {
    checkout = await provider.createSubscription({
      companyId: input.companyId,
      plan: plan && { key: plan.key, name: plan.name, monthlyPrice: plan.monthlyPrice, currency: deps.config.payments.currency },
      successUrl: back,
      cancelUrl: `${back}&cancelled=1`,
    });
  } catch (err) {
    throw new TRPCError({ code: 'BAD_GATEWAY', message: PAYMENT_MESSAGES.providerDown, cause: err });
  }
  await deps.db.subscription.create({
    data: {
      companyId: input.companyId,
      provider: provider.name,
      checkoutId: checkout.providerPaymentId,
      createdById: input.userId,
      ...(plan && { planKey: plan.key, planName: plan.name, monthlyPrice: plan.monthlyPrice, planFeatures: plan.features }),
    },
  });
  return { url: checkout.url };
}

/**
 * The plan a company may buy now. Changing plan while subscribed: the new subscription is bought
 * beside the active one, and the old one is cancelled at the provider only once the new one is
 * paid (retireReplaced), so the company keeps its plan until then and is never charged by both
 * afterwards. Buying the plan it already has (or, with no catalogue, the one configured plan)
 * again is refused.
 */
export async function choosePlan(deps: PaymentsDeps, input: { companyId: string; planKey?: string }) {
  const company = await deps.db.company.findUniqueOrThrow({ where: { id: input.companyId }, select: { billingExempt: true } });
  if (company.billingExempt) throw new TRPCError({ code: 'CONFLICT', message: PAYMENT_MESSAGES.exempt });
  const active = await deps.db.subscription.findFirst({ where: { companyId: input.companyId, status: 'active' }, select: { planKey: true } });
  if (active && (!input.planKey || active.planKey === input.planKey)) {
    throw new TRPCError({ code: 'CONFLICT', message: PLAN_MESSAGES.alreadyActive });
  }
  const catalogue = await getPlans(deps.db);
  if (catalogue.length && !input.planKey) throw new TRPCError({ code: 'BAD_REQUEST', message: PLAN_MESSAGES.choose });
  const plan = input.planKey ? catalogue.find((p) => p.key === input.planKey) : undefined;
  if (input.planKey && !plan) throw new TRPCError({ code: 'NOT_FOUND', message: PLAN_MESSAGES.notFound });
  return plan;
}

/** The catalogue as an admin sees it, and the plan of the company's latest paid subscription. */
export async function offeredPlans(db: Db, companyId: string) {
  const plans = await getPlans(db);
  const current = await db.subscription.findFirst({ where: { companyId, status: { not: 'incomplete' }, planKey: { not: null } }, orderBy: { createdAt: 'desc' } });
  return { plans, current: current && { planKey: current.planKey!, planName: current.planName!, monthlyPrice: current.monthlyPrice!.toString(), status: current.status } };
}

/**
 * The plan's features, switched on (1) or off (0) in Company.plan; other keys of the plan
 * (size, the spec's plano{product}) are kept.
 */
async function applyPlan(tx: Prisma.TransactionClient, companyId: string, features: unknown) {
  if (!Array.isArray(features)) return;
  await tx.$executeRaw`SELECT 1 FROM "Company" WHERE "id" = ${companyId}::uuid FOR UPDATE`;
  const company = await tx.company.findUniqueOrThrow({ where: { id: companyId }, select: { plan: true } });
  const current = company.plan && typeof company.plan === 'object' && !Array.isArray(company.plan) ? (company.plan as Record<string, unknown>) : {};
  const switched = Object.fromEntries(PLAN_FEATURES.map((f) => [f, features.includes(f) ? 1 : 0]));
  await tx.company.update({ where: { id: companyId }, data: { plan: { ...current, ...switched } as Prisma.InputJsonObject } });
}

/**
 * Records the provider's answer under the subscription's row lock, then decides the block. When
 * it is active, any other subscription of the company still active is the plan it replaced:
 * cancelled at the provider after the transaction (no network call under a lock).
 */
export async function reconcileSubscription(deps: PaymentsDeps & { now: Date }, id: string, state: SubscriptionState) {
  const updated = await recordSubscription(deps, id, state);
  if (updated.status === 'active') await retireReplaced(deps, updated.companyId);
  return updated;
}

/**
 * Cancels, at the provider, every active subscription of the company but the newest active one
 * (the plan it switched to), and records them as canceled, each with the credit for the unused
 * part of its paid period (prorateSwitch) in the same transaction. The provider's own cancellation
 * notice then finds them already canceled. A provider that cannot be reached leaves them active;
 * the periodic re-query tries again (the switch moment stays the new plan's first payment).
 */
export async function retireReplaced(deps: PaymentsDeps, companyId: string): Promise<number> {
  const provider = paymentProvider(deps.config);
  const active = await deps.db.subscription.findMany({ where: { companyId, status: 'active' }, orderBy: { createdAt: 'desc' } });
  const newest = active[0];
  let retired = 0;
  for (const old of active.slice(1)) {
    if (!provider || provider.name !== old.provider) continue;
    try {
      await provider.cancelSubscription(old.checkoutId, old.providerSubscriptionId);
    } catch (err) {
      console.warn(`[billing] could not cancel replaced subscription ${old.id}:`, (err as Error).message);
      continue;
    }
    await deps.db.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT 1 FROM "Subscription" WHERE "id" = ${old.id}::uuid FOR UPDATE`;
      const current = await tx.subscription.findUniqueOrThrow({ where: { id: old.id } });
      if (current.status !== 'active') return;
      await tx.subscription.update({ where: { id: old.id }, data: { status: 'canceled', unpaidSince: null } });
      await creditUnused(tx, current, newest!.activeSince ?? newest!.updatedAt);
    }, MONEY_TX);
    retired++;
  }
  return retired;
}

/**
 * The unused part of a replaced plan's paid period, as one 'proration' statement entry. Its
 * externalRef names the old subscription, so it is written once whatever retries.
 */
async function creditUnused(
  tx: Prisma.TransactionClient,
  old: { id: string; companyId: string; planName: string | null; monthlyPrice: { toString(): string } | null; activeSince: Date | null; createdAt: Date },
  switchedAt: Date,
) {
  if (!old.monthlyPrice) return;
  const company = await tx.company.findUniqueOrThrow({ where: { id: old.companyId }, select: { billingExempt: true } });
  const { credit } = prorateSwitch({
    oldMonthlyPrice: old.monthlyPrice.toString(),
    oldActiveSince: old.activeSince ?? old.createdAt,
    oldPaid: true,
    switchedAt,
    exempt: company.billingExempt,
  });
  if (isZero(credit)) return;
  const externalRef = `plan:proration:${old.id}`;
  if (await tx.statementEntry.findUnique({ where: { externalRef }, select: { id: true } })) return;
  await postEntry(tx, { companyId: old.companyId, amount: credit, action: 'proration', name: old.planName ?? '', externalRef });
}

async function recordSubscription(deps: PaymentsDeps & { now: Date }, id: string, state: SubscriptionState) {
  return deps.db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT 1 FROM "Subscription" WHERE "id" = ${id}::uuid FOR UPDATE`;
    const sub = await tx.subscription.findUniqueOrThrow({ where: { id } });
    const unpaidSince = UNPAID.has(state.status) ? (sub.unpaidSince ?? deps.now) : state.status === 'active' ? null : sub.unpaidSince;
    const updated = await tx.subscription.update({
      where: { id },
      data: {
        status: state.status,
        providerSubscriptionId: state.subscriptionId ?? sub.providerSubscriptionId,
        unpaidSince,
        // First paid: the anchor of its monthly periods (and, for a switch, the switch moment).
        ...(state.status === 'active' && !sub.activeSince && { activeSince: deps.now }),
      },
    });
    // Paid (the first time, or again after a lapse): the company gets the plan it bought.
    if (state.status === 'active' && sub.status !== 'active') await applyPlan(tx, sub.companyId, sub.planFeatures);
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
  for (const sub of subs) await reconcileSubscription({ ...deps, now: deps.clock.now() }, sub.id, await provider.querySubscription(sub.checkoutId, sub.providerSubscriptionId));
  // Replaced plans whose cancellation failed earlier (the provider was unreachable).
  const doubled = await deps.db.subscription.groupBy({ by: ['companyId'], where: { provider: provider.name, status: 'active' }, having: { companyId: { _count: { gt: 1 } } } });
  for (const { companyId } of doubled) await retireReplaced(deps, companyId);
  return subs.length;
}

export async function currentSubscription(db: Db, companyId: string) {
  const sub = await db.subscription.findFirst({ where: { companyId, status: { not: 'incomplete' } }, orderBy: { createdAt: 'desc' } });
  const company = await db.company.findUniqueOrThrow({ where: { id: companyId }, select: { planBlocked: true, billingExempt: true } });
  return { status: sub?.status ?? null, unpaidSince: sub?.unpaidSince ?? null, planBlocked: company.planBlocked, billingExempt: company.billingExempt };
}
