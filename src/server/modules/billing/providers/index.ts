import type { Config } from '../../../config';
import { pagseguroProvider } from './pagseguro';
import { stripeProvider } from './stripe';
import type { PaymentProvider } from './types';

const built = new WeakMap<Config['payments'], PaymentProvider | null>();

/** The provider the configuration names (one per process), or null when payments are not set up. */
export function paymentProvider(config: Config): PaymentProvider | null {
  let provider = built.get(config.payments);
  if (provider === undefined) {
    const { stripe, pagseguro } = config.payments;
    // The configuration refuses both at once, so at most one of these is set.
    provider = stripe ? stripeProvider(stripe) : pagseguro ? pagseguroProvider(pagseguro) : null;
    built.set(config.payments, provider);
  }
  return provider;
}

export type { PaymentProvider } from './types';
