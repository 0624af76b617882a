/**
 * A local server that speaks the part of Stripe's API the app uses (form-encoded requests with
 * nested keys, Bearer secret key, Idempotency-Key, expand[]), serves a checkout page, and
 * delivers webhooks signed the way Stripe signs them (Stripe-Signature: t=…,v1=HMAC-SHA256 of
 * "t.payload" with the endpoint secret). Tests drive it like a customer or a Stripe dashboard.
 */
import { createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StripeSession {
  id: string;
  object: 'checkout.session';
  mode: string;
  status: 'open' | 'complete' | 'expired';
  payment_status: 'unpaid' | 'paid';
  amount_total: number;
  currency: string;
  url: string;
  success_url: string;
  cancel_url: string;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  payment_intent: string | null;
  subscription?: string | null;
}
interface Sub {
  id: string;
  object: 'subscription';
  status: 'active' | 'past_due' | 'unpaid' | 'canceled';
  items: { data: { price: { id: string } }[] };
  metadata: Record<string, string>;
}
interface Intent {
  id: string;
  object: 'payment_intent';
  status: 'requires_payment_method' | 'succeeded' | 'canceled';
  amount: number;
  currency: string;
  metadata: Record<string, string>;
  last_payment_error: { code: string; message: string } | null;
  latest_charge: string | null;
}
interface Refund {
  id: string;
  object: 'refund';
  amount: number;
  payment_intent: string;
  charge: string | null;
  status: 'succeeded';
}
export interface StripeEvent {
  id: string;
  object: 'event';
  type: string;
  created: number;
  data: { object: unknown };
}

const newId = (prefix: string) => `${prefix}_test_${randomBytes(12).toString('hex')}`;

/** Stripe's form encoding: a[b][0][c]=v → { a: { b: [ { c: 'v' } ] } }. */
export function parseForm(body: string): Record<string, any> {
  const out: Record<string, any> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const parts = key.replace(/\]/g, '').split('[');
    let node: any = out;
    parts.forEach((part, i) => {
      const last = i === parts.length - 1;
      const nextIsIndex = !last && /^\d+$/.test(parts[i + 1]!);
      const k = Array.isArray(node) ? Number(part) : part;
      if (last) node[k] = value;
      else node = node[k] ??= nextIsIndex ? [] : {};
    });
  }
  return out;
}

export function signPayload(payload: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): string {
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

export async function startStripeServer(opts: { secretKey?: string; webhookSecret?: string } = {}) {
  const secretKey = opts.secretKey ?? `sk_test_${randomBytes(8).toString('hex')}`;
  const webhookSecret = opts.webhookSecret ?? `whsec_${randomBytes(16).toString('hex')}`;
  const sessions = new Map<string, StripeSession>();
  const intents = new Map<string, Intent>();
  const refunds: Refund[] = [];
  const subscriptions = new Map<string, Sub>();
  const idempotent = new Map<string, unknown>();
  const events: StripeEvent[] = [];
  const deliveries: { eventId: string; status: number }[] = [];
  let origin = '';
  const state = { webhookUrl: '', requests: 0, cancelled: [] as string[], dropCheckouts: 0 };

  const expandIntent = (s: StripeSession, expand: string[]) => ({
    ...s,
    ...(expand.includes('payment_intent') && s.payment_intent && { payment_intent: intents.get(s.payment_intent) }),
    ...(expand.includes('subscription') && s.subscription && { subscription: subscriptions.get(s.subscription) }),
  });

  async function deliver(event: StripeEvent, opts: { secret?: string; signature?: string } = {}) {
    const payload = JSON.stringify(event);
    const res = await fetch(state.webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': opts.signature ?? signPayload(payload, opts.secret ?? webhookSecret) },
      body: payload,
    });
    await res.text();
    deliveries.push({ eventId: event.id, status: res.status });
    return res.status;
  }
  function emit(type: string, object: unknown): StripeEvent {
    const event: StripeEvent = { id: newId('evt'), object: 'event', type, created: Math.floor(Date.now() / 1000), data: { object: structuredClone(object) } };
    events.push(event);
    return event;
  }
  function intentFor(s: StripeSession): Intent {
    if (s.payment_intent) return intents.get(s.payment_intent)!;
    const pi: Intent = { id: newId('pi'), object: 'payment_intent', status: 'requires_payment_method', amount: s.amount_total, currency: s.currency, metadata: (s as any).pi_metadata ?? {}, last_payment_error: null, latest_charge: null };
    intents.set(pi.id, pi);
    s.payment_intent = pi.id;
    return pi;
  }

  /** The customer pays: the session completes and its webhook is sent (unless `send` is false). */
  async function pay(sessionId: string, send = true) {
    const s = sessions.get(sessionId)!;
    if (s.mode === 'subscription') {
      const sub: Sub = { id: newId('sub'), object: 'subscription', status: 'active', items: { data: [{ price: { id: (s as any).price } }] }, metadata: s.metadata };
      subscriptions.set(sub.id, sub);
      Object.assign(s, { status: 'complete', payment_status: 'paid', subscription: sub.id });
      const event = emit('checkout.session.completed', s);
      if (send) await deliver(event);
      return event;
    }
    const pi = intentFor(s);
    Object.assign(pi, { status: 'succeeded', last_payment_error: null, latest_charge: newId('ch') });
    Object.assign(s, { status: 'complete', payment_status: 'paid' });
    const event = emit('checkout.session.completed', s);
    if (send) await deliver(event);
    return event;
  }
  /** The customer's card is refused: the session stays open, the PaymentIntent records the error. */
  async function decline(sessionId: string, send = true) {
    const s = sessions.get(sessionId)!;
    const pi = intentFor(s);
    pi.last_payment_error = { code: 'card_declined', message: 'Your card was declined.' };
    const event = emit('payment_intent.payment_failed', pi);
    if (send) await deliver(event);
    return event;
  }
  function refund(paymentIntent: string): Refund {
    const pi = intents.get(paymentIntent)!;
    const r: Refund = { id: newId('re'), object: 'refund', amount: pi.amount, payment_intent: pi.id, charge: pi.latest_charge, status: 'succeeded' };
    refunds.push(r);
    return r;
  }
  /** A refund made in the Stripe dashboard: Stripe announces it with charge.refunded. */
  /** A renewal: paid (invoice.paid) or refused (invoice.payment_failed, the subscription goes past_due, then unpaid). */
  async function renew(subscriptionId: string, outcome: 'paid' | 'failed' | 'unpaid', send = true) {
    const sub = subscriptions.get(subscriptionId)!;
    sub.status = outcome === 'paid' ? 'active' : outcome === 'failed' ? 'past_due' : 'unpaid';
    const invoice = { id: newId('in'), object: 'invoice', status: outcome === 'paid' ? 'paid' : 'open', subscription: sub.id };
    const event = emit(outcome === 'paid' ? 'invoice.paid' : outcome === 'failed' ? 'invoice.payment_failed' : 'customer.subscription.updated', outcome === 'unpaid' ? sub : invoice);
    if (send) await deliver(event);
    return event;
  }
  async function refundFromDashboard(sessionId: string, send = true) {
    const s = sessions.get(sessionId)!;
    const r = refund(s.payment_intent!);
    const event = emit('charge.refunded', { id: r.charge, object: 'charge', payment_intent: r.payment_intent, amount: r.amount, amount_refunded: r.amount, refunded: true });
    if (send) await deliver(event);
    return event;
  }

  function api(req: http.IncomingMessage, body: string, url: URL): { status: number; json: unknown } {
    if (req.headers.authorization !== `Bearer ${secretKey}`) return { status: 401, json: { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } } };
    const key = req.headers['idempotency-key'];
    const idemKey = typeof key === 'string' && req.method === 'POST' ? `${url.pathname} ${key}` : null;
    if (idemKey && idempotent.has(idemKey)) return { status: 200, json: idempotent.get(idemKey) };
    const form = parseForm(req.method === 'GET' ? url.search.slice(1) : body);
    const expand: string[] = Array.isArray(form.expand) ? form.expand : [];
    const answer = (json: unknown) => {
      if (idemKey) idempotent.set(idemKey, json);
      return { status: 200, json };
    };
    const notFound = { status: 404, json: { error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such object' } } };
    let m: RegExpMatchArray | null;
    if (req.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
      const item = form.line_items?.[0] ?? {};
      const amount = Number(item.price_data?.unit_amount ?? 0) * Number(item.quantity ?? 1);
      const id = newId('cs');
      const s: StripeSession = {
        id,
        object: 'checkout.session',
        mode: form.mode,
        status: 'open',
        payment_status: 'unpaid',
        amount_total: amount,
        currency: item.price_data?.currency ?? 'usd',
        url: `${origin}/pay/${id}`,
        success_url: form.success_url,
        cancel_url: form.cancel_url,
        client_reference_id: form.client_reference_id ?? null,
        metadata: form.metadata ?? {},
        payment_intent: null,
      };
      if (form.mode === 'subscription') Object.assign(s, { subscription: null, price: item.price ?? null, amount_total: item.price_data ? amount : 9900, recurring: item.price_data?.recurring ?? null });
      Object.defineProperty(s, 'pi_metadata', { value: form.payment_intent_data?.metadata ?? {}, enumerable: false });
      sessions.set(id, s);
      return answer(s);
    }
    if (req.method === 'GET' && (m = url.pathname.match(/^\/v1\/checkout\/sessions\/([\w]+)$/))) {
      const s = sessions.get(m[1]!);
      return s ? answer(expandIntent(s, expand)) : notFound;
    }
    if (req.method === 'DELETE' && (m = url.pathname.match(/^\/v1\/subscriptions\/([\w]+)$/))) {
      const sub = subscriptions.get(m[1]!);
      if (!sub) return notFound;
      if (sub.status === 'canceled') return { status: 400, json: { error: { type: 'invalid_request_error', message: 'A canceled subscription can only update its cancellation_details and metadata.' } } };
      sub.status = 'canceled';
      state.cancelled.push(sub.id);
      const event = emit('customer.subscription.deleted', sub);
      // Stripe announces it after answering the request.
      setImmediate(() => void deliver(event).catch(() => undefined));
      return answer(sub);
    }
    if (req.method === 'GET' && url.pathname === '/v1/refunds') {
      const data = refunds.filter((r) => !form.payment_intent || r.payment_intent === form.payment_intent);
      return answer({ object: 'list', data, has_more: false, url: '/v1/refunds' });
    }
    if (req.method === 'POST' && url.pathname === '/v1/refunds') {
      const pi = intents.get(form.payment_intent);
      if (!pi || pi.status !== 'succeeded') return { status: 400, json: { error: { type: 'invalid_request_error', message: 'This PaymentIntent cannot be refunded' } } };
      return answer(refund(pi.id));
    }
    return notFound;
  }

  function checkoutPage(s: StripeSession, note = ''): string {
    const amount = (s.amount_total / 100).toFixed(2);
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test checkout</title></head><body>
<main><h1>Test checkout</h1><p>Pay <strong>${amount} ${s.currency.toUpperCase()}</strong></p>${note ? `<p role="alert">${note}</p>` : ''}
<form method="post" action="/pay/${s.id}/complete"><button type="submit">Pay</button></form>
<form method="post" action="/pay/${s.id}/decline"><button type="submit">Use a card that is refused</button></form>
<a href="${s.cancel_url}">Back</a></main></body></html>`;
  }

  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', async () => {
      state.requests++;
      const url = new URL(req.url ?? '/', origin);
      const page = url.pathname.match(/^\/pay\/(\w+)(?:\/(complete|decline))?$/);
      if (page) {
        const s = sessions.get(page[1]!);
        if (!s) return void res.writeHead(404).end('No such checkout');
        if (page[2] === 'complete' && req.method === 'POST') {
          await pay(s.id);
          return void res.writeHead(303, { location: s.success_url }).end();
        }
        if (page[2] === 'decline' && req.method === 'POST') {
          await decline(s.id);
          return void res.writeHead(200, { 'content-type': 'text/html' }).end(checkoutPage(s, 'Your card was declined.'));
        }
        return void res.writeHead(200, { 'content-type': 'text/html' }).end(checkoutPage(s));
      }
      const out = api(req, body, url);
      // The network failing after Stripe acted: the session exists, its answer never arrives.
      if (state.dropCheckouts > 0 && req.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
        state.dropCheckouts--;
        return void req.socket.destroy();
      }
      res.writeHead(out.status, { 'content-type': 'application/json', 'request-id': newId('req') }).end(JSON.stringify(out.json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: origin,
    secretKey,
    webhookSecret,
    /** Settings that point the app at this server. */
    env: { STRIPE_SECRET_KEY: secretKey, STRIPE_WEBHOOK_SECRET: webhookSecret, STRIPE_API_URL: origin },
    setWebhookUrl: (url: string) => void (state.webhookUrl = url),
    /** Subscriptions cancelled through the API (DELETE /v1/subscriptions/:id), in order. */
    cancelled: state.cancelled,
    /** The next `n` checkout-session creations are made but their answers are lost (the connection drops). */
    dropCheckouts: (n: number) => void (state.dropCheckouts = n),
    sessions,
    events,
    deliveries,
    pay,
    decline,
    refundFromDashboard,
    renew,
    subscriptions,
    deliver,
    /** Expires an open session (Stripe does after 24 h) and announces it. */
    async expire(sessionId: string) {
      const s = sessions.get(sessionId)!;
      s.status = 'expired';
      return deliver(emit('checkout.session.expired', s));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type StripeServer = Awaited<ReturnType<typeof startStripeServer>>;
