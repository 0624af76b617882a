/** Texts the server answers about payments (the client translates them through its catalog). */
export const PAYMENT_MESSAGES = {
  notSetUp: 'Payments are not set up on this installation',
  providerDown: 'The payment provider could not be reached; try again',
  notFound: 'Payment not found',
  notRefundable: 'Only a paid payment can be refunded',
  exempt: 'This company is exempt from charges',
  amount: 'Choose an amount between 1 and 100000, in cents at most',
  noCardForm: 'Paying by card on this page needs PagSeguro',
  cardRefused: 'The card payment was refused; check the details and try again',
  cardDetails: 'Fill in the card holder and billing address as the card issuer knows them',
} as const;
/** Texts about the plan catalogue (the client translates them). */
export const PLAN_MESSAGES = {
  key: 'A plan key is 1 to 30 lower-case letters, digits or dashes',
  name: 'A plan name has 1 to 60 characters',
  price: 'A monthly price is between 1 and 100000, in cents at most',
  duplicate: 'Two plans have the same key',
  notFound: 'This plan is not offered',
  choose: 'Choose a plan',
  alreadyActive: 'The company already has an active plan subscription',
} as const;
