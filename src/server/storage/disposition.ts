/**
 * `Content-Disposition: attachment` for a user-chosen file name (RFC 6266 + RFC 5987): an ASCII
 * `filename` for old clients and a UTF-8 `filename*` for the rest. Every byte outside the RFC 5987
 * attr-char set is percent-encoded, so the value can never carry quotes, CR/LF or non-ASCII.
 */
export function attachmentDisposition(downloadName: string): string {
  const fallback = downloadName.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(downloadName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
