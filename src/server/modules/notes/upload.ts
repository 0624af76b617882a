import type { RequestHandler } from 'express';
import { z } from 'zod';
import { noteUploadQuery } from '../../../shared/schemas/notes';
import type { AppDeps } from '../../deps';
import { answerUploadError, refuse, uploadingMember } from '../../uploads/module-files';
import { uploadNoteFile } from './service';

/** PUT /uploads/note/:domain/:noteId?name= — a file kept with a note. */
export function uploadNoteAttachment(deps: AppDeps): RequestHandler {
  return async (req, res) => {
    try {
      const who = await uploadingMember(deps, req, res);
      if (!who) return;
      const noteId = z.uuid().safeParse(req.params.noteId);
      if (!noteId.success) return void refuse(res, 404, 'Note not found', 'notFound');
      const query = noteUploadQuery.safeParse(req.query);
      if (!query.success) return void refuse(res, 400, 'name: a file name is required', 'badRequest');
      res.json(await uploadNoteFile({ ...deps, ...who }, req, noteId.data, query.data.name));
    } catch (err) {
      answerUploadError(req, res, err, 'note');
    }
  };
}
