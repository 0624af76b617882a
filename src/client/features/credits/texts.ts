import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { BadgeTone } from '../../ui';
import { PAYMENT_MESSAGES as P, PLAN_MESSAGES as L } from '../../../shared/messages/billing';
import { OPERATOR_MESSAGES as O } from '../../../shared/messages/operator';
import { REPORT_MESSAGES as R } from '../../../shared/messages/reports';

/** The billing, operator and reports texts the server answers, for guard/serverMessages.ts. */
export const BILLING_SERVER_TEXTS: Record<string, MessageDescriptor> = {
  [P.notSetUp]: msg`Payments are not set up on this installation`,
  [P.providerDown]: msg`The payment provider could not be reached; try again`,
  [P.notFound]: msg`Payment not found`,
  [P.notRefundable]: msg`Only a paid payment can be refunded`,
  [P.exempt]: msg`This company is exempt from charges`,
  [P.amount]: msg`Choose an amount between 1 and 100000, in cents at most`,
  [P.noCardForm]: msg`Paying by card on this page needs PagSeguro`,
  [P.cardRefused]: msg`The card payment was refused; check the details and try again`,
  [P.cardDetails]: msg`Fill in the card holder and billing address as the card issuer knows them`,
  [O.notOperator]: msg`Only the operators of this installation can do this`,
  [O.price]: msg`A price is a number with at most 4 decimals (6 for translation)`,
  [O.amount]: msg`An adjustment is a non-zero amount with at most 2 decimals`,
  [O.note]: msg`Say why (up to 200 characters)`,
  [L.key]: msg`A plan key is 1 to 30 lower-case letters, digits or dashes`,
  [L.name]: msg`A plan name has 1 to 60 characters`,
  [L.price]: msg`A monthly price is between 1 and 100000, in cents at most`,
  [L.duplicate]: msg`Two plans have the same key`,
  [L.notFound]: msg`This plan is not offered`,
  [L.choose]: msg`Choose a plan`,
  [L.alreadyActive]: msg`The company already has an active plan subscription`,
  [R.range]: msg`The end of the period comes before its start, or the period is longer than a year`,
};

export type PaymentStatus = 'pending' | 'paid' | 'failed' | 'expired' | 'refunded';

export const PAYMENT_TONE: Record<PaymentStatus, BadgeTone> = { pending: 'neutral', paid: 'ok', failed: 'danger', expired: 'warn', refunded: 'warn' };

export const PAYMENT_STATUS: Record<PaymentStatus, MessageDescriptor> = {
  pending: msg`Waiting for payment`,
  paid: msg`Paid`,
  failed: msg`Refused`,
  expired: msg`Expired`,
  refunded: msg`Refunded`,
};
