/**
 * HTML in and out of the e-mail channel. A mail with only an HTML part is imported as a text
 * rendering of it (html-to-text: markup, scripts, styles and images dropped, entities decoded,
 * quoted blocks as "> " lines so the quote stripper still finds them); raw HTML never becomes a
 * message. Replies carry a simple HTML alternative of their text so mail clients that prefer HTML
 * show the same words, line breaks and links.
 */
import { convert } from 'html-to-text';

/** Past this, an HTML body is not worth the parsing time (mail bodies are rarely over 100 KB). */
const MAX_HTML = 1_000_000;

export function htmlToPlain(html: string): string {
  if (html.length > MAX_HTML) html = html.slice(0, MAX_HTML);
  return convert(html, {
    wordwrap: false,
    selectors: [
      { selector: 'img', format: 'skip' },
      { selector: 'script', format: 'skip' },
      { selector: 'style', format: 'skip' },
      { selector: 'head', format: 'skip' },
      { selector: 'a', options: { hideLinkHrefIfSameAsText: true, noAnchorUrl: true } },
      { selector: 'blockquote', options: { trimEmptyLines: true } },
    ],
  })
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The reply's text as HTML: escaped, paragraphs and line breaks kept, web addresses as links. */
export function plainToHtml(text: string): string {
  const body = escapeHtml(text)
    .replace(/\bhttps?:\/\/[^\s<]+[^\s<.,;:!?)'"]/g, (url) => `<a href="${url}">${url}</a>`)
    .split(/\n{2,}/)
    .map((p) => `<p style="margin:0 0 1em">${p.replace(/\n/g, '<br>')}</p>`)
    .join('\n');
  return `<!doctype html><html><body style="font-family:Arial,Helvetica,sans-serif;font-size:14px;line-height:1.5">${body}</body></html>`;
}
