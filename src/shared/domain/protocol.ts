import { PROTOCOL_DIGITS } from '../constants';

/** A conversation's protocol number: 15 digits, the first never 0 (spec 9). */
export function newProtocol(randomDigit: () => number): string {
  let digits = String(1 + (randomDigit() % 9));
  while (digits.length < PROTOCOL_DIGITS) digits += String(randomDigit() % 10);
  return digits;
}

/** Shown grouped 5-5-5: 123451234512345 -> 12345-12345-12345. */
export const formatProtocol = (protocol: string) => protocol.replace(/^(\d{5})(\d{5})(\d{5})$/, '$1-$2-$3');

/** Search ignores the dashes people type or copy. */
export const normalizeProtocolQuery = (query: string) => query.replace(/-/g, '');
