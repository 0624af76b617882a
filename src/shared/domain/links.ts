/**
 * Text written by people (feed posts, comments) shown with its web addresses as links and
 * everything else as plain text: never HTML. The browser renders the parts as text nodes and
 * <a> elements; only http(s) addresses become links, so `javascript:` and friends stay text.
 */
export type TextPart = { kind: 'text'; text: string } | { kind: 'link'; text: string; href: string };

// http(s)://… or www.…, up to whitespace or an angle bracket.
const URL_PATTERN = /\b(?:https?:\/\/|www\.)[^\s<>"]+/gi;
// Punctuation that ends a sentence rather than the address ("see https://a.b/c.").
const TRAILING = /[.,;:!?'")\]}]+$/;

export function linkify(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    let raw = match[0];
    const trailing = TRAILING.exec(raw)?.[0] ?? '';
    // Keep a closing parenthesis that has its opening one inside the address (Wikipedia links).
    const keep = trailing.startsWith(')') && raw.slice(0, -trailing.length).includes('(') ? 1 : 0;
    raw = raw.slice(0, raw.length - trailing.length + keep);
    const start = match.index;
    const href = safeHref(raw);
    if (!href) continue;
    if (start > last) parts.push({ kind: 'text', text: text.slice(last, start) });
    parts.push({ kind: 'link', text: raw, href });
    last = start + raw.length;
  }
  if (last < text.length) parts.push({ kind: 'text', text: text.slice(last) });
  return parts;
}

/** An address made absolute and checked to be http(s), or null. */
export function safeHref(raw: string): string | null {
  const withScheme = /^www\./i.test(raw) ? `https://${raw}` : raw;
  try {
    const url = new URL(withScheme);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}
