/**
 * A local server that speaks the part of PagSeguro's API the app uses: `email` and `token` in the
 * query string, form-encoded requests, XML answers (<errors> on a refused request). Payment
 * requests (`POST /v2/checkout`) get a code the customer pays on `/v2/checkout/payment.html`;
 * each change of a transaction's status makes a notification code, POSTed to the request's
 * notificationURL as `notificationCode` + `notificationType=transaction`, which only
 * `GET /v3/transactions/notifications/{code}` turns into the transaction. Transactions are found
 * by reference (`GET /v2/transactions?reference=`) and refunded by `POST /v2/transactions/refunds`.
 *
 * Transparent checkout: `POST /v2/sessions` makes a session; the DirectPayment script it serves at
 * DIRECT_PAYMENT_SCRIPT (the same `PagSeguroDirectPayment` API as PagSeguro's: setSessionId,
 * getBrand, createCardToken, onSenderHashReady) asks this server for the brand, a single-use card
 * token and a sender hash; `POST /v2/transactions` (paymentMethod creditCard) accepts only those,
 * answers the transaction awaiting payment, then decides it (TEST_CARDS) and notifies.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PagSeguroCheckout {
  code: string;
  reference: string;
  currency: string;
  amount: string;
  description: string;
  redirectURL: string;
  notificationURL: string;
}
export interface PagSeguroTransaction {
  code: string;
  reference: string;
  /** 1 awaiting payment, 2 in analysis, 3 paid, 4 available, 5 dispute, 6 returned, 7 cancelled. */
  status: number;
  grossAmount: string;
  cancellationSource?: 'INTERNAL' | 'EXTERNAL';
  date: string;
  lastEventDate: string;
  notificationURL: string;
}
export interface PagSeguroPreApprovalRequest {
  code: string;
  reference: string;
  name: string;
  amountPerPayment: string;
  period: string;
  charge: string;
  redirectURL: string;
  notificationURL: string;
  /** The pre-approval, once the customer accepted. */
  preApprovalCode?: string;
}
export interface PagSeguroPreApproval {
  code: string;
  reference: string;
  name: string;
  status: 'INITIATED' | 'PENDING' | 'ACTIVE' | 'SUSPENDED' | 'PAYMENT_METHOD_CHANGE' | 'CANCELLED' | 'CANCELLED_BY_SENDER' | 'CANCELLED_BY_RECEIVER' | 'EXPIRED';
  date: string;
  lastEventDate: string;
  notificationURL: string;
}
export interface PagSeguroNotification {
  notificationCode: string;
  notificationType: 'transaction' | 'preApproval';
  /** The transaction's or the pre-approval's code. */
  transactionCode: string;
  url: string;
}

/** Test cards: the first is approved, the second refused by its issuer (status 7, EXTERNAL). */
export const TEST_CARDS = { approved: '4111111111111111', refused: '4000000000000002' } as const;
const SCRIPT_PATH = '/pagseguro/api/v2/checkout/pagseguro.directpayment.js';

const luhn = (n: string) =>
  /^\d{13,19}$/.test(n) &&
  [...n].reverse().reduce((sum, c, i) => {
    const d = Number(c) * (i % 2 ? 2 : 1);
    return sum + (d > 9 ? d - 9 : d);
  }, 0) %
    10 ===
    0;
const brandOf = (bin: string) => (bin.startsWith('4') ? 'visa' : /^5[1-5]/.test(bin) ? 'mastercard' : /^3[47]/.test(bin) ? 'amex' : null);

/** The browser script: PagSeguro's DirectPayment API, talking to this server. */
function directPaymentScript(origin: string) {
  return `(function () {
  var origin = ${JSON.stringify(origin)};
  var sessionId = null;
  function post(path, params) {
    return fetch(origin + path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(params).toString() })
      .then(function (r) { return r.text().then(function (text) { return { ok: r.ok, text: text }; }); });
  }
  function tag(xml, name) { var m = new RegExp('<' + name + '>([^<]*)</' + name + '>').exec(xml); return m ? m[1] : null; }
  function errorsOf(xml) { var out = {}; var re = /<code>([^<]*)<\\/code><message>([^<]*)<\\/message>/g; var m; while ((m = re.exec(xml))) out[m[1]] = m[2]; return out; }
  function failed(o, errors) { var r = { error: true, errors: errors }; if (o.error) o.error(r); if (o.complete) o.complete(r); }
  window.PagSeguroDirectPayment = {
    setSessionId: function (id) { sessionId = id; },
    getBrand: function (o) {
      fetch(origin + '/df-fe/mvc/creditcard/v1/getBin?tk=' + encodeURIComponent(sessionId) + '&creditCard=' + encodeURIComponent(o.cardBin))
        .then(function (r) { return r.json(); })
        .then(function (j) {
          if (j.statusMessage !== 'Success') return failed(o, { '30400': 'invalid creditcard bin' });
          var r = { brand: { name: j.bin.brand.name, bin: j.bin.bin, cvvSize: j.bin.cvvSize, expirable: true, validationAlgorithm: 'LUHN' } };
          if (o.success) o.success(r); if (o.complete) o.complete(r);
        }, function () { failed(o, { '10000': 'network error' }); });
    },
    createCardToken: function (o) {
      post('/v2/cards', { sessionId: sessionId, amount: o.amount || '', cardNumber: o.cardNumber, cardBrand: o.brand, cardCvv: o.cvv, cardExpirationMonth: o.expirationMonth, cardExpirationYear: o.expirationYear })
        .then(function (res) {
          if (!res.ok) return failed(o, errorsOf(res.text));
          var r = { card: { token: tag(res.text, 'token') } };
          if (o.success) o.success(r); if (o.complete) o.complete(r);
        }, function () { failed(o, { '10000': 'network error' }); });
    },
    onSenderHashReady: function (cb) {
      post('/v2/sender-hash', { sessionId: sessionId }).then(function (res) {
        cb(res.ok ? { status: 'success', senderHash: tag(res.text, 'hash') } : { status: 'error', message: 'invalid session' });
      }, function () { cb({ status: 'error', message: 'network error' }); });
    },
    getSenderHash: function () { return null; }
  };
})();
`;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const XML_HEAD = '<?xml version="1.0" encoding="ISO-8859-1" standalone="yes"?>';
const errorsXml = (errors: [string, string][]) => `${XML_HEAD}<errors>${errors.map(([c, m]) => `<error><code>${c}</code><message>${esc(m)}</message></error>`).join('')}</errors>`;
const notificationCode = () => {
  const hex = randomBytes(16).toString('hex').toUpperCase();
  return `${hex.slice(0, 6)}-${hex.slice(6, 18)}-${hex.slice(18, 30)}-${hex.slice(30, 32)}${randomBytes(2).toString('hex').toUpperCase()}`;
};

function transactionXml(t: PagSeguroTransaction): string {
  return `<transaction><date>${t.date}</date><code>${t.code}</code><reference>${esc(t.reference)}</reference><type>1</type><status>${t.status}</status>${
    t.cancellationSource ? `<cancellationSource>${t.cancellationSource}</cancellationSource>` : ''
  }<lastEventDate>${t.lastEventDate}</lastEventDate><paymentMethod><type>1</type><code>101</code></paymentMethod><grossAmount>${t.grossAmount}</grossAmount><discountAmount>0.00</discountAmount><feeAmount>0.00</feeAmount><netAmount>${t.grossAmount}</netAmount><extraAmount>0.00</extraAmount><installmentCount>1</installmentCount><itemCount>1</itemCount></transaction>`;
}

export async function startPagSeguroServer(opts: { email?: string; token?: string } = {}) {
  const email = opts.email ?? 'vendas@example.test';
  const token = opts.token ?? randomBytes(16).toString('hex').toUpperCase();
  const checkouts = new Map<string, PagSeguroCheckout>();
  const transactions = new Map<string, PagSeguroTransaction>();
  const notifications = new Map<string, PagSeguroNotification>();
  const preApprovalRequests = new Map<string, PagSeguroPreApprovalRequest>();
  const preApprovals = new Map<string, PagSeguroPreApproval>();
  /** Transparent checkout: sessions, single-use card tokens (what the card was), sender hashes of a session. */
  const sessions = new Set<string>();
  const cardTokens = new Map<string, { number: string; used: boolean; session: string }>();
  const senderHashes = new Map<string, string>();
  /** Every card payment request received (`POST /v2/transactions`), as sent. */
  const cardPayments: Record<string, string>[] = [];
  /** Pre-approvals cancelled through the API (GET /v2/pre-approvals/cancel/:code), in order. */
  const cancelled: string[] = [];
  const dropping = { checkouts: 0 };
  const deliveries: { notificationCode: string; status: number }[] = [];
  let origin = '';

  async function deliver(note: PagSeguroNotification, code = note.notificationCode) {
    const res = await fetch(note.url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=ISO-8859-1' },
      body: new URLSearchParams({ notificationCode: code, notificationType: note.notificationType }).toString(),
    });
    await res.text();
    deliveries.push({ notificationCode: code, status: res.status });
    return res.status;
  }
  /** A status change: the transaction moves, and a fresh notification code announces it. */
  async function change(t: PagSeguroTransaction, status: number, send: boolean) {
    Object.assign(t, { status, lastEventDate: new Date().toISOString() });
    const note: PagSeguroNotification = { notificationCode: notificationCode(), notificationType: 'transaction', transactionCode: t.code, url: t.notificationURL };
    notifications.set(note.notificationCode, note);
    if (send) await deliver(note);
    return note;
  }
  /** A pre-approval changes status (accepted, suspended after a refused charge, cancelled...), and is announced. */
  async function setPreApproval(code: string, status: PagSeguroPreApproval['status'], send = true) {
    const p = preApprovals.get(code)!;
    Object.assign(p, { status, lastEventDate: new Date().toISOString() });
    const note: PagSeguroNotification = { notificationCode: notificationCode(), notificationType: 'preApproval', transactionCode: p.code, url: p.notificationURL };
    notifications.set(note.notificationCode, note);
    if (send) await deliver(note);
    return note;
  }
  /** The customer accepts the pre-approval on PagSeguro's page: it becomes ACTIVE. */
  async function acceptPreApproval(requestCode: string, send = true) {
    const r = preApprovalRequests.get(requestCode)!;
    const now = new Date().toISOString();
    const p: PagSeguroPreApproval = { code: randomBytes(16).toString('hex').toUpperCase(), reference: r.reference, name: r.name, status: 'PENDING', date: now, lastEventDate: now, notificationURL: r.notificationURL };
    preApprovals.set(p.code, p);
    r.preApprovalCode = p.code;
    return { preApproval: p, notification: await setPreApproval(p.code, 'ACTIVE', send) };
  }
  const preApprovalXml = (p: PagSeguroPreApproval) =>
    `${XML_HEAD}<preApproval><name>${esc(p.name)}</name><code>${p.code}</code><date>${p.date}</date><tracker>${p.code.slice(0, 6)}</tracker><status>${p.status}</status><reference>${esc(p.reference)}</reference><lastEventDate>${p.lastEventDate}</lastEventDate><charge>auto</charge></preApproval>`;

  function newTransaction(c: PagSeguroCheckout): PagSeguroTransaction {
    const now = new Date().toISOString();
    const t: PagSeguroTransaction = { code: randomUUID().toUpperCase(), reference: c.reference, status: 1, grossAmount: c.amount, date: now, lastEventDate: now, notificationURL: c.notificationURL };
    transactions.set(t.code, t);
    return t;
  }

  /** The customer pays on PagSeguro's page: a transaction is created and approved (status 3). */
  async function pay(checkoutCode: string, send = true) {
    const t = newTransaction(checkouts.get(checkoutCode)!);
    return { transaction: t, notification: await change(t, 3, send) };
  }
  /** The card is refused: the transaction ends cancelled by the issuer (status 7, EXTERNAL). */
  async function decline(checkoutCode: string, send = true) {
    const t = newTransaction(checkouts.get(checkoutCode)!);
    t.cancellationSource = 'EXTERNAL';
    return { transaction: t, notification: await change(t, 7, send) };
  }
  function refundable(transactionCode: string) {
    const t = transactions.get(transactionCode);
    return t && (t.status === 3 || t.status === 4) ? t : null;
  }
  /** A refund made in PagSeguro's own panel: the transaction is returned (status 6). */
  async function refundFromPanel(transactionCode: string, send = true) {
    return change(refundable(transactionCode)!, 6, send);
  }

  function api(req: http.IncomingMessage, body: string, url: URL): { status: number; body: string } {
    if (url.searchParams.get('email') !== email || url.searchParams.get('token') !== token) return { status: 401, body: 'Unauthorized' };
    const form = new URLSearchParams(body);
    let m: RegExpMatchArray | null;
    if (req.method === 'POST' && url.pathname === '/v2/checkout') {
      const errors: [string, string][] = [];
      if (form.get('currency') !== 'BRL') errors.push(['11004', 'Currency is required.']);
      const amount = form.get('itemAmount1') ?? '';
      if (!/^\d{1,7}\.\d{2}$/.test(amount) || Number(amount) < 0.01) errors.push(['11026', `Item amount invalid pattern: ${amount}. Must fit the patern: \\d+.\\d{2}`]);
      if (!form.get('itemId1') || !form.get('itemDescription1') || form.get('itemQuantity1') !== '1') errors.push(['11010', 'Item data is required.']);
      if ((form.get('reference') ?? '').length > 200) errors.push(['11036', 'reference invalid length.']);
      if (errors.length) return { status: 400, body: errorsXml(errors) };
      const code = randomBytes(16).toString('hex').toUpperCase();
      checkouts.set(code, {
        code,
        reference: form.get('reference') ?? '',
        currency: 'BRL',
        amount,
        description: form.get('itemDescription1')!,
        redirectURL: form.get('redirectURL') ?? '',
        notificationURL: form.get('notificationURL') ?? '',
      });
      return { status: 200, body: `${XML_HEAD}<checkout><code>${code}</code><date>${new Date().toISOString()}</date></checkout>` };
    }
    if (req.method === 'POST' && url.pathname === '/v2/pre-approvals/request') {
      const errors: [string, string][] = [];
      const amount = form.get('preApprovalAmountPerPayment') ?? '';
      if (!/^\d{1,7}\.\d{2}$/.test(amount)) errors.push(['11088', `preApprovalAmountPerPayment invalid pattern: ${amount}`]);
      if (!['WEEKLY', 'MONTHLY', 'BIMONTHLY', 'TRIMONTHLY', 'SEMIANNUALLY', 'YEARLY'].includes(form.get('preApprovalPeriod') ?? '')) errors.push(['11083', 'preApprovalPeriod invalid value.']);
      if (!['auto', 'manual'].includes(form.get('preApprovalCharge') ?? '')) errors.push(['11079', 'preApprovalCharge invalid value.']);
      if (!form.get('preApprovalName')) errors.push(['11080', 'preApprovalName is required.']);
      if (errors.length) return { status: 400, body: errorsXml(errors) };
      const code = randomBytes(16).toString('hex').toUpperCase();
      preApprovalRequests.set(code, {
        code,
        reference: form.get('reference') ?? '',
        name: form.get('preApprovalName')!,
        amountPerPayment: amount,
        period: form.get('preApprovalPeriod')!,
        charge: form.get('preApprovalCharge')!,
        redirectURL: form.get('redirectURL') ?? '',
        notificationURL: form.get('notificationURL') ?? '',
      });
      return { status: 200, body: `${XML_HEAD}<preApprovalRequest><code>${code}</code><date>${new Date().toISOString()}</date></preApprovalRequest>` };
    }
    if (req.method === 'GET' && (m = url.pathname.match(/^\/v2\/pre-approvals\/notifications\/([\w-]+)$/))) {
      const note = notifications.get(m[1]!);
      if (!note || note.notificationType !== 'preApproval') return { status: 404, body: errorsXml([['13001', 'invalid notification code value']]) };
      return { status: 200, body: preApprovalXml(preApprovals.get(note.transactionCode)!) };
    }
    if (req.method === 'GET' && (m = url.pathname.match(/^\/v2\/pre-approvals\/cancel\/(\w+)$/))) {
      const p = preApprovals.get(m[1]!);
      if (!p) return { status: 404, body: errorsXml([['100005', 'Pre-approval not found']]) };
      if (p.status.startsWith('CANCELLED')) return { status: 400, body: errorsXml([['17022', 'invalid pre-approval status to execute the requested operation. Pre-approval status is CANCELLED.']]) };
      cancelled.push(p.code);
      // Cancelled by the seller; PagSeguro announces it after answering.
      setImmediate(() => void setPreApproval(p.code, 'CANCELLED').catch(() => undefined));
      p.status = 'CANCELLED';
      return { status: 200, body: `${XML_HEAD}<result><date>${new Date().toISOString()}</date><status>OK</status></result>` };
    }
    if (req.method === 'GET' && (m = url.pathname.match(/^\/v2\/pre-approvals\/(\w+)$/))) {
      const p = preApprovals.get(m[1]!);
      return p ? { status: 200, body: preApprovalXml(p) } : { status: 404, body: errorsXml([['100005', 'Pre-approval not found']]) };
    }
    if (req.method === 'POST' && url.pathname === '/v2/sessions') {
      const id = randomBytes(16).toString('hex');
      sessions.add(id);
      return { status: 200, body: `${XML_HEAD}<session><id>${id}</id></session>` };
    }
    if (req.method === 'POST' && url.pathname === '/v2/transactions') return cardPayment(form);
    if (req.method === 'POST' && (url.pathname === '/pre-approvals/request' || url.pathname === '/pre-approvals')) return recurring(url.pathname, body);
    if (req.method === 'GET' && (m = url.pathname.match(/^\/v3\/transactions\/notifications\/([\w-]+)$/))) {
      const note = notifications.get(m[1]!);
      if (!note || note.notificationType !== 'transaction') return { status: 404, body: errorsXml([['13001', 'invalid notification code value']]) };
      return { status: 200, body: `${XML_HEAD}${transactionXml(transactions.get(note.transactionCode)!)}` };
    }
    if (req.method === 'GET' && url.pathname === '/v2/transactions') {
      const reference = url.searchParams.get('reference');
      if (!reference) return { status: 400, body: errorsXml([['13020', 'reference is required.']]) };
      const found = [...transactions.values()].filter((t) => t.reference === reference);
      return {
        status: 200,
        body: `${XML_HEAD}<transactionSearchResult><date>${new Date().toISOString()}</date><currentPage>1</currentPage><resultsInThisPage>${found.length}</resultsInThisPage><totalPages>1</totalPages>${
          found.length ? `<transactions>${found.map(transactionXml).join('')}</transactions>` : ''
        }</transactionSearchResult>`,
      };
    }
    if (req.method === 'POST' && url.pathname === '/v2/transactions/refunds') {
      const t = refundable(form.get('transactionCode') ?? '');
      if (!t) return { status: 400, body: errorsXml([['56002', 'Transaction status does not allow refund.']]) };
      void change(t, 6, true);
      return { status: 200, body: `${XML_HEAD}<result>OK</result>` };
    }
    return { status: 404, body: 'Not Found' };
  }

  /** `POST /v2/transactions`, credit card: checks what the real API requires, then decides the card. */
  function cardPayment(form: URLSearchParams): { status: number; body: string } {
    cardPayments.push(Object.fromEntries(form));
    const errors: [string, string][] = [];
    const need = (field: string, ok: (v: string) => boolean, code: string) => {
      if (!ok(form.get(field) ?? '')) errors.push([code, `${field} invalid value.`]);
    };
    need('paymentMode', (v) => v === 'default', '53004');
    need('paymentMethod', (v) => v === 'creditCard', '53034');
    need('currency', (v) => v === 'BRL', '53005');
    need('itemAmount1', (v) => /^\d{1,7}\.\d{2}$/.test(v), '53026');
    need('itemQuantity1', (v) => v === '1', '53022');
    need('senderEmail', (v) => /^\S+@\S+$/.test(v), '53010');
    need('senderCPF', (v) => /^\d{11}$/.test(v), '53020');
    need('creditCardHolderCPF', (v) => /^\d{11}$/.test(v), '53053');
    need('creditCardHolderBirthDate', (v) => /^\d{2}\/\d{2}\/\d{4}$/.test(v), '53049');
    need('billingAddressPostalCode', (v) => /^\d{8}$/.test(v), '53055');
    need('billingAddressState', (v) => /^[A-Z]{2}$/.test(v), '53063');
    need('installmentQuantity', (v) => v === '1', '53040');
    need('installmentValue', (v) => v === form.get('itemAmount1'), '53041');
    need('senderHash', (v) => senderHashes.has(v), '53151');
    const card = cardTokens.get(form.get('creditCardToken') ?? '');
    if (!card) errors.push(['53037', 'credit card token invalid.']);
    else if (card.used) errors.push(['53037', 'credit card token invalid: already used.']);
    if (errors.length) return { status: 400, body: errorsXml(errors) };
    card!.used = true;
    const now = new Date().toISOString();
    const t: PagSeguroTransaction = {
      code: randomUUID().toUpperCase(),
      reference: form.get('reference') ?? '',
      status: 1,
      grossAmount: form.get('itemAmount1')!,
      date: now,
      lastEventDate: now,
      notificationURL: form.get('notificationURL') ?? '',
    };
    transactions.set(t.code, t);
    const body = `${XML_HEAD}${transactionXml(t)}`;
    // Decided after the answer, and notified, as PagSeguro does (or held until the test releases it).
    const decide = (send: boolean) => {
      if (card!.number === TEST_CARDS.refused) t.cancellationSource = 'EXTERNAL';
      return change(t, card!.number === TEST_CARDS.refused ? 7 : 3, send);
    };
    if (cardHold.on) held.set(t.code, decide);
    else setImmediate(() => void decide(true).catch(() => undefined));
    return { status: 200, body };
  }
  const cardHold = { on: false };

  /** Plans of the recurring API (`POST /pre-approvals/request`), by code; adhesions made with a card. */
  const recurringPlans = new Map<string, { reference: string; name: string; amountPerPayment: string; period: string; charge: string }>();
  const adhesions: Record<string, any>[] = [];
  /** The transparent recurring API: JSON in, JSON out, errors as { error, errors: { code: message } }. */
  function recurring(path: string, body: string): { status: number; body: string } {
    let json: Record<string, any>;
    try {
      json = JSON.parse(body) as Record<string, any>;
    } catch {
      return { status: 400, body: JSON.stringify({ error: true, errors: { '11001': 'invalid JSON' } }) };
    }
    const refuse = (errors: Record<string, string>) => ({ status: 400, body: JSON.stringify({ error: true, errors }) });
    if (path === '/pre-approvals/request') {
      const p = json.preApproval ?? {};
      if (!/^\d{1,7}\.\d{2}$/.test(p.amountPerPayment ?? '')) return refuse({ '11088': 'preApprovalAmountPerPayment invalid pattern' });
      if (p.period !== 'MONTHLY' || p.charge !== 'AUTO' || !p.name) return refuse({ '11083': 'preApproval invalid value' });
      const code = randomBytes(16).toString('hex').toUpperCase();
      recurringPlans.set(code, { reference: String(json.reference ?? ''), name: p.name, amountPerPayment: p.amountPerPayment, period: p.period, charge: p.charge });
      return { status: 200, body: JSON.stringify({ code, date: new Date().toISOString() }) };
    }
    adhesions.push(json);
    const plan = recurringPlans.get(json.plan ?? '');
    const cc = json.paymentMethod?.creditCard ?? {};
    const card = cardTokens.get(cc.token ?? '');
    const errors: Record<string, string> = {};
    if (!plan) errors['17001'] = 'plan not found';
    if (json.paymentMethod?.type !== 'CREDITCARD') errors['53034'] = 'paymentMethod invalid value';
    if (!senderHashes.has(json.sender?.hash ?? '')) errors['53151'] = 'sender hash invalid';
    if (!/^\S+@\S+$/.test(json.sender?.email ?? '')) errors['53010'] = 'sender email invalid';
    if (!/^\d{11}$/.test(json.sender?.documents?.[0]?.value ?? '')) errors['53020'] = 'sender CPF invalid';
    if (!/^\d{2}\/\d{2}\/\d{4}$/.test(cc.holder?.birthDate ?? '')) errors['53049'] = 'holder birth date invalid';
    if (!card || card.used) errors['53037'] = 'credit card token invalid';
    if (Object.keys(errors).length) return refuse(errors);
    card!.used = true;
    const now = new Date().toISOString();
    const p: PagSeguroPreApproval = { code: randomBytes(16).toString('hex').toUpperCase(), reference: String(json.reference ?? ''), name: plan!.name, status: 'PENDING', date: now, lastEventDate: now, notificationURL: notificationUrlFor.value };
    preApprovals.set(p.code, p);
    // The first charge is decided after the answer: an approved card makes it ACTIVE, a refused one CANCELLED.
    setImmediate(() => void setPreApproval(p.code, card!.number === TEST_CARDS.refused ? 'CANCELLED' : 'ACTIVE').catch(() => undefined));
    return { status: 200, body: JSON.stringify({ code: p.code }) };
  }
  /** The recurring API takes no notificationURL: PagSeguro uses the one set in the account's panel. */
  const notificationUrlFor = { value: '' };
  const held = new Map<string, (send: boolean) => Promise<PagSeguroNotification>>();

  /** The browser side of the transparent checkout (CORS open, as PagSeguro's is to the buyer's page). */
  function browserApi(req: http.IncomingMessage, body: string, url: URL): { status: number; type: string; body: string } | null {
    if (req.method === 'GET' && url.pathname === SCRIPT_PATH) return { status: 200, type: 'application/javascript', body: directPaymentScript(origin) };
    if (req.method === 'GET' && url.pathname === '/df-fe/mvc/creditcard/v1/getBin') {
      const bin = url.searchParams.get('creditCard') ?? '';
      const brand = sessions.has(url.searchParams.get('tk') ?? '') && /^\d{6}$/.test(bin) ? brandOf(bin) : null;
      const json = brand ? { statusMessage: 'Success', bin: { bin: Number(bin), brand: { name: brand }, cvvSize: brand === 'amex' ? 4 : 3 } } : { statusMessage: 'Error', reasonMessage: 'invalid bin' };
      return { status: 200, type: 'application/json', body: JSON.stringify(json) };
    }
    const form = new URLSearchParams(body);
    if (req.method === 'POST' && url.pathname === '/v2/cards') {
      const session = form.get('sessionId') ?? '';
      const number = form.get('cardNumber') ?? '';
      const month = Number(form.get('cardExpirationMonth'));
      const year = Number(form.get('cardExpirationYear'));
      const errors: [string, string][] = [];
      if (!sessions.has(session)) errors.push(['10001', 'invalid session']);
      if (!luhn(number) || form.get('cardBrand') !== brandOf(number.slice(0, 6))) errors.push(['30400', 'invalid creditcard data']);
      if (!/^\d{3,4}$/.test(form.get('cardCvv') ?? '')) errors.push(['10006', 'invalid cvv']);
      const now = new Date();
      if (!(month >= 1 && month <= 12) || year < now.getUTCFullYear() || (year === now.getUTCFullYear() && month < now.getUTCMonth() + 1)) errors.push(['30405', 'invalid date format']);
      if (errors.length) return { status: 400, type: 'application/xml', body: errorsXml(errors) };
      const token = randomBytes(16).toString('hex');
      cardTokens.set(token, { number, used: false, session });
      return { status: 200, type: 'application/xml', body: `${XML_HEAD}<card><token>${token}</token></card>` };
    }
    if (req.method === 'POST' && url.pathname === '/v2/sender-hash') {
      const session = form.get('sessionId') ?? '';
      if (!sessions.has(session)) return { status: 400, type: 'application/xml', body: errorsXml([['10001', 'invalid session']]) };
      const hash = randomBytes(32).toString('hex');
      senderHashes.set(hash, session);
      return { status: 200, type: 'application/xml', body: `${XML_HEAD}<hash>${hash}</hash>` };
    }
    return null;
  }

  /** What the DirectPayment script does in a browser, for API tests: a card token and a sender hash. */
  async function tokenize(sessionId: string, number: string, opts: { cvv?: string; month?: string; year?: string } = {}) {
    const post = (path: string, params: Record<string, string>) =>
      fetch(`${origin}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(params).toString() }).then((r) => r.text());
    const brand = brandOf(number.slice(0, 6)) ?? '';
    const card = await post('/v2/cards', { sessionId, cardNumber: number, cardBrand: brand, cardCvv: opts.cvv ?? '123', cardExpirationMonth: opts.month ?? '12', cardExpirationYear: opts.year ?? String(new Date().getUTCFullYear() + 2) });
    const hash = await post('/v2/sender-hash', { sessionId });
    return { cardToken: /<token>([^<]*)<\/token>/.exec(card)?.[1] ?? '', senderHash: /<hash>([^<]*)<\/hash>/.exec(hash)?.[1] ?? '' };
  }

  function checkoutPage(c: PagSeguroCheckout, note = ''): string {
    return `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><title>PagSeguro test checkout</title></head><body>
<main><h1>PagSeguro test checkout</h1><p>${esc(c.description)}: <strong>R$ ${c.amount}</strong></p>${note ? `<p role="alert">${note}</p>` : ''}
<form method="post" action="/v2/checkout/payment.html/pay?code=${c.code}"><button type="submit">Pay</button></form>
<form method="post" action="/v2/checkout/payment.html/decline?code=${c.code}"><button type="submit">Use a card that is refused</button></form>
<a href="${esc(c.redirectURL)}">Back</a></main></body></html>`;
  }

  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', async () => {
      const url = new URL(req.url ?? '/', origin);
      const pre = url.pathname.match(/^\/v2\/pre-approvals\/request\.html(\/accept)?$/);
      if (pre) {
        const r = preApprovalRequests.get(url.searchParams.get('code') ?? '');
        if (!r) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('Código de assinatura inválido');
        if (pre[1] && req.method === 'POST') {
          const { preApproval } = await acceptPreApproval(r.code);
          const back = new URL(r.redirectURL);
          back.searchParams.set('code', preApproval.code);
          return void res.writeHead(303, { location: back.toString() }).end();
        }
        return void res
          .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
          .end(
            `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><title>PagSeguro test subscription</title></head><body><main><h1>PagSeguro test subscription</h1><p>${esc(r.name)}: <strong>R$ ${r.amountPerPayment}</strong> (${r.period})</p><form method="post" action="/v2/pre-approvals/request.html/accept?code=${r.code}"><button type="submit">Subscribe</button></form></main></body></html>`,
          );
      }
      const page = url.pathname.match(/^\/v2\/checkout\/payment\.html(?:\/(pay|decline))?$/);
      if (page) {
        const c = checkouts.get(url.searchParams.get('code') ?? '');
        if (!c) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('Código de pagamento inválido');
        if (page[1] === 'pay' && req.method === 'POST') {
          const { transaction } = await pay(c.code);
          const back = new URL(c.redirectURL);
          back.searchParams.set('transaction_id', transaction.code);
          return void res.writeHead(303, { location: back.toString() }).end();
        }
        if (page[1] === 'decline' && req.method === 'POST') {
          await decline(c.code);
          return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(checkoutPage(c, 'Pagamento recusado pelo emissor do cartão.'));
        }
        return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(checkoutPage(c));
      }
      const browser = browserApi(req, body, url);
      if (browser) return void res.writeHead(browser.status, { 'content-type': browser.type, 'access-control-allow-origin': '*' }).end(browser.body);
      const out = api(req, body, url);
      // The network failing after PagSeguro acted: the checkout exists, its answer never arrives.
      if (dropping.checkouts > 0 && req.method === 'POST' && url.pathname === '/v2/checkout') {
        dropping.checkouts--;
        return void req.socket.destroy();
      }
      res.writeHead(out.status, { 'content-type': out.body.startsWith('<?xml') ? 'application/xml;charset=ISO-8859-1' : 'text/plain' }).end(out.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: origin,
    email,
    token,
    /** Settings that point the app at this server. */
    env: { PAGSEGURO_EMAIL: email, PAGSEGURO_TOKEN: token, PAGSEGURO_API_URL: origin, PAGSEGURO_CHECKOUT_URL: origin, PAGSEGURO_STATIC_URL: origin },
    checkouts,
    transactions,
    notifications,
    deliveries,
    pay,
    decline,
    refundFromPanel,
    preApprovalRequests,
    preApprovals,
    sessions,
    cardTokens,
    recurringPlans,
    adhesions,
    /** The account's notification URL (PagSeguro's panel), used by the recurring API's notices. */
    setNotificationUrl: (url: string) => void (notificationUrlFor.value = url),
    cardPayments,
    tokenize,
    /** Card payments made while on stay awaiting payment until `releaseCardPayment`. */
    holdCardPayments: (on: boolean) => void (cardHold.on = on),
    /** Decides a held card payment (approved or refused by its test card); `send` notifies it. */
    releaseCardPayment: (transactionCode: string, send = true) => {
      const decide = held.get(transactionCode)!;
      held.delete(transactionCode);
      return decide(send);
    },
    cancelled,
    /** The next `n` checkout creations are made but their answers are lost (the connection drops). */
    dropCheckouts: (n: number) => void (dropping.checkouts = n),
    acceptPreApproval,
    setPreApproval,
    deliver,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type PagSeguroServer = Awaited<ReturnType<typeof startPagSeguroServer>>;
