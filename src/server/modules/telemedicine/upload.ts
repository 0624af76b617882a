import type { RequestHandler } from 'express';
import { documentInput, uploadDocumentQuery } from '../../../shared/schemas/telemedicine';
import type { AppDeps } from '../../deps';
import { requireUser } from '../../uploads/images';
import { answerUploadError, refuse } from '../../uploads/module-files';
import { uploadDocument } from './enrolment';

/** PUT /uploads/doctor/:enrolmentId?name= — the CRM document (pathCRM), by the doctor who enrolled. */
export function uploadDoctorDocument(deps: AppDeps): RequestHandler {
  return async (req, res) => {
    try {
      const auth = await requireUser(deps, req, res);
      if (!auth) return;
      const id = documentInput.safeParse({ enrolmentId: req.params.enrolmentId });
      if (!id.success) return void refuse(res, 404, 'Enrolment not found', 'notFound');
      const query = uploadDocumentQuery.safeParse(req.query);
      if (!query.success) return void refuse(res, 400, 'name: a file name is required', 'badRequest');
      res.json(await uploadDocument(deps, auth.user, req, id.data.enrolmentId, query.data.name));
    } catch (err) {
      answerUploadError(req, res, err, 'doctor document');
    }
  };
}
