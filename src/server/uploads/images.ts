import { randomBytes } from 'node:crypto';
import type { Request, Response } from 'express';
import { AVATAR_MAX_BYTES, detectImageType, NOT_AN_IMAGE } from '../../shared/domain/images';
import type { AppDeps } from '../deps';
import { requestToken, resolveSession } from '../modules/identity/sessions';

const TOO_LARGE = 'The image is too large (at most 5 MB)';

/** The signed-in user of a plain HTTP request (uploads are not tRPC calls), or a 401 answered. */
export async function requireUser(deps: AppDeps, req: Request, res: Response) {
  const token = requestToken(req.headers);
  const auth = token ? await resolveSession(deps.db, token, deps.clock.now()) : null;
  if (!auth) res.status(401).json({ error: 'Sign in to continue' });
  return auth;
}

/**
 * Reads an image sent as the raw body of a PUT (a plain upload the browser reports progress
 * for) and answers the refusals itself: no length 411, over 5 MB 413, not an image 415. The bytes
 * decide what an image is, never the declared Content-Type. Images are small: buffered, so the
 * check sees them before anything is stored.
 */
export async function readImageUpload(req: Request, res: Response): Promise<{ body: Buffer; type: string } | null> {
  const declared = Number(req.headers['content-length']);
  if (!Number.isFinite(declared) || declared <= 0) return void res.status(411).json({ error: 'The upload needs a Content-Length' }), null;
  if (declared > AVATAR_MAX_BYTES) return void res.status(413).json({ error: TOO_LARGE }), null;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += chunk.length;
    if (size > AVATAR_MAX_BYTES) return void res.status(413).json({ error: TOO_LARGE }), null;
    chunks.push(chunk);
  }
  const body = Buffer.concat(chunks);
  const type = detectImageType(body.subarray(0, 16));
  if (!type) return void res.status(415).json({ error: NOT_AN_IMAGE }), null;
  return { body, type };
}

/** Stores the new image under `prefix`, then removes the one it replaces. Returns the new key. */
export async function replaceImage(deps: AppDeps, prefix: string, image: { body: Buffer; type: string }, oldKey: string | null) {
  const key = `${prefix}/${randomBytes(8).toString('hex')}`;
  await deps.storage.put(key, image.body, { size: image.body.length, contentType: image.type });
  return {
    key,
    /** Call once the new key is saved: the old object goes only when nothing points at it. */
    dropOld: async () => {
      if (oldKey) await deps.storage.delete(oldKey);
    },
  };
}

/** A short-lived redirect to a stored image, for <img src>. */
export async function redirectToImage(deps: AppDeps, res: Response, key: string | null | undefined) {
  if (!key) return void res.status(404).end();
  res.setHeader('Cache-Control', 'private, max-age=300');
  res.redirect(302, await deps.storage.presignGet(key, 600));
}
