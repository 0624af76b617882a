/**
 * Top-ups through the configured PaymentProvider. Idempotency: a payment row per provider
 * payment id (unique); every notification only triggers `reconcile`, which asks the provider
 * for the payment's state and, under the payment row's lock, writes whatever statement entries
 * are still missing, each with a unique externalRef ('<provider>:payment:<id>',
 * '<provider>:refund:<id>'). Duplicates and out-of-order deliveries therefore write nothing twice.
 */
import { TRPCError } from '@trpc/server';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { fromUnits, toUnits } from '../../../shared/domain/billing';
import { PAYMENT_MESSAGES } from '../../../shared/schemas/billing';
import { MONEY_TX, postEntry } from './ledger';
import { paymentProvider } from './providers';
import type { Notification, PaymentState } from './providers/types';
import { findSubscription, reconcileSubscription } from './subscriptions';

export interface PaymentsDeps {
  db: Db;
  config: Config;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const notSetUp = () => new TRPCError({ code: 'PRECONDITION_FAILED', message: PAYMENT_MESSAGES.notSetUp });

export function paymentsStatus(config: Config) {
  const provider = paymentProvider(config);
  // cardForm: the card can be paid on our page (transparent checkout), not only on the provider's.
  return { provider: provider?.name ?? null, currency: config.payments.currency, cardForm: !!provider?.payByCard };
}

/** Creates the payment row and the provider's checkout; the browser goes to `url` to pay. */
export async function startTopUp(deps: PaymentsDeps, input: { companyId: string; domain: string; userId: string; amount: string }) {
  const provider = paymentProvider(deps.config);
  if (!provider) throw notSetUp();
  const payment = await deps.db.payment.create({
    data: {
      companyId: input.companyId,
      provider: provider.name,
      // Replaced by the provider's id below; unique meanwhile.
      providerPaymentId: `new:${crypto.randomUUID()}`,
      amount: input.amount,
      currency: deps.config.payments.currency,
      createdById: input.userId,
    },
  });
  const back = `${deps.config.publicUrl}/i/recarga?payment=${payment.id}`;
  try {
    const checkout = await provider.createTopUpCheckout({
      paymentId: payment.id,
      companyId: input.companyId,
      amount: input.amount,
      currency: deps.config.payments.currency,
      description: `Credits · ${input.domain}`,
      successUrl: back,
      cancelUrl: `${back}&cancelled=1`,
    });
    await deps.db.payment.update({ where: { id: payment.id }, data: { providerPaymentId: checkout.providerPaymentId, checkoutUrl: checkout.url } });
    return { paymentId: payment.id, url: checkout.url };
  } catch (err) {
    await deps.db.payment.update({ where: { id: payment.id }, data: { status: 'failed', failureReason: (err as Error).message.slice(0, 500) } });
    throw new TRPCError({ code: 'BAD_GATEWAY', message: PAYMENT_MESSAGES.providerDown, cause: err });
  }
}

/**
 * Brings one payment in line with what the provider says, writing each missing statement entry
 * once. The payment row's lock serialises two notifications of the same payment.
 */
export async function reconcile(deps: PaymentsDeps, paymentId: string, state: PaymentState) {
  return deps.db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT 1 FROM "Payment" WHERE "id" = ${paymentId}::uuid FOR UPDATE`;
    const payment = await tx.payment.findUniqueOrThrow({ where: { id: paymentId }, include: { entries: { select: { externalRef: true } } } });
    const written = new Set(payment.entries.map((e) => e.externalRef));
    const wasPaid = payment.status === 'paid' || payment.status === 'refunded';
    const paid = state.status === 'paid' || wasPaid;
    if (state.status === 'paid') {
      const ref = `${payment.provider}:payment:${payment.providerPaymentId}`;
      if (!written.has(ref)) await postEntry(tx, { companyId: payment.companyId, amount: state.amountPaid, action: 'credit', name: 'Top-up', externalRef: ref, paymentId });
    }
    let refunded = 0n;
    for (const refund of state.refunds) {
      refunded += toUnits(refund.amount);
      const ref = `${payment.provider}:refund:${refund.id}`;
      if (!written.has(ref)) await postEntry(tx, { companyId: payment.companyId, amount: fromUnits(-toUnits(refund.amount)), action: 'refund', name: 'Refund', externalRef: ref, paymentId });
    }
    // A paid payment never goes back to pending or failed, whatever a stale answer says.
    const status = paid ? (refunded > 0n && refunded >= toUnits(state.status === 'paid' ? state.amountPaid : payment.amount.toString()) ? 'refunded' : 'paid') : state.status;
    return tx.payment.update({
      where: { id: paymentId },
      data: { status, refundedAmount: fromUnits(refunded), providerRef: state.providerRef ?? payment.providerRef, failureReason: status === 'failed' ? (state.failureReason ?? null) : null },
    });
  }, MONEY_TX);
}

/** Asks the provider about one of the company's payments and records the answer (the return from checkout). */
export async function refreshPayment(deps: PaymentsDeps, companyId: string, paymentId: string) {
  const payment = await deps.db.payment.findFirst({ where: { id: paymentId, companyId } });
  if (!payment) throw new TRPCError({ code: 'NOT_FOUND', message: PAYMENT_MESSAGES.notFound });
  const provider = paymentProvider(deps.config);
  if (!provider || provider.name !== payment.provider || payment.providerPaymentId.startsWith('new:')) return view(payment);
  return view(await reconcile(deps, payment.id, await provider.queryPayment(payment.providerPaymentId)));
}

/**
 * A verified notification: find the payment it names and reconcile it. Notifications about
 * payments we never created (another system on the same account) are acknowledged and ignored.
 */
export async function handleNotification(deps: PaymentsDeps & { clock: { now(): Date } }, providerName: string, rawBody: Buffer, headers: Record<string, string | string[] | undefined>) {
  const provider = paymentProvider(deps.config);
  if (!provider || provider.name !== providerName) return { handled: false as const, reason: 'not configured' };
  const note: Notification = await provider.parseNotification(rawBody, headers);
  const payment =
    (note.providerPaymentId && (await deps.db.payment.findUnique({ where: { provider_providerPaymentId: { provider: provider.name, providerPaymentId: note.providerPaymentId } } }))) ||
    (note.providerRef && (await deps.db.payment.findFirst({ where: { provider: provider.name, providerRef: note.providerRef } }))) ||
    (note.paymentId && UUID.test(note.paymentId) && (await deps.db.payment.findFirst({ where: { id: note.paymentId, provider: provider.name } }))) ||
    null;
  if (!payment) {
    const sub = await findSubscription(deps.db, provider.name, { checkoutId: note.providerPaymentId, subscriptionId: note.subscriptionId });
    if (!sub) return { handled: false as const, reason: 'unknown payment' };
    await reconcileSubscription({ ...deps, now: deps.clock.now() }, sub.id, await provider.querySubscription(sub.checkoutId, note.subscriptionId ?? sub.providerSubscriptionId));
    return { handled: true as const };
  }
  let providerPaymentId = payment.providerPaymentId;
  if (providerPaymentId.startsWith('new:')) {
    // The checkout was made at the provider but its answer never reached us (the top-up was
    // marked failed and the admin told to try again): the notification tells us its id, and the
    // payment is reconciled from there like any other, so what was paid is credited, once.
    if (!note.providerPaymentId) return { handled: false as const, reason: 'checkout not known yet' };
    providerPaymentId = note.providerPaymentId;
    await deps.db.payment.updateMany({ where: { id: payment.id, providerPaymentId: payment.providerPaymentId }, data: { providerPaymentId } });
  }
  await reconcile(deps, payment.id, await provider.queryPayment(providerPaymentId));
  return { handled: true as const };
}

/** Refunds a paid payment at the provider (an operator's act), then records what it answers. */
export async function refundPayment(deps: PaymentsDeps, paymentId: string) {
  const payment = await deps.db.payment.findUnique({ where: { id: paymentId } });
  if (!payment) throw new TRPCError({ code: 'NOT_FOUND', message: PAYMENT_MESSAGES.notFound });
  if (payment.status !== 'paid') throw new TRPCError({ code: 'CONFLICT', message: PAYMENT_MESSAGES.notRefundable });
  const provider = paymentProvider(deps.config);
  if (!provider || provider.name !== payment.provider) throw notSetUp();
  await provider.refund(payment.providerPaymentId);
  return view(await reconcile(deps, payment.id, await provider.queryPayment(payment.providerPaymentId)));
}

export async function listPayments(db: Db, companyId: string) {
  const rows = await db.payment.findMany({ where: { companyId }, orderBy: { createdAt: 'desc' }, take: 50 });
  return rows.map(view);
}

export function view(p: { id: string; provider: string; kind: string; amount: { toString(): string }; currency: string; status: string; refundedAmount: { toString(): string }; failureReason: string | null; createdAt: Date }) {
  return {
    id: p.id,
    provider: p.provider,
    kind: p.kind,
    amount: p.amount.toString(),
    currency: p.currency,
    status: p.status as 'pending' | 'paid' | 'failed' | 'expired' | 'refunded',
    refundedAmount: p.refundedAmount.toString(),
    failureReason: p.failureReason,
    createdAt: p.createdAt,
  };
}
