import type { Config } from '../../../config';
import { stripeProvider } from './stripe';
import type { PaymentProvider } from './types';

const built = new WeakMap<Config['payments'], PaymentProvider | null>();

/** The provider the configuration names (one per process), or null when payments are not set up. */
export function paymentProvider(config: Config): PaymentProvider | null {
  let provider = built.get(config.payments);
  if (provider === undefined) {
    provider = config.payments.stripe ? stripeProvider(config.payments.stripe) : null;
    built.set(config.payments, provider);
  }
  return provider;
}

export type { PaymentProvider } from './types';
