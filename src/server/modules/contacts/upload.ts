import type { RequestHandler } from 'express';
import { CONTACT_MESSAGES, IMPORT_MAX_BYTES } from '../../../shared/domain/contacts';
import { contactImportQuery } from '../../../shared/schemas/contacts';
import type { AppDeps } from '../../deps';
import { answerUploadError, readSmallBody, refuse, uploadingMember } from '../../uploads/module-files';
import { PERMISSION_DENIED, memberPermissions } from '../profiles/permissions';
import { startImport } from './imports';

/** PUT /uploads/contacts/:domain/import?name= — a CSV of contacts (profile permission addContacts). */
export function uploadContactsCsv(deps: AppDeps): RequestHandler {
  return async (req, res) => {
    try {
      const who = await uploadingMember(deps, req, res);
      if (!who) return;
      if (!(await memberPermissions(deps.db, who.company.id, who.member)).addContacts) return void refuse(res, 403, PERMISSION_DENIED, 'FORBIDDEN');
      const query = contactImportQuery.safeParse(req.query);
      if (!query.success) return void refuse(res, 400, 'name: a file name is required', 'badRequest');
      const length = Number(req.headers['content-length']);
      if (Number.isFinite(length) && length > IMPORT_MAX_BYTES) return void refuse(res, 413, CONTACT_MESSAGES.fileTooLarge, 'fileTooLarge');
      const body = await readSmallBody(req, IMPORT_MAX_BYTES, CONTACT_MESSAGES.fileTooLarge);
      res.json(await startImport({ ...deps, ...who }, query.data.name, body));
    } catch (err) {
      answerUploadError(req, res, err, 'contacts');
    }
  };
}
