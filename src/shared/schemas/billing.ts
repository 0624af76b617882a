import { z } from 'zod';
import { domainSchema } from './company';

/** Texts the server answers about payments (the client translates them through its catalog). */
export const PAYMENT_MESSAGES = {
  notSetUp: 'Payments are not set up on this installation',
  providerDown: 'The payment provider could not be reached; try again',
  notFound: 'Payment not found',
  notRefundable: 'Only a paid payment can be refunded',
  exempt: 'This company is exempt from charges',
  amount: 'Choose an amount between 1 and 100000, in cents at most',
} as const;

export const TOP_UP_MIN = 1;
export const TOP_UP_MAX = 100_000;
/** The amounts offered as one click on /i/recarga. */
export const TOP_UP_PRESETS = ['20', '50', '100', '200'] as const;

/** A money amount as a decimal string with at most two decimals (never a float). */
export const topUpAmount = z
  .string()
  .trim()
  .regex(/^\d{1,6}(\.\d{1,2})?$/, PAYMENT_MESSAGES.amount)
  .refine((v) => Number(v) >= TOP_UP_MIN && Number(v) <= TOP_UP_MAX, PAYMENT_MESSAGES.amount);

export const topUpInput = z.object({ domain: domainSchema, amount: topUpAmount });
export const paymentInput = z.object({ domain: domainSchema, paymentId: z.uuid() });
