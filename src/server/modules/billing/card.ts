/**
 * Transparent checkout (PagSeguro's): the admin pays by card on /i/recarga without leaving the
 * app. The browser gets a session here, loads PagSeguro's DirectPayment script, turns the card
 * into a single-use token and a sender hash there (the card's number goes to PagSeguro only), and
 * sends us the token. We create the payment with it; the credit is written by `reconcile` from
 * what PagSeguro answers when asked (here at once, and on each notification), so once.
 */
import { TRPCError } from '@trpc/server';
import type { CardPaymentInput, CardSubscribeInput } from '../../../shared/schemas/billing';
import { PAYMENT_MESSAGES } from '../../../shared/schemas/billing';
import { reconcile, view, type PaymentsDeps } from './payments';
import { paymentProvider } from './providers';
import { PagSeguroError } from './providers/pagseguro';
import { choosePlan, reconcileSubscription } from './subscriptions';

function cardProvider(deps: PaymentsDeps) {
  const provider = paymentProvider(deps.config);
  if (!provider) throw new TRPCError({ code: 'PRECONDITION_FAILED', message: PAYMENT_MESSAGES.notSetUp });
  if (!provider.cardSession || !provider.payByCard || !provider.subscribeByCard) throw new TRPCError({ code: 'PRECONDITION_FAILED', message: PAYMENT_MESSAGES.noCardForm });
  return provider as typeof provider & Required<Pick<typeof provider, 'cardSession' | 'payByCard' | 'subscribeByCard'>>;
}

/** A session for the provider's script, and where to load the script from. */
export async function cardSession(deps: PaymentsDeps) {
  const provider = cardProvider(deps);
  try {
    return await provider.cardSession();
  } catch (err) {
    throw new TRPCError({ code: 'BAD_GATEWAY', message: PAYMENT_MESSAGES.providerDown, cause: err });
  }
}

/**
 * Pays a top-up with a card token. Our payment id is the reference from the start, so a
 * notification that overtakes PagSeguro's answer (or an answer lost on the way) still finds it.
 * PagSeguro refusing the request (a used token, data it rejects) fails the payment, nothing paid.
 */
export async function payTopUpByCard(deps: PaymentsDeps, input: { companyId: string; domain: string; userId: string; card: CardPaymentInput }) {
  const provider = cardProvider(deps);
  const user = await deps.db.user.findUniqueOrThrow({ where: { id: input.userId }, select: { name: true, email: true } });
  const id = crypto.randomUUID();
  const payment = await deps.db.payment.create({
    data: { id, companyId: input.companyId, provider: provider.name, providerPaymentId: id, amount: input.card.amount, currency: deps.config.payments.currency, createdById: input.userId },
  });
  const { card } = input;
  try {
    const { providerRef } = await provider.payByCard({
      paymentId: payment.id,
      amount: card.amount,
      currency: deps.config.payments.currency,
      description: `Credits · ${input.domain}`,
      cardToken: card.cardToken,
      senderHash: card.senderHash,
      sender: { name: card.holder.name, email: user.email ?? '' },
      holder: card.holder,
      billing: card.billing,
    });
    await deps.db.payment.update({ where: { id: payment.id }, data: { providerRef } });
  } catch (err) {
    const refused = err instanceof PagSeguroError && err.status === 400;
    await deps.db.payment.update({ where: { id: payment.id }, data: { status: 'failed', failureReason: (err as Error).message.slice(0, 500) } });
    throw new TRPCError({ code: refused ? 'BAD_REQUEST' : 'BAD_GATEWAY', message: refused ? PAYMENT_MESSAGES.cardRefused : PAYMENT_MESSAGES.providerDown, cause: err });
  }
  // Asked at once: a card is often decided in the same second; otherwise the notification settles it.
  try {
    return view(await reconcile(deps, payment.id, await provider.queryPayment(payment.providerPaymentId)));
  } catch {
    return view(await deps.db.payment.findUniqueOrThrow({ where: { id: payment.id } }));
  }
}

/**
 * A plan of the catalogue paid by card on our page (a transparent pre-approval). The same rules as
 * through the provider's page (choosePlan): the plan is copied onto the subscription row, and an
 * active plan it replaces is cancelled, with its unused days credited, once the new one is active.
 */
export async function subscribeByCard(deps: PaymentsDeps & { clock: { now(): Date } }, input: { companyId: string; userId: string; card: CardSubscribeInput }) {
  const provider = cardProvider(deps);
  const plan = await choosePlan(deps, { companyId: input.companyId, planKey: input.card.planKey });
  if (!plan) throw new TRPCError({ code: 'BAD_REQUEST', message: PAYMENT_MESSAGES.cardDetails });
  const user = await deps.db.user.findUniqueOrThrow({ where: { id: input.userId }, select: { email: true } });
  const reference = `plan-${crypto.randomUUID()}`;
  const { card } = input;
  let subscriptionId: string;
  try {
    ({ subscriptionId } = await provider.subscribeByCard({
      reference,
      plan: { key: plan.key, name: plan.name, monthlyPrice: plan.monthlyPrice },
      currency: deps.config.payments.currency,
      cardToken: card.cardToken,
      senderHash: card.senderHash,
      sender: { name: card.holder.name, email: user.email ?? '' },
      holder: card.holder,
      billing: card.billing,
    }));
  } catch (err) {
    const refused = err instanceof PagSeguroError && err.status === 400;
    throw new TRPCError({ code: refused ? 'BAD_REQUEST' : 'BAD_GATEWAY', message: refused ? PAYMENT_MESSAGES.cardRefused : PAYMENT_MESSAGES.providerDown, cause: err });
  }
  const sub = await deps.db.subscription.create({
    data: {
      companyId: input.companyId,
      provider: provider.name,
      checkoutId: reference,
      providerSubscriptionId: subscriptionId,
      createdById: input.userId,
      planKey: plan.key,
      planName: plan.name,
      monthlyPrice: plan.monthlyPrice,
      planFeatures: plan.features,
    },
  });
  // Asked at once; the notification settles it otherwise (its row exists by now).
  try {
    const updated = await reconcileSubscription({ ...deps, now: deps.clock.now() }, sub.id, await provider.querySubscription(reference, subscriptionId));
    return { status: updated.status };
  } catch {
    return { status: sub.status };
  }
}
