/**
 * The note's rich-text editor: TipTap (ProseMirror) with its StarterKit (paragraphs, headings,
 * lists, quotes, code, bold/italic/underline/strike, links). What it produces is a JSON document,
 * checked again by the server (shared/domain/note-doc.ts); it never reads or writes HTML.
 */
import { useLingui } from '@lingui/react/macro';
import { EditorContent, useEditor, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useEffect } from 'react';
import { isSafeNoteHref, type NoteDoc } from '../../../shared/domain/note-doc';

export function NoteEditor({ doc, editable, label, onChange }: { doc: NoteDoc; editable: boolean; label: string; onChange: (doc: NoteDoc) => void }) {
  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        heading: { levels: [1, 2, 3] },
        link: { openOnClick: !editable, autolink: true, protocols: ['http', 'https', 'mailto'], isAllowedUri: (url) => isSafeNoteHref(url) },
      }),
    ],
    content: doc,
    editable,
    editorProps: { attributes: { 'aria-label': label, 'aria-multiline': 'true', role: 'textbox', class: 'note-editor-content' } },
    onUpdate: ({ editor }) => onChange(editor.getJSON() as NoteDoc),
  });
  useEffect(() => {
    editor?.setEditable(editable);
  }, [editor, editable]);
  return (
    <div className="note-editor">
      {editable && editor && <Toolbar editor={editor} />}
      <EditorContent editor={editor} />
    </div>
  );
}

function Toolbar({ editor }: { editor: Editor }) {
  const { t } = useLingui();
  const chain = () => editor.chain().focus();
  const button = (label: string, text: string, active: boolean, run: () => void) => (
    <button type="button" className={active ? 'note-tool active' : 'note-tool'} aria-label={label} title={label} aria-pressed={active} onMouseDown={(e) => e.preventDefault()} onClick={run}>
      {text}
    </button>
  );
  return (
    <div className="note-toolbar" role="toolbar" aria-label={t`Formatting`}>
      {button(t`Bold`, 'B', editor.isActive('bold'), () => chain().toggleBold().run())}
      {button(t`Italic`, 'I', editor.isActive('italic'), () => chain().toggleItalic().run())}
      {button(t`Underline`, 'U', editor.isActive('underline'), () => chain().toggleUnderline().run())}
      {button(t`Strikethrough`, 'S', editor.isActive('strike'), () => chain().toggleStrike().run())}
      {button(t`Heading`, 'H', editor.isActive('heading', { level: 2 }), () => chain().toggleHeading({ level: 2 }).run())}
      {button(t`Bulleted list`, '•', editor.isActive('bulletList'), () => chain().toggleBulletList().run())}
      {button(t`Numbered list`, '1.', editor.isActive('orderedList'), () => chain().toggleOrderedList().run())}
      {button(t`Quote`, '❝', editor.isActive('blockquote'), () => chain().toggleBlockquote().run())}
      {button(t`Link`, '🔗', editor.isActive('link'), () => {
        const current = editor.getAttributes('link').href as string | undefined;
        const href = window.prompt(t`Link address (https://…)`, current ?? 'https://');
        if (href === null) return;
        if (!href.trim()) chain().unsetLink().run();
        else if (isSafeNoteHref(href.trim())) chain().extendMarkRange('link').setLink({ href: href.trim() }).run();
      })}
    </div>
  );
}
