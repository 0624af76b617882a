import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { PAYMENT_MESSAGES as P } from '../../../shared/schemas/billing';
import { OPERATOR_MESSAGES as O } from '../../../shared/schemas/operator';
import { REPORT_MESSAGES as R } from '../../../shared/schemas/reports';

/** The billing, operator and reports texts the server answers, for guard/serverMessages.ts. */
export const BILLING_SERVER_TEXTS: Record<string, MessageDescriptor> = {
  [P.notSetUp]: msg`Payments are not set up on this installation`,
  [P.providerDown]: msg`The payment provider could not be reached; try again`,
  [P.notFound]: msg`Payment not found`,
  [P.notRefundable]: msg`Only a paid payment can be refunded`,
  [P.exempt]: msg`This company is exempt from charges`,
  [P.amount]: msg`Choose an amount between 1 and 100000, in cents at most`,
  [O.notOperator]: msg`Only the operators of this installation can do this`,
  [O.price]: msg`A price is a number with at most 4 decimals (6 for translation)`,
  [O.amount]: msg`An adjustment is a non-zero amount with at most 2 decimals`,
  [O.note]: msg`Say why (up to 200 characters)`,
  [R.range]: msg`The end of the period comes before its start, or the period is longer than a year`,
};

export type PaymentStatus = 'pending' | 'paid' | 'failed' | 'expired' | 'refunded';

export const PAYMENT_STATUS: Record<PaymentStatus, MessageDescriptor> = {
  pending: msg`Waiting for payment`,
  paid: msg`Paid`,
  failed: msg`Refused`,
  expired: msg`Expired`,
  refunded: msg`Refunded`,
};
