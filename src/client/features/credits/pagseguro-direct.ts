/**
 * PagSeguro's DirectPayment script (transparent checkout), loaded from the address the server
 * gives (PAGSEGURO_STATIC_URL), wrapped in promises. The card's number, expiry and code go from
 * the browser to PagSeguro only; what we send our server is the token and the sender hash.
 */
interface Callbacks<T> {
  success?: (r: T) => void;
  error?: (r: { error: true; errors: Record<string, string> }) => void;
  complete?: (r: unknown) => void;
}
export interface DirectPayment {
  setSessionId(id: string): void;
  getBrand(o: { cardBin: string } & Callbacks<{ brand: { name: string; cvvSize?: number } }>): void;
  createCardToken(o: { cardNumber: string; brand: string; cvv: string; expirationMonth: string; expirationYear: string } & Callbacks<{ card: { token: string } }>): void;
  onSenderHashReady(cb: (r: { status: 'success'; senderHash: string } | { status: 'error'; message: string }) => void): void;
}

declare global {
  interface Window {
    PagSeguroDirectPayment?: DirectPayment;
  }
}

/** The card the admin typed; it stays in this tab. */
export interface CardData {
  number: string;
  cvv: string;
  month: string;
  /** Four digits. */
  year: string;
}

/** Loads the script once per address and gives its API with the session set. */
export function loadDirectPayment(src: string, sessionId: string): Promise<DirectPayment> {
  return new Promise((resolve, reject) => {
    const ready = () => {
      const api = window.PagSeguroDirectPayment;
      if (!api) return reject(new Error('DirectPayment script without its API'));
      api.setSessionId(sessionId);
      resolve(api);
    };
    const existing = document.querySelector<HTMLScriptElement>(`script[data-pagseguro="${CSS.escape(src)}"]`);
    if (existing && window.PagSeguroDirectPayment) return ready();
    const script = existing ?? document.createElement('script');
    script.addEventListener('load', ready, { once: true });
    script.addEventListener('error', () => reject(new Error('DirectPayment script failed to load')), { once: true });
    if (!existing) {
      script.src = src;
      script.async = true;
      script.dataset.pagseguro = src;
      document.head.appendChild(script);
    }
  });
}

export class CardRejected extends Error {}

/** The brand from the first six digits, then a single-use token for the card. */
export function cardToken(api: DirectPayment, card: CardData): Promise<string> {
  return new Promise((resolve, reject) => {
    const fail = (r: { errors?: Record<string, string> }) => reject(new CardRejected(Object.values(r.errors ?? {}).join('; ')));
    api.getBrand({
      cardBin: card.number.slice(0, 6),
      error: fail,
      success: ({ brand }) =>
        api.createCardToken({
          cardNumber: card.number,
          brand: brand.name,
          cvv: card.cvv,
          expirationMonth: card.month,
          expirationYear: card.year,
          error: fail,
          success: (r) => resolve(r.card.token),
        }),
    });
  });
}

export function senderHash(api: DirectPayment): Promise<string> {
  return new Promise((resolve, reject) => api.onSenderHashReady((r) => (r.status === 'success' ? resolve(r.senderHash) : reject(new Error(r.message)))));
}
