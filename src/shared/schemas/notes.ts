import { z } from 'zod';
import { NOTE_TITLE_MAX, parseNoteDoc, type NoteDoc } from '../domain/note-doc';
import { domainSchema } from './company';

export { NOTE_MESSAGES } from '../messages/notes';

const id = z.uuid();
const inCompany = { domain: domainSchema };

/** A TipTap/ProseMirror document, checked and rebuilt by parseNoteDoc (never HTML). */
export const noteDocSchema = z.unknown().transform((value, ctx): NoteDoc => {
  const parsed = parseNoteDoc(value);
  if (!parsed.ok) {
    ctx.addIssue({ code: 'custom', message: parsed.error });
    return z.NEVER;
  }
  return parsed.doc;
});

export const notesListInput = z.object({
  ...inCompany,
  /** Words in the title or the text, accents and case ignored. */
  q: z.string().trim().max(100).optional(),
  /** mine: my own notes; shared: notes colleagues shared with me; all: both. */
  scope: z.enum(['all', 'mine', 'shared']).default('all'),
});
export const noteInput = z.object({ ...inCompany, noteId: id });
export const noteCreateInput = z.object({ ...inCompany, title: z.string().trim().max(NOTE_TITLE_MAX).default(''), doc: noteDocSchema.optional() });
export const noteUpdateInput = z.object({ ...inCompany, noteId: id, title: z.string().trim().max(NOTE_TITLE_MAX), doc: noteDocSchema });
export const noteShareInput = z.object({
  ...inCompany,
  noteId: id,
  /** The colleagues it is shared with from now on (replaces the list); empty makes it private again. */
  shares: z.array(z.object({ userId: id, canEdit: z.boolean().default(false) })).max(200),
});
export const noteAttachmentInput = z.object({ ...inCompany, noteId: id, attachmentId: id });
/** PUT /uploads/note/:domain/:noteId?name= */
export const noteUploadQuery = z.object({ name: z.string().min(1).max(255) });
