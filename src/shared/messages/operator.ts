export const OPERATOR_MESSAGES = {
  notOperator: 'Only the operators of this installation can do this',
  price: 'A price is a number with at most 4 decimals (6 for translation)',
  amount: 'An adjustment is a non-zero amount with at most 2 decimals',
  note: 'Say why (up to 200 characters)',
} as const;
