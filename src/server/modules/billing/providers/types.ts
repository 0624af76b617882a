/**
 * The one interface every payment provider sits behind. The billing service never trusts a
 * notification's body for money: a verified notification only names which payment to look at,
 * and the payment's state is what `queryPayment` answers (so replays and out-of-order deliveries
 * converge on the same truth).
 */

/** What a provider says a payment is now. Amounts are decimal strings in the payment's currency. */
export interface PaymentState {
  status: 'pending' | 'paid' | 'failed' | 'expired';
  /** What was paid (0 until paid). */
  amountPaid: string;
  /** Each refund the provider made, by its own id: one statement entry each, ever. */
  refunds: { id: string; amount: string }[];
  /** A second id its notifications may carry (Stripe: the PaymentIntent). */
  providerRef?: string;
  /** Why it failed, in the provider's words (a card refused, ...). */
  failureReason?: string;
}

export interface Checkout {
  providerPaymentId: string;
  /** Where the browser goes to pay. */
  url: string;
}

/** A verified notification: which payment it concerns (by one of its ids), nothing more is believed. */
export interface Notification {
  eventId: string;
  type: string;
  providerPaymentId?: string;
  providerRef?: string;
  /** Our own payment id, when the provider echoes the metadata we gave it. */
  paymentId?: string;
  /** The recurring subscription it concerns (subscription and invoice events). */
  subscriptionId?: string;
}

/** What a provider says a subscription is now (the spec's pagConsultaAdesao). */
export interface SubscriptionState {
  status: 'incomplete' | 'active' | 'past_due' | 'unpaid' | 'canceled';
  subscriptionId?: string;
}

/** A card payment made on our page from a token the provider's script made in the browser. */
export interface CardPaymentInput {
  paymentId: string;
  amount: string;
  currency: string;
  description: string;
  /** Single-use token standing for the card (the card's number never reaches our server). */
  cardToken: string;
  /** The provider's fingerprint of the buyer's browser. */
  senderHash: string;
  sender: { name: string; email: string };
  holder: { name: string; cpf: string; birthDate: string; areaCode: string; phone: string };
  billing: { street: string; number: string; complement?: string; district: string; postalCode: string; city: string; state: string };
}

export class ForgedNotification extends Error {}

export interface PaymentProvider {
  readonly name: 'stripe' | 'pagseguro';
  createTopUpCheckout(input: { paymentId: string; companyId: string; amount: string; currency: string; description: string; successUrl: string; cancelUrl: string }): Promise<Checkout>;
  /**
   * Checks the notification is the provider's (Stripe: the signature over the raw body; PagSeguro:
   * asking PagSeguro about the code it carries); throws ForgedNotification when it is not.
   */
  parseNotification(rawBody: Buffer, headers: Record<string, string | string[] | undefined>): Promise<Notification>;
  queryPayment(providerPaymentId: string): Promise<PaymentState>;
  /** Refunds what is left of a paid payment; the refund itself arrives through queryPayment. */
  refund(providerPaymentId: string): Promise<void>;
  /** A monthly subscription to `plan` (amount exact, decimal string), or without one the provider's configured plan. */
  createSubscription(input: { companyId: string; plan?: { key: string; name: string; monthlyPrice: string; currency: string }; successUrl: string; cancelUrl: string }): Promise<Checkout>;
  /** By the checkout that created it, and the provider's own subscription id once known (PagSeguro needs it). */
  querySubscription(checkoutId: string, subscriptionId?: string | null): Promise<SubscriptionState>;
  /** Stops a subscription's future charges (a plan replaced by another); already cancelled is not an error. */
  cancelSubscription(checkoutId: string, subscriptionId?: string | null): Promise<void>;
  /**
   * Transparent checkout (only providers with a card form on our page): a session for the
   * provider's browser script, and the script's address.
   */
  cardSession?(): Promise<{ sessionId: string; scriptUrl: string }>;
  /** Pays with a card token; the answer is only accepted, the state comes from queryPayment. */
  payByCard?(input: CardPaymentInput): Promise<{ providerRef: string }>;
  /**
   * A monthly subscription paid by card on our page: `reference` is what we keep as its checkout
   * id; the answer is the provider's subscription id, its state comes from querySubscription.
   */
  subscribeByCard?(input: Omit<CardPaymentInput, 'paymentId' | 'amount' | 'description'> & { reference: string; plan: { key: string; name: string; monthlyPrice: string } }): Promise<{ subscriptionId: string }>;
}
