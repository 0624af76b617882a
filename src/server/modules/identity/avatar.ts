import { randomBytes } from 'node:crypto';
import type { RequestHandler } from 'express';
import { AVATAR_MAX_BYTES, detectImageType, NOT_AN_IMAGE } from '../../../shared/domain/images';
import type { AppDeps } from '../../deps';
import { readCookie, resolveSession, SESSION_COOKIE } from './sessions';

/**
 * PUT /uploads/avatar with the image as the raw body: a plain upload the browser can report
 * progress for. The bytes are checked to be an image, stored, and the old avatar removed.
 */
export function uploadAvatar(deps: AppDeps): RequestHandler {
  return async (req, res) => {
    const token = readCookie(req.headers.cookie, SESSION_COOKIE);
    const auth = token ? await resolveSession(deps.db, token, deps.clock.now()) : null;
    if (!auth) return void res.status(401).json({ error: 'Sign in to continue' });
    const declared = Number(req.headers['content-length']);
    if (!Number.isFinite(declared) || declared <= 0) return void res.status(411).json({ error: 'The upload needs a Content-Length' });
    if (declared > AVATAR_MAX_BYTES) return void res.status(413).json({ error: 'The image is too large (at most 5 MB)' });

    // Avatars are small: buffer them, so the type check sees the bytes before anything is stored.
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += chunk.length;
      if (size > AVATAR_MAX_BYTES) return void res.status(413).json({ error: 'The image is too large (at most 5 MB)' });
      chunks.push(chunk);
    }
    const body = Buffer.concat(chunks);
    const type = detectImageType(body.subarray(0, 16));
    if (!type) return void res.status(415).json({ error: NOT_AN_IMAGE });

    const key = `avatars/${auth.user.id}/${randomBytes(8).toString('hex')}`;
    await deps.storage.put(key, body, { size: body.length, contentType: type });
    await deps.db.user.update({ where: { id: auth.user.id }, data: { avatarKey: key } });
    if (auth.user.avatarKey) await deps.storage.delete(auth.user.avatarKey);
    res.json({ ok: true });
  };
}

/** GET /avatars/:userId: a short-lived redirect to the stored image, for <img src>. */
export function serveAvatar(deps: AppDeps): RequestHandler {
  return async (req, res) => {
    const userId = String(req.params.userId);
    if (!/^[0-9a-f-]{36}$/.test(userId)) return void res.status(404).end();
    const user = await deps.db.user.findUnique({ where: { id: userId }, select: { avatarKey: true } });
    if (!user?.avatarKey) return void res.status(404).end();
    res.setHeader('Cache-Control', 'private, max-age=300');
    res.redirect(302, await deps.storage.presignGet(user.avatarKey, 600));
  };
}
