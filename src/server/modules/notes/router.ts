/**
 * Notes (/i/notes, /i/notes/{id}); every procedure takes `domain`.
 *   notes.list q {q?, scope?} -> my notes and those shared with me, newest change first
 *   notes.annotations q {q?} -> the conversation annotations (anotações) of my conversations
 *   notes.get q {noteId};  notes.create m {title, doc?};  notes.update m {noteId, title, doc}
 *   notes.remove m {noteId};  notes.share m {noteId, shares: [{userId, canEdit}]}
 *   notes.removeAttachment m {noteId, attachmentId}
 *   PUT /uploads/note/:domain/:noteId?name=  raw file body -> {id, name, size, mime, isImage}
 * Socket: note:changed {noteId, change} to the owner and the colleagues it is shared with.
 */
import { z } from 'zod';
import { noteAttachmentInput, noteCreateInput, noteInput, noteShareInput, noteUpdateInput, notesListInput } from '../../../shared/schemas/notes';
import { domainSchema } from '../../../shared/schemas/company';
import { memberProcedure, router } from '../../trpc';
import * as notes from './service';

export const notesRouter = router({
  list: memberProcedure.input(notesListInput).query(({ ctx, input }) => notes.listNotes(ctx, input)),
  annotations: memberProcedure
    .input(z.object({ domain: domainSchema, q: z.string().trim().max(100).optional() }))
    .query(({ ctx, input }) => notes.listAnnotations(ctx, input.q)),
  get: memberProcedure.input(noteInput).query(({ ctx, input }) => notes.getNote(ctx, input.noteId)),
  create: memberProcedure.input(noteCreateInput).mutation(({ ctx, input }) => notes.createNote(ctx, input)),
  update: memberProcedure.input(noteUpdateInput).mutation(({ ctx, input }) => notes.updateNote(ctx, input)),
  remove: memberProcedure.input(noteInput).mutation(({ ctx, input }) => notes.removeNote(ctx, input.noteId)),
  share: memberProcedure.input(noteShareInput).mutation(({ ctx, input }) => notes.shareNote(ctx, input)),
  removeAttachment: memberProcedure.input(noteAttachmentInput).mutation(({ ctx, input }) => notes.removeAttachment(ctx, input.noteId, input.attachmentId)),
});
