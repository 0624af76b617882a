import { MESSAGE_SIZE } from '../constants';

/**
 * The stored size of a message (spec 9: 8 bytes, the path length, 34 bytes, and the participant
 * overhead 1 + 2n + 1), plus its text in UTF-8. Feeds the company's storage quota.
 */
export function estimateMessageBytes(p: { text: string; path: string; participants: number }): number {
  const text = new TextEncoder().encode(p.text).length;
  return MESSAGE_SIZE.base + p.path.length + MESSAGE_SIZE.fixed + (1 + 2 * p.participants + 1) + text;
}

/** What a receipt tick shows for the author: sent, delivered to all, read by all. */
export type Ticks = 'sent' | 'delivered' | 'read';

export function ticksFor(seq: number, others: { deliveredSeq: number; readSeq: number }[]): Ticks {
  if (others.length > 0 && others.every((p) => p.readSeq >= seq)) return 'read';
  if (others.length > 0 && others.every((p) => p.deliveredSeq >= seq)) return 'delivered';
  return 'sent';
}
