import type { RequestHandler } from 'express';
import type { AppDeps } from '../../deps';
import { readImageUpload, redirectToImage, replaceImage, requireUser } from '../../uploads/images';

/** PUT /uploads/avatar with the image as the raw body. */
export function uploadAvatar(deps: AppDeps): RequestHandler {
  return async (req, res) => {
    const auth = await requireUser(deps, req, res);
    if (!auth) return;
    const image = await readImageUpload(req, res);
    if (!image) return;
    const stored = await replaceImage(deps, `avatars/${auth.user.id}`, image, auth.user.avatarKey);
    await deps.db.user.update({ where: { id: auth.user.id }, data: { avatarKey: stored.key } });
    await stored.dropOld();
    res.json({ ok: true });
  };
}

/** GET /avatars/:userId */
export function serveAvatar(deps: AppDeps): RequestHandler {
  return async (req, res) => {
    const userId = String(req.params.userId);
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(userId)) return void res.status(404).end();
    const user = await deps.db.user.findUnique({ where: { id: userId }, select: { avatarKey: true } });
    await redirectToImage(deps, res, user?.avatarKey);
  };
}
