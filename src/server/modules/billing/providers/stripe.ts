/**
 * Stripe through its official SDK: Checkout Sessions for top-ups and subscriptions, webhooks
 * verified with stripe.webhooks.constructEvent, refunds on the session's PaymentIntent.
 * STRIPE_API_URL points the SDK at another host (the tests' local Stripe-protocol server).
 */
import type Stripe from 'stripe';
import { lazyPackage } from '../../../lazy-package';
import { fromUnits, toUnits } from '../../../../shared/domain/billing';
import { ForgedNotification, type Checkout, type Notification, type PaymentProvider, type PaymentState, type SubscriptionState } from './types';

const stripeSdk = lazyPackage<typeof Stripe>('stripe');

export interface StripeConfig {
  secretKey: string;
  webhookSecret: string;
  apiUrl?: string;
  /** The Stripe Price of the recurring plan (STRIPE_PLAN_PRICE). */
  planPrice?: string;
}

/** Decimal string → the currency's minor unit (cents); amounts are whole cents by the schema. */
const toCents = (amount: string) => Number(toUnits(amount) / 100n);
const fromCents = (cents: number) => fromUnits(BigInt(cents) * 100n);

export function stripeProvider(config: StripeConfig): PaymentProvider {
  const base = config.apiUrl ? new URL(config.apiUrl) : null;
  const stripe = new (stripeSdk())(config.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    ...(base && { host: base.hostname, port: base.port || (base.protocol === 'https:' ? 443 : 80), protocol: base.protocol === 'http:' ? 'http' : 'https' }),
  });

  async function sessionState(id: string): Promise<PaymentState> {
    const session = await stripe.checkout.sessions.retrieve(id, { expand: ['payment_intent'] });
    const intent = typeof session.payment_intent === 'object' ? session.payment_intent : null;
    const intentId = typeof session.payment_intent === 'string' ? session.payment_intent : intent?.id;
    const refunds = intentId ? (await stripe.refunds.list({ payment_intent: intentId, limit: 100 })).data : [];
    const base = {
      providerRef: intentId ?? undefined,
      refunds: refunds.filter((r) => r.status === 'succeeded').map((r) => ({ id: r.id, amount: fromCents(r.amount) })),
    };
    if (session.payment_status === 'paid') return { ...base, status: 'paid', amountPaid: fromCents(session.amount_total ?? 0) };
    if (session.status === 'expired') return { ...base, status: 'expired', amountPaid: '0.0000' };
    const error = intent?.last_payment_error;
    if (error || intent?.status === 'canceled') return { ...base, status: 'failed', amountPaid: '0.0000', failureReason: error?.message ?? error?.code ?? 'canceled' };
    return { ...base, status: 'pending', amountPaid: '0.0000' };
  }

  return {
    name: 'stripe',

    async createTopUpCheckout(input): Promise<Checkout> {
      const session = await stripe.checkout.sessions.create(
        {
          mode: 'payment',
          client_reference_id: input.paymentId,
          metadata: { paymentId: input.paymentId, companyId: input.companyId },
          payment_intent_data: { metadata: { paymentId: input.paymentId, companyId: input.companyId } },
          line_items: [{ quantity: 1, price_data: { currency: input.currency, unit_amount: toCents(input.amount), product_data: { name: input.description } } }],
          success_url: input.successUrl,
          cancel_url: input.cancelUrl,
        },
        // One checkout per payment row, even when the request is retried.
        { idempotencyKey: `topup-${input.paymentId}` },
      );
      if (!session.url) throw new Error('Stripe answered a checkout session without a URL');
      return { providerPaymentId: session.id, url: session.url };
    },

    async parseNotification(rawBody, headers): Promise<Notification> {
      const signature = headers['stripe-signature'];
      if (typeof signature !== 'string') throw new ForgedNotification('No Stripe-Signature header');
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(rawBody, signature, config.webhookSecret);
      } catch (err) {
        throw new ForgedNotification((err as Error).message);
      }
      const object = event.data.object as {
        object?: string;
        id?: string;
        mode?: string;
        payment_intent?: string | { id: string } | null;
        subscription?: string | { id: string } | null;
        parent?: { subscription_details?: { subscription?: string | { id: string } } } | null;
        metadata?: Record<string, string>;
      };
      const intentOf = (v: typeof object.payment_intent) => (typeof v === 'string' ? v : (v?.id ?? undefined));
      switch (object.object) {
        case 'checkout.session':
          // The metadata names our payment: what finds it when its creation answer was lost.
          return { eventId: event.id, type: event.type, providerPaymentId: object.id, providerRef: intentOf(object.payment_intent), subscriptionId: intentOf(object.subscription), paymentId: object.metadata?.paymentId };
        case 'subscription':
          return { eventId: event.id, type: event.type, subscriptionId: object.id };
        case 'invoice':
          return { eventId: event.id, type: event.type, subscriptionId: intentOf(object.subscription ?? object.parent?.subscription_details?.subscription) };
        case 'payment_intent':
          // A refused first attempt comes before we know the PaymentIntent: the metadata names the payment.
          return { eventId: event.id, type: event.type, providerRef: object.id, paymentId: object.metadata?.paymentId };
        case 'charge':
        case 'refund':
          return { eventId: event.id, type: event.type, providerRef: intentOf(object.payment_intent) };
        default:
          return { eventId: event.id, type: event.type };
      }
    },

    queryPayment: sessionState,

    async refund(providerPaymentId) {
      const state = await sessionState(providerPaymentId);
      if (!state.providerRef) throw new Error('This payment has nothing to refund');
      await stripe.refunds.create({ payment_intent: state.providerRef }, { idempotencyKey: `refund-${providerPaymentId}` });
    },

    async querySubscription(checkoutId): Promise<SubscriptionState> {
      const session = await stripe.checkout.sessions.retrieve(checkoutId, { expand: ['subscription'] });
      const sub = typeof session.subscription === 'object' ? session.subscription : null;
      if (!sub) return { status: session.status === 'expired' ? 'canceled' : 'incomplete' };
      const known = ['active', 'past_due', 'unpaid', 'canceled'] as const;
      const status = sub.status === 'trialing' ? 'active' : (known as readonly string[]).includes(sub.status) ? (sub.status as SubscriptionState['status']) : sub.status === 'incomplete_expired' ? 'canceled' : 'incomplete';
      return { status, subscriptionId: sub.id };
    },

    async cancelSubscription(checkoutId, subscriptionId) {
      const id = subscriptionId ?? (await this.querySubscription(checkoutId)).subscriptionId;
      if (!id) return;
      try {
        await stripe.subscriptions.cancel(id);
      } catch (err) {
        // Cancelling twice (a retry after a lost answer) is what we wanted anyway.
        if ((err as { code?: string }).code === 'resource_missing' || /canceled/i.test((err as Error).message)) return;
        throw err;
      }
    },

    async createSubscription(input): Promise<Checkout> {
      const { plan } = input;
      if (!plan && !config.planPrice) throw new Error('STRIPE_PLAN_PRICE is not set');
      const session = await stripe.checkout.sessions.create({
        mode: 'subscription',
        client_reference_id: input.companyId,
        metadata: { companyId: input.companyId, ...(plan && { planKey: plan.key }) },
        // A catalogue plan is priced inline (monthly, in cents); the catalogue, not Stripe, holds the price.
        line_items: [
          plan
            ? { quantity: 1, price_data: { currency: plan.currency, unit_amount: toCents(plan.monthlyPrice), recurring: { interval: 'month' }, product_data: { name: plan.name } } }
            : { price: config.planPrice, quantity: 1 },
        ],
        success_url: input.successUrl,
        cancel_url: input.cancelUrl,
      });
      if (!session.url) throw new Error('Stripe answered a checkout session without a URL');
      return { providerPaymentId: session.id, url: session.url };
    },
  };
}
