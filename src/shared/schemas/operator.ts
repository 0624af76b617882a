import { z } from 'zod';
import { domainSchema } from './company';

import { OPERATOR_MESSAGES } from '../messages/operator';
export { OPERATOR_MESSAGES } from '../messages/operator';

const price = (decimals: number) => z.string().trim().regex(new RegExp(`^\\d{1,9}(\\.\\d{1,${decimals}})?$`), OPERATOR_MESSAGES.price);

export const pricesInput = z.object({
  voice: price(4),
  video: price(4),
  share: price(4),
  recording: price(4),
  /** arTime (remote assistance); left out, it stays as it is (older operator screens). */
  remote: price(4).optional(),
  translatePerChar: price(6),
});
export type PricesInput = z.infer<typeof pricesInput>;

export const adjustCreditsInput = z.object({
  companyDomain: domainSchema,
  amount: z
    .string()
    .trim()
    .regex(/^-?\d{1,7}(\.\d{1,2})?$/, OPERATOR_MESSAGES.amount)
    .refine((v) => Number(v) !== 0, OPERATOR_MESSAGES.amount),
  note: z.string().trim().min(1, OPERATOR_MESSAGES.note).max(200, OPERATOR_MESSAGES.note),
});

export const refundInput = z.object({ paymentId: z.uuid() });
export const companyPaymentsInput = z.object({ companyDomain: domainSchema });
export const auditInput = z.object({ limit: z.number().int().min(1).max(200).default(50) });
