/**
 * PagSeguro through its HTTP API (form-encoded requests, XML answers, `email` and `token` in the
 * query string): a payment request (`POST /v2/checkout`) the customer pays on PagSeguro's page,
 * notifications that carry only a code, transactions looked up by our reference, refunds through
 * `POST /v2/transactions/refunds`; plans as pre-approvals (`POST /v2/pre-approvals/request`,
 * monthly automatic charge). PAGSEGURO_API_URL / PAGSEGURO_CHECKOUT_URL point it at another
 * host (the sandbox, or the tests' local PagSeguro-protocol server).
 *
 * Our payment id is the transaction `reference`, and it is also what we keep as the provider's
 * payment id: a checkout code expires and one reference may gather several transactions (a
 * refused card, then a paid one), so the reference is the only id that names "this top-up".
 */
import { XMLParser } from 'fast-xml-parser';
import { fromUnits, toUnits } from '../../../../shared/domain/billing';
import { ForgedNotification, type CardPaymentInput, type Checkout, type Notification, type PaymentProvider, type PaymentState, type SubscriptionState } from './types';

export interface PagSeguroConfig {
  email: string;
  token: string;
  /** Web services origin (https://ws.pagseguro.uol.com.br). */
  apiUrl: string;
  /** Where the customer pays (https://pagseguro.uol.com.br). */
  checkoutUrl: string;
  /** Where browsers load the DirectPayment script (https://stc.pagseguro.uol.com.br). */
  staticUrl: string;
  /** Our notification endpoint, sent with every payment request (notificationURL). */
  notificationUrl: string;
}

/** A transaction as PagSeguro describes it (the fields we read). */
interface Transaction {
  code: string;
  reference?: string;
  status: number;
  grossAmount: string;
  cancellationSource?: string;
}

// Transaction statuses (PagSeguro's table): 1 awaiting payment, 2 in analysis, 3 paid, 4 available,
// 5 in dispute, 6 returned (refunded), 7 cancelled, 8 debited (chargeback), 9 temporary retention.
const PENDING = new Set([1, 2]);
const PAID = new Set([3, 4, 5, 9]);
/** Money that came and went back: a paid payment with a refund of the whole transaction. */
const RETURNED = new Set([6, 8]);
const CANCELLED = 7;

/**
 * Pre-approval statuses: accepted and charging → active; waiting for the customer → incomplete;
 * a charge that failed and waits for another card (SUSPENDED, PAYMENT_METHOD_CHANGE) → past_due,
 * so the grace period runs; cancelled by anyone or expired → canceled.
 */
export function preApprovalStatus(status: string): SubscriptionState['status'] {
  if (status === 'ACTIVE') return 'active';
  if (status === 'INITIATED' || status === 'PENDING') return 'incomplete';
  if (status === 'SUSPENDED' || status === 'PAYMENT_METHOD_CHANGE') return 'past_due';
  return 'canceled';
}

const xml = new XMLParser({ parseTagValue: false, isArray: (name) => name === 'transaction' || name === 'error' });

/** Non-2xx answers: 4xx with PagSeguro's <errors> are the request's fault, the rest are "try later". */
export class PagSeguroError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The DirectPayment script's path under the static origin (PagSeguro's transparent checkout). */
export const DIRECT_PAYMENT_SCRIPT = '/pagseguro/api/v2/checkout/pagseguro.directpayment.js';

/**
 * The form of a transparent-checkout card payment (`POST /v2/transactions`), one installment.
 * The sender is the admin paying; the card holder and billing address are what the form asked.
 */
export function cardTransactionForm(input: CardPaymentInput, notificationUrl: string): Record<string, string> {
  const amount = twoPlaces(input.amount);
  const digits = (s: string) => s.replace(/\D/g, '');
  return {
    paymentMode: 'default',
    paymentMethod: 'creditCard',
    currency: input.currency.toUpperCase(),
    itemId1: 'credits',
    itemDescription1: input.description.slice(0, 100),
    itemAmount1: amount,
    itemQuantity1: '1',
    reference: input.paymentId,
    notificationURL: notificationUrl,
    senderName: input.sender.name.slice(0, 50),
    senderEmail: input.sender.email,
    senderCPF: digits(input.holder.cpf),
    senderAreaCode: input.holder.areaCode,
    senderPhone: digits(input.holder.phone),
    senderHash: input.senderHash,
    shippingAddressRequired: 'false',
    creditCardToken: input.cardToken,
    installmentQuantity: '1',
    installmentValue: amount,
    creditCardHolderName: input.holder.name.slice(0, 50),
    creditCardHolderCPF: digits(input.holder.cpf),
    creditCardHolderBirthDate: input.holder.birthDate,
    creditCardHolderAreaCode: input.holder.areaCode,
    creditCardHolderPhone: digits(input.holder.phone),
    billingAddressStreet: input.billing.street.slice(0, 80),
    billingAddressNumber: input.billing.number.slice(0, 20),
    billingAddressComplement: (input.billing.complement ?? '').slice(0, 40),
    billingAddressDistrict: input.billing.district.slice(0, 60),
    billingAddressPostalCode: digits(input.billing.postalCode),
    billingAddressCity: input.billing.city.slice(0, 60),
    billingAddressState: input.billing.state.toUpperCase(),
    billingAddressCountry: 'BRA',
  };
}

/** A decimal string with exactly two places, as PagSeguro wants amounts ("1234.56"). */
export function twoPlaces(amount: string): string {
  const units = toUnits(amount);
  if (units % 100n !== 0n) throw new Error(`${amount} has more than two decimal places`);
  const s = fromUnits(units);
  return s.slice(0, s.length - 2);
}

export function pagseguroProvider(config: PagSeguroConfig): PaymentProvider {
  async function call(method: 'GET' | 'POST', path: string, params: Record<string, string> = {}, form?: Record<string, string>) {
    const url = new URL(path, config.apiUrl);
    url.search = new URLSearchParams({ email: config.email, token: config.token, ...params }).toString();
    const res = await fetch(url, {
      method,
      headers: form ? { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' } : {},
      body: form ? new URLSearchParams(form).toString() : undefined,
      signal: AbortSignal.timeout(20_000),
    });
    const text = await res.text();
    if (!res.ok) {
      const errors = (xml.parse(text)?.errors?.error ?? []) as { code?: string; message?: string }[];
      const detail = errors.map((e) => `${e.code}: ${e.message}`).join('; ') || text.slice(0, 200) || res.statusText;
      throw new PagSeguroError(res.status, `PagSeguro answered ${res.status}: ${detail}`);
    }
    return xml.parse(text) as Record<string, any>;
  }

  /**
   * The recurring-payment API (transparent pre-approvals): JSON bodies, PagSeguro's versioned
   * Accept header, the same credentials in the query string.
   */
  async function callJson(path: string, body: unknown): Promise<Record<string, any>> {
    const url = new URL(path, config.apiUrl);
    url.search = new URLSearchParams({ email: config.email, token: config.token }).toString();
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json;charset=ISO-8859-1', accept: 'application/vnd.pagseguro.com.br.json+xml;charset=ISO-8859-1' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(20_000),
    });
    const text = await res.text();
    let json: Record<string, any> = {};
    try {
      json = JSON.parse(text) as Record<string, any>;
    } catch {
      // An answer that is not JSON (a proxy's error page) is reported as it came.
    }
    if (!res.ok) {
      const detail = Object.entries((json.errors ?? {}) as Record<string, string>).map(([c, m]) => `${c}: ${m}`).join('; ') || text.slice(0, 200) || res.statusText;
      throw new PagSeguroError(res.status, `PagSeguro answered ${res.status}: ${detail}`);
    }
    return json;
  }

  const toTransaction = (t: Record<string, any>): Transaction => ({
    code: String(t.code),
    reference: t.reference === undefined ? undefined : String(t.reference),
    status: Number(t.status),
    grossAmount: String(t.grossAmount ?? '0'),
    cancellationSource: t.cancellationSource === undefined ? undefined : String(t.cancellationSource),
  });

  /** Every transaction PagSeguro has under one reference, folded into one payment state. */
  async function queryPayment(reference: string): Promise<PaymentState> {
    const answer = await call('GET', '/v2/transactions', { reference });
    const list = ((answer.transactionSearchResult?.transactions?.transaction ?? []) as Record<string, any>[]).map(toTransaction);
    const paid = list.filter((t) => PAID.has(t.status) || RETURNED.has(t.status));
    const refunds = list.filter((t) => RETURNED.has(t.status)).map((t) => ({ id: t.code, amount: fromUnits(toUnits(t.grossAmount)) }));
    if (paid.length) {
      const amount = paid.reduce((sum, t) => sum + toUnits(t.grossAmount), 0n);
      return { status: 'paid', amountPaid: fromUnits(amount), refunds, providerRef: paid[0]!.code };
    }
    if (list.some((t) => PENDING.has(t.status)) || !list.length) return { status: 'pending', amountPaid: '0.0000', refunds: [] };
    const cancelled = list.find((t) => t.status === CANCELLED)!;
    const failureReason = cancelled.cancellationSource === 'EXTERNAL' ? 'Refused by the card issuer' : cancelled.cancellationSource === 'INTERNAL' ? 'Refused by PagSeguro' : 'Cancelled';
    return { status: 'failed', amountPaid: '0.0000', refunds: [], providerRef: cancelled.code, failureReason };
  }

  return {
    name: 'pagseguro',

    async createTopUpCheckout(input): Promise<Checkout> {
      const answer = await call('POST', '/v2/checkout', {}, {
        currency: input.currency.toUpperCase(),
        itemId1: 'credits',
        itemDescription1: input.description.slice(0, 100),
        itemAmount1: twoPlaces(input.amount),
        itemQuantity1: '1',
        reference: input.paymentId,
        redirectURL: input.successUrl,
        notificationURL: config.notificationUrl,
      });
      const code = answer.checkout?.code;
      if (!code) throw new Error('PagSeguro answered a payment request without a code');
      const url = new URL('/v2/checkout/payment.html', config.checkoutUrl);
      url.searchParams.set('code', String(code));
      return { providerPaymentId: input.paymentId, url: url.toString() };
    },

    /**
     * PagSeguro signs nothing: the POST carries a notificationCode, and only PagSeguro can say what
     * it means. A code PagSeguro does not know (a forgery, or a replay against another account) is
     * refused; PagSeguro unreachable is an ordinary error (503, it sends the notification again).
     */
    async parseNotification(rawBody): Promise<Notification> {
      const form = new URLSearchParams(rawBody.toString('utf8'));
      const code = form.get('notificationCode') ?? '';
      const type = form.get('notificationType') ?? '';
      if (!/^[0-9A-Za-z-]{6,64}$/.test(code)) throw new ForgedNotification('No notificationCode');
      if (type !== 'transaction' && type !== 'preApproval') throw new ForgedNotification(`Unexpected notificationType "${type.slice(0, 40)}"`);
      const path = type === 'transaction' ? `/v3/transactions/notifications/${encodeURIComponent(code)}` : `/v2/pre-approvals/notifications/${encodeURIComponent(code)}`;
      let answer;
      try {
        answer = await call('GET', path);
      } catch (err) {
        if (err instanceof PagSeguroError && (err.status === 400 || err.status === 404)) throw new ForgedNotification(`PagSeguro does not know notification ${code}`);
        throw err;
      }
      if (type === 'preApproval') {
        const pre = answer.preApproval;
        if (!pre?.code) throw new ForgedNotification(`PagSeguro does not know notification ${code}`);
        return { eventId: code, type, providerPaymentId: pre.reference === undefined ? undefined : String(pre.reference), subscriptionId: String(pre.code) };
      }
      if (!answer.transaction?.[0]) throw new ForgedNotification(`PagSeguro does not know notification ${code}`);
      const t = toTransaction(answer.transaction[0]);
      // The reference is our payment id (and the payment's provider id once its checkout answered).
      return { eventId: code, type, providerPaymentId: t.reference, providerRef: t.code, paymentId: t.reference };
    },

    queryPayment,

    /** Refunds the paid transaction in full; the refund shows as status 6 on the next query. */
    async refund(reference) {
      const state = await queryPayment(reference);
      if (state.status !== 'paid' || !state.providerRef) throw new Error('This payment has nothing to refund');
      await call('POST', '/v2/transactions/refunds', {}, { transactionCode: state.providerRef });
    },

    /**
     * A pre-approval request (automatic monthly charge). Its reference, a fresh id, is what we keep
     * as the checkout id: the pre-approval's own code exists only once the customer accepts, and
     * arrives with its notification.
     */
    async createSubscription(input): Promise<Checkout> {
      const { plan } = input;
      if (!plan) throw new Error('PagSeguro subscriptions need a plan of the catalogue');
      const reference = `plan-${crypto.randomUUID()}`;
      const answer = await call('POST', '/v2/pre-approvals/request', {}, {
        reference,
        preApprovalCharge: 'auto',
        preApprovalName: plan.name.slice(0, 100),
        preApprovalDetails: `${plan.name} (${plan.key})`.slice(0, 255),
        preApprovalAmountPerPayment: twoPlaces(plan.monthlyPrice),
        preApprovalPeriod: 'MONTHLY',
        redirectURL: input.successUrl,
        reviewURL: input.cancelUrl,
        notificationURL: config.notificationUrl,
      });
      const code = answer.preApprovalRequest?.code;
      if (!code) throw new Error('PagSeguro answered a pre-approval request without a code');
      const url = new URL('/v2/pre-approvals/request.html', config.checkoutUrl);
      url.searchParams.set('code', String(code));
      return { providerPaymentId: reference, url: url.toString() };
    },

    /** A v2 session: the DirectPayment script in the browser needs it to make card tokens. */
    async cardSession() {
      const answer = await call('POST', '/v2/sessions');
      const id = answer.session?.id;
      if (!id) throw new Error('PagSeguro answered a session request without an id');
      return { sessionId: String(id), scriptUrl: new URL(DIRECT_PAYMENT_SCRIPT, config.staticUrl).toString() };
    },

    /**
     * The transparent checkout's payment: the card token and sender hash made in the browser, our
     * payment id as the reference. PagSeguro answers the transaction (usually awaiting payment or
     * in analysis); whether it is paid is what queryPayment and the notification say.
     */
    async payByCard(input) {
      const answer = await call('POST', '/v2/transactions', {}, cardTransactionForm(input, config.notificationUrl));
      const code = answer.transaction?.[0]?.code;
      if (!code) throw new Error('PagSeguro answered a card payment without a transaction code');
      return { providerRef: String(code) };
    },

    /**
     * A plan paid by card on our page: a pre-approval plan for the catalogue plan (automatic
     * monthly charge), then the admin's adhesion to it with the card token and sender hash.
     */
    async subscribeByCard(input) {
      const digits = (v: string) => v.replace(/\D/g, '');
      const plan = await callJson('/pre-approvals/request', {
        reference: input.reference,
        preApproval: { name: input.plan.name.slice(0, 100), charge: 'AUTO', period: 'MONTHLY', amountPerPayment: twoPlaces(input.plan.monthlyPrice), details: `${input.plan.name} (${input.plan.key})`.slice(0, 255) },
      });
      if (!plan.code) throw new Error('PagSeguro answered a plan request without a code');
      const phone = { areaCode: input.holder.areaCode, number: digits(input.holder.phone) };
      const cpf = [{ type: 'CPF', value: digits(input.holder.cpf) }];
      const address = { ...input.billing, complement: input.billing.complement ?? '', postalCode: digits(input.billing.postalCode), state: input.billing.state.toUpperCase(), country: 'BRA' };
      const adhesion = await callJson('/pre-approvals', {
        plan: String(plan.code),
        reference: input.reference,
        sender: { name: input.sender.name.slice(0, 50), email: input.sender.email, hash: input.senderHash, phone, address, documents: cpf },
        paymentMethod: {
          type: 'CREDITCARD',
          creditCard: { token: input.cardToken, holder: { name: input.holder.name.slice(0, 50), birthDate: input.holder.birthDate, documents: cpf, phone, billingAddress: address } },
        },
      });
      if (!adhesion.code) throw new Error('PagSeguro answered an adhesion without a code');
      return { subscriptionId: String(adhesion.code) };
    },

    /** The v2 pre-approvals cancellation; a pre-approval never accepted has nothing to cancel. */
    async cancelSubscription(_reference, code) {
      if (!code) return;
      const current = await this.querySubscription(_reference, code);
      if (current.status === 'canceled') return;
      await call('GET', `/v2/pre-approvals/cancel/${encodeURIComponent(code)}`);
    },

    async querySubscription(_reference, code): Promise<SubscriptionState> {
      if (!code) return { status: 'incomplete' };
      const answer = await call('GET', `/v2/pre-approvals/${encodeURIComponent(code)}`);
      return { status: preApprovalStatus(String(answer.preApproval?.status ?? '')), subscriptionId: code };
    },
  };
}
