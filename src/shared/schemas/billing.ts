import { z } from 'zod';
import { PLAN_FEATURES } from '../domain/company';
import { domainSchema } from './company';

import { PAYMENT_MESSAGES, PLAN_MESSAGES } from '../messages/billing';
export { PAYMENT_MESSAGES, PLAN_MESSAGES } from '../messages/billing';

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
const text = (max: number) => z.string().trim().min(1, PAYMENT_MESSAGES.cardDetails).max(max, PAYMENT_MESSAGES.cardDetails);

/**
 * A card payment made on our page (transparent checkout). Strict: anything else, a card number
 * above all, is refused; the card itself is only the token the provider's script made.
 */
export const cardPaymentInput = z.strictObject({
  domain: domainSchema,
  amount: topUpAmount,
  cardToken: z.string().trim().regex(/^[\w-]{8,128}$/, PAYMENT_MESSAGES.cardDetails),
  senderHash: z.string().trim().regex(/^[\w-]{8,200}$/, PAYMENT_MESSAGES.cardDetails),
  holder: z.strictObject({
    name: text(50),
    cpf: z.string().trim().regex(/^\d{3}\.?\d{3}\.?\d{3}-?\d{2}$/, PAYMENT_MESSAGES.cardDetails),
    /** dd/mm/yyyy, as PagSeguro wants it. */
    birthDate: z.string().trim().regex(/^(0[1-9]|[12]\d|3[01])\/(0[1-9]|1[0-2])\/(19|20)\d{2}$/, PAYMENT_MESSAGES.cardDetails),
    areaCode: z.string().trim().regex(/^[1-9]\d$/, PAYMENT_MESSAGES.cardDetails),
    phone: z.string().trim().regex(/^\d{4,5}-?\d{4}$/, PAYMENT_MESSAGES.cardDetails),
  }),
  billing: z.strictObject({
    street: text(80),
    number: text(20),
    complement: z.string().trim().max(40, PAYMENT_MESSAGES.cardDetails).optional(),
    district: text(60),
    postalCode: z.string().trim().regex(/^\d{5}-?\d{3}$/, PAYMENT_MESSAGES.cardDetails),
    city: text(60),
    state: z.string().trim().regex(/^[A-Za-z]{2}$/, PAYMENT_MESSAGES.cardDetails),
  }),
});
export type CardPaymentInput = z.infer<typeof cardPaymentInput>;

/** A plan of the catalogue paid by card on our page: the same card details, a plan instead of an amount. */
export const cardSubscribeInput = cardPaymentInput.omit({ amount: true }).extend({ planKey: z.string().trim().min(1).max(30) });
export type CardSubscribeInput = z.infer<typeof cardSubscribeInput>;

export const paymentInput = z.object({ domain: domainSchema, paymentId: z.uuid() });


/** One plan of the catalogue: its monthly price (a decimal string, exact) and the features it switches on. */
export const planOffer = z.object({
  key: z.string().trim().regex(/^[a-z0-9-]{1,30}$/, PLAN_MESSAGES.key),
  name: z.string().trim().min(1, PLAN_MESSAGES.name).max(60, PLAN_MESSAGES.name),
  monthlyPrice: z
    .string()
    .trim()
    .regex(/^\d{1,6}(\.\d{1,2})?$/, PLAN_MESSAGES.price)
    .refine((v) => Number(v) >= 1 && Number(v) <= 100_000, PLAN_MESSAGES.price),
  features: z.array(z.enum(PLAN_FEATURES)).max(PLAN_FEATURES.length).transform((f) => [...new Set(f)]),
});
export type PlanOffer = z.infer<typeof planOffer>;

export const plansInput = z.object({
  plans: z
    .array(planOffer)
    .max(12)
    .refine((plans) => new Set(plans.map((p) => p.key)).size === plans.length, PLAN_MESSAGES.duplicate),
});
export const subscribeInput = z.object({ domain: domainSchema, planKey: z.string().trim().max(30).optional() });
