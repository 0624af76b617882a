import { inflateSync } from 'node:zlib';

/**
 * The text a PDF shows, read back from its content streams: every FlateDecode stream inflated and
 * the strings of its text operators (Tj, TJ: hex or literal) decoded as WinAnsi (latin1). Enough
 * for the PDFs pdfkit writes with its standard fonts, which is all the server makes; one string
 * per text operator, joined by newlines.
 */
export function pdfText(pdf: Buffer): string {
  const raw = pdf.toString('latin1');
  const out: string[] = [];
  const streams = /<<([^]*?)>>\s*stream\r?\n/g;
  let m: RegExpExecArray | null;
  while ((m = streams.exec(raw))) {
    const start = m.index + m[0].length;
    const end = raw.indexOf('endstream', start);
    if (end < 0) break;
    let body = pdf.subarray(start, end);
    if (/\/FlateDecode/.test(m[1]!)) {
      try {
        body = inflateSync(body);
      } catch {
        continue;
      }
    }
    const content = body.toString('latin1');
    for (const op of content.matchAll(/\[((?:<[0-9a-fA-F]*>|\((?:\\.|[^\\)])*\)|[^\]])*)\]\s*TJ|(<[0-9a-fA-F]*>|\((?:\\.|[^\\)])*\))\s*Tj/g)) {
      const parts = (op[1] ?? op[2]!).match(/<[0-9a-fA-F]*>|\((?:\\.|[^\\)])*\)/g) ?? [];
      out.push(
        parts
          .map((p) => (p.startsWith('<') ? Buffer.from(p.slice(1, -1), 'hex').toString('latin1') : p.slice(1, -1).replace(/\\([()\\])/g, '$1')))
          .join(''),
      );
    }
  }
  return out.join('\n');
}
