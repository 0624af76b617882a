import type { RequestHandler } from 'express';
import { feedUploadQuery } from '../../../shared/schemas/feeds';
import type { AppDeps } from '../../deps';
import { answerUploadError, refuse, uploadingMember } from '../../uploads/module-files';
import { uploadFeedFile } from './service';

/** PUT /uploads/feed/:domain?name= — an image or file for a post being written. */
export function uploadFeedAttachment(deps: AppDeps): RequestHandler {
  return async (req, res) => {
    try {
      const who = await uploadingMember(deps, req, res);
      if (!who) return;
      const query = feedUploadQuery.safeParse(req.query);
      if (!query.success) return void refuse(res, 400, 'name: a file name is required', 'badRequest');
      res.json(await uploadFeedFile({ ...deps, ...who }, req, query.data.name));
    } catch (err) {
      answerUploadError(req, res, err, 'feed');
    }
  };
}
