import { CONVERSATION_TYPE, GROUP_TITLE_MAX_CHARS } from '../constants';
import { normalizeProtocolQuery } from './protocol';

/**
 * A conversation without a title of its own is named after the other participants: as many names
 * as fit in about 30 characters, then ', +N' for the rest (spec 9). The first name always shows,
 * cut with '…' when it alone is too long.
 */
export function groupTitle(names: string[], maxChars: number = GROUP_TITLE_MAX_CHARS): string {
  const list = names.map((n) => n.trim()).filter(Boolean);
  if (list.length === 0) return '';
  let title = list[0]!.length > maxChars ? `${list[0]!.slice(0, maxChars - 1)}…` : list[0]!;
  let shown = 1;
  while (shown < list.length && title.length + 2 + list[shown]!.length <= maxChars) {
    title += `, ${list[shown]}`;
    shown++;
  }
  return shown < list.length ? `${title}, +${list.length - shown}` : title;
}

/** What the delete prompt needs typed: REMOVER, in any case, spaces around ignored (spec 5). */
/**
 * A customer's request served through the queues: a ticket (chamado), or a single conversation
 * (avulso) that entered a queue. The spec numbers a 1:1 chat between colleagues "avulso" too, but
 * that one never queues: it is a plain chat, with no protocol line, service panel or states.
 */
export function isServiceRequest(c: { type: number; queuedAt: Date | string | null }): boolean {
  return c.type === CONVERSATION_TYPE.ticket || (c.type === CONVERSATION_TYPE.single && c.queuedAt != null);
}

/** Conversations whose life follows the service states: requests, and the tasks made from them. */
export function followsServiceStates(c: { type: number; queuedAt: Date | string | null }): boolean {
  return isServiceRequest(c) || c.type === CONVERSATION_TYPE.task;
}

export const DELETE_CONFIRMATION_WORD = 'REMOVER';
export const isDeleteConfirmation = (typed: string) => typed.trim().toUpperCase() === DELETE_CONFIRMATION_WORD;

/** What a recents search looks for, read from what the person typed. */
export interface RecentsSearch {
  /** Matched anywhere in the title, participant names, company name and last message. */
  text: string;
  /** The digits of a protocol number, when the query is one (dashes ignored). */
  protocolDigits: string | null;
  /** A day typed as DD/MM/YYYY, as YYYY-MM-DD. */
  date: string | null;
}

export function parseRecentsSearch(q: string): RecentsSearch {
  const text = q.trim();
  const digits = normalizeProtocolQuery(text).replace(/\s/g, '');
  const protocolDigits = /^\d{3,15}$/.test(digits) ? digits : null;
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
  let date: string | null = null;
  if (m) {
    const [d, mo, y] = [Number(m[1]), Number(m[2]), Number(m[3])];
    const probe = new Date(Date.UTC(y, mo - 1, d));
    if (probe.getUTCFullYear() === y && probe.getUTCMonth() === mo - 1 && probe.getUTCDate() === d) {
      date = `${y}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
    }
  }
  return { text, protocolDigits, date };
}

/** How an outside person reaches a conversation: the relay their participation is marked with. */
export type RelayChannel = 'email' | 'whatsapp' | 'telegram';

export function relayChannelOf(p: { email?: boolean | null; whatsapp?: boolean | null; telegram?: boolean | null } | null | undefined): RelayChannel | null {
  if (!p) return null;
  return p.email ? 'email' : p.whatsapp ? 'whatsapp' : p.telegram ? 'telegram' : null;
}
