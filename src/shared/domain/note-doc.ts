/**
 * The body of a note: a TipTap/ProseMirror JSON document (what the editor's StarterKit and Link
 * produce), checked and rebuilt here node by node. Only the node types, marks and attributes
 * below survive; anything else is refused, so no HTML, script or odd link ever reaches storage or
 * another reader's screen. The same check runs in the browser and on the server.
 */
export type NoteMark = { type: 'bold' | 'italic' | 'strike' | 'code' | 'underline' } | { type: 'link'; attrs: { href: string } };
export interface NoteNode {
  type: string;
  attrs?: Record<string, string | number | null>;
  content?: NoteNode[];
  text?: string;
  marks?: NoteMark[];
}
export interface NoteDoc extends NoteNode {
  type: 'doc';
  content: NoteNode[];
}

export const NOTE_TITLE_MAX = 200;
/** Characters of text in one note, and nodes (paragraphs, list items, runs of text...). */
export const NOTE_TEXT_MAX = 100_000;
const NODES_MAX = 20_000;
const DEPTH_MAX = 30;

export const emptyNoteDoc = (): NoteDoc => ({ type: 'doc', content: [{ type: 'paragraph' }] });

const BLOCKS = ['paragraph', 'heading', 'blockquote', 'bulletList', 'orderedList', 'codeBlock', 'horizontalRule'];
const INLINE = ['text', 'hardBreak'];
/** Which children each node may have (absent: none). */
const CHILDREN: Record<string, string[] | undefined> = {
  doc: BLOCKS,
  paragraph: INLINE,
  heading: INLINE,
  blockquote: BLOCKS,
  bulletList: ['listItem'],
  orderedList: ['listItem'],
  listItem: BLOCKS,
  codeBlock: ['text'],
  horizontalRule: undefined,
  hardBreak: undefined,
  text: undefined,
};
const SIMPLE_MARKS = new Set(['bold', 'italic', 'strike', 'code', 'underline']);

/** Link targets a note may carry: web addresses and e-mail. */
export function isSafeNoteHref(href: string): boolean {
  try {
    const url = new URL(href);
    return ['http:', 'https:', 'mailto:'].includes(url.protocol);
  } catch {
    return false;
  }
}

export type NoteDocResult = { ok: true; doc: NoteDoc; text: string } | { ok: false; error: string };

export const NOTE_DOC_INVALID = 'The note could not be read: reload it and try again';
export const NOTE_TOO_LONG = `A note has at most ${NOTE_TEXT_MAX.toLocaleString('en')} characters`;

/** Checks a document from outside and returns a clean copy and its plain text, or why not. */
export function parseNoteDoc(value: unknown): NoteDocResult {
  let nodes = 0;
  let chars = 0;
  const lines: string[] = [];
  let line = '';
  class Invalid extends Error {}
  const obj = (v: unknown): Record<string, unknown> => {
    if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Invalid();
    return v as Record<string, unknown>;
  };

  function marksOf(raw: unknown): NoteMark[] | undefined {
    if (raw === undefined || raw === null) return undefined;
    if (!Array.isArray(raw) || raw.length > 10) throw new Invalid();
    const marks: NoteMark[] = [];
    for (const m of raw) {
      const mark = obj(m);
      if (typeof mark.type === 'string' && SIMPLE_MARKS.has(mark.type)) marks.push({ type: mark.type as 'bold' });
      else if (mark.type === 'link') {
        const href = obj(mark.attrs).href;
        if (typeof href !== 'string' || href.length > 2000 || !isSafeNoteHref(href)) throw new Invalid();
        marks.push({ type: 'link', attrs: { href } });
      } else throw new Invalid();
    }
    return marks.length ? marks : undefined;
  }

  function node(raw: unknown, allowed: string[], depth: number): NoteNode {
    if (++nodes > NODES_MAX || depth > DEPTH_MAX) throw new Invalid();
    const n = obj(raw);
    const type = n.type;
    if (typeof type !== 'string' || !allowed.includes(type)) throw new Invalid();
    if (type === 'text') {
      if (typeof n.text !== 'string' || n.text.length === 0) throw new Invalid();
      chars += n.text.length;
      line += n.text;
      const marks = marksOf(n.marks);
      return marks ? { type, text: n.text, marks } : { type, text: n.text };
    }
    if (type === 'hardBreak') {
      lines.push(line);
      line = '';
      return { type };
    }
    const out: NoteNode = { type };
    const attrs = n.attrs === undefined || n.attrs === null ? {} : obj(n.attrs);
    if (type === 'heading') {
      const level = attrs.level;
      out.attrs = { level: typeof level === 'number' && [1, 2, 3].includes(level) ? level : 1 };
    } else if (type === 'orderedList') {
      const start = attrs.start;
      out.attrs = { start: typeof start === 'number' && Number.isInteger(start) && start >= 0 && start < 1e6 ? start : 1 };
    } else if (type === 'codeBlock') {
      const language = attrs.language;
      out.attrs = { language: typeof language === 'string' && /^[\w+#-]{1,20}$/.test(language) ? language : null };
    }
    const children = CHILDREN[type];
    if (n.content !== undefined && n.content !== null) {
      if (!children || !Array.isArray(n.content)) throw new Invalid();
      out.content = n.content.map((c) => node(c, children, depth + 1));
      if (out.content.length === 0) delete out.content;
    }
    if (type !== 'doc' && !INLINE.includes(type) && line) {
      lines.push(line);
      line = '';
    }
    return out;
  }

  try {
    const doc = node(value, ['doc'], 0) as NoteDoc;
    if (!doc.content) doc.content = [{ type: 'paragraph' }];
    if (line) lines.push(line);
    if (chars > NOTE_TEXT_MAX) return { ok: false, error: NOTE_TOO_LONG };
    return { ok: true, doc, text: lines.join('\n') };
  } catch (err) {
    if (err instanceof Invalid) return { ok: false, error: NOTE_DOC_INVALID };
    throw err;
  }
}
