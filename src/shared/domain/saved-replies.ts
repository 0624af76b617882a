/**
 * Saved replies (canned responses): which ones the composer offers for "/query", and the text a
 * reply becomes when inserted. Pure, shared by the composer and the tests.
 */

export const SAVED_REPLY_SHORTCUT = /^[a-z0-9][a-z0-9_-]{0,29}$/;

export interface SavedReplyLike {
  shortcut: string;
  title: string;
  text: string;
}

const fold = (s: string) => s.normalize('NFD').replace(/\p{Diacritic}/gu, '').toLowerCase();

/**
 * The "/query" being typed right before the caret, if the message is one: "/" at the start of
 * the text or after a space, then no space.
 */
export function replyQueryAt(text: string, caret: number): { start: number; query: string } | null {
  const match = /(^|\s)\/([^\s/]{0,30})$/.exec(text.slice(0, caret));
  if (!match) return null;
  return { start: caret - match[2]!.length - 1, query: match[2]! };
}

/**
 * The replies matching `query`, best first: shortcut starting with it, then shortcut containing
 * it, then title or text containing it (accents and case ignored); at most `limit`.
 */
export function matchReplies<R extends SavedReplyLike>(replies: readonly R[], query: string, limit = 8): R[] {
  const q = fold(query);
  const rank = (r: R) => {
    const shortcut = fold(r.shortcut);
    if (shortcut.startsWith(q)) return 0;
    if (shortcut.includes(q)) return 1;
    if (fold(r.title).includes(q) || fold(r.text).includes(q)) return 2;
    return -1;
  };
  return replies
    .map((r) => ({ r, rank: rank(r) }))
    .filter((x) => x.rank >= 0)
    .sort((a, b) => a.rank - b.rank || a.r.shortcut.localeCompare(b.r.shortcut))
    .slice(0, limit)
    .map((x) => x.r);
}

/**
 * The reply's text with its placeholders filled: {customer} (first name of the customer of the
 * conversation), {me} (the attendant's name) and {company}. A placeholder with no value goes
 * away with the space before it ("Hello {customer}," → "Hello,").
 */
export function fillReply(text: string, values: { customer?: string | null; me?: string | null; company?: string | null }): string {
  const firstName = values.customer?.trim().split(/\s+/)[0];
  const filled: Record<string, string | undefined> = { customer: firstName, me: values.me?.trim() || undefined, company: values.company?.trim() || undefined };
  return text.replace(/ ?\{(customer|me|company)\}/g, (whole, key: string) => {
    const value = filled[key];
    if (!value) return '';
    return whole.startsWith(' ') ? ` ${value}` : value;
  });
}
