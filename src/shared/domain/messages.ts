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

/**
 * The short codes in 'Não foi possível remover a mensagem [{code}]': which step refused, so
 * support can tell the cases apart from a screenshot.
 */
export const MESSAGE_REMOVAL_CODES = {
  /** No such message in this conversation (or the caller cannot see it). */
  notFound: 'M404',
  /** Neither its author nor an administrator of the company. */
  notAllowed: 'M403',
  /** Info messages are the conversation's history: nobody removes them. */
  infoMessage: 'M405',
  /** The stored file could not be deleted; the message was left as it was. */
  storage: 'S503',
} as const;

/** Codes in 'Não foi possível remover o Atendimento [{code}]' (storage failures). */
export const CONVERSATION_REMOVAL_CODES = {
  storage: 'S503',
} as const;

/** How much of the original a reply quotes. */
export const QUOTE_MAX_CHARS = 120;

export function quoteExcerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > QUOTE_MAX_CHARS ? `${flat.slice(0, QUOTE_MAX_CHARS - 1)}…` : flat;
}
