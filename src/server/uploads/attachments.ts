/**
 * PUT /uploads/chat/:domain/:conversationId — a file, image or voice message sent in a conversation.
 *
 * The body is the raw file, so the browser's XMLHttpRequest reports upload progress and the server
 * streams it to storage without buffering it. An image may be preceded by a small thumbnail the
 * browser drew on a canvas (`thumbBytes` says how many bytes of the body it takes:
 * `xhr.send(new Blob([thumb, file], { type: file.type }))`); the server checks it is an image by
 * its bytes and stores it beside the file. Everything else about the message is in the query
 * string (uploadQuery in shared/schemas/chat.ts). Size, quota, access and the reply are checked
 * before a byte is stored. Answers the message as JSON, or { error, code } with a 4xx/5xx.
 */
import { Readable } from 'node:stream';
import { TRPCError } from '@trpc/server';
import type { Request, RequestHandler, Response } from 'express';
import { z } from 'zod';
import { THUMB_MAX_BYTES } from '../../shared/domain/files';
import { accessRefusal } from '../../shared/domain/membership';
import { uploadQuery } from '../../shared/schemas/chat';
import { domainSchema } from '../../shared/schemas/company';
import type { AppDeps } from '../deps';
import type { ChatContext } from '../modules/chat/context';
import { checkUpload, storeFileMessage, UPLOAD_MESSAGES, UploadRefused } from '../modules/chat/files';
import { memberPermissions, PERMISSION_DENIED } from '../modules/profiles/permissions';
import { requireUser } from './images';

/** How many bytes of the file are read before storing, to recognise its kind. */
const HEAD_BYTES = 64;

export function uploadAttachment(deps: AppDeps): RequestHandler {
  return async (req, res) => {
    try {
      const auth = await requireUser(deps, req, res);
      if (!auth) return;
      const domain = domainSchema.safeParse(req.params.domain);
      const company = domain.success ? await deps.db.company.findUnique({ where: { domain: domain.data } }) : null;
      if (!company) return refuse(res, 404, 'Domain not found', 'domainNotFound');
      // The same access rule as memberProcedure.
      const [member, appConfig] = await Promise.all([
        deps.db.member.findUnique({ where: { companyId_userId: { companyId: company.id, userId: auth.user.id } } }),
        deps.db.appConfig.findUnique({ where: { id: 1 } }),
      ]);
      const refusal = accessRefusal(member, { mustVerifyEmail: !!appConfig?.verifyEmail && !!auth.user.email && !auth.user.emailVerifiedAt });
      if (refusal) return refuse(res, 403, refusal.message, refusal.reason);

      const conversationId = z.uuid().safeParse(req.params.conversationId);
      const query = uploadQuery.safeParse(req.query);
      if (!conversationId.success) return refuse(res, 404, 'Conversation not found', 'notFound');
      if (!query.success) {
        const issue = query.error.issues[0]!;
        return refuse(res, 400, `${issue.path.join('.')}: ${issue.message}`, 'badRequest');
      }
      // A voice message needs the profile permission sendAudio (src/server/modules/governed.ts).
      if (query.data.recording === '1' && !(await memberPermissions(deps.db, company.id, member!)).sendAudio) return refuse(res, 403, PERMISSION_DENIED, 'FORBIDDEN');
      const length = Number(req.headers['content-length']);
      if (!Number.isSafeInteger(length) || length <= 0) return refuse(res, 411, UPLOAD_MESSAGES.noLength, 'noLength');
      const thumbBytes = query.data.thumbBytes ?? 0;
      if (thumbBytes > THUMB_MAX_BYTES) return refuse(res, 413, UPLOAD_MESSAGES.badThumb, 'badThumb');

      const ctx: ChatContext = { ...deps, company, member: member!, userId: auth.user.id };
      const params = { ...query.data, conversationId: conversationId.data, size: length - thumbBytes, declaredType: req.headers['content-type'] };
      const checked = await checkUpload(ctx, params);
      if ('existing' in checked) return void res.json(checked.existing);

      const body = bodyReader(req);
      const thumb = thumbBytes ? await body.read(thumbBytes) : null;
      if (thumb && thumb.length < thumbBytes) return refuse(res, 400, UPLOAD_MESSAGES.cutShort, 'cutShort');
      const head = await body.peek(Math.min(HEAD_BYTES, params.size));
      const message = await storeFileMessage(ctx, { ...params, replyIsComment: checked.replyIsComment }, { head, thumb, stream: body.rest() });
      res.json(message);
    } catch (err) {
      if (err instanceof UploadRefused) return refuse(res, err.status, err.message, err.code, err.extra);
      if (err instanceof TRPCError) {
        const status = err.code === 'NOT_FOUND' ? 404 : err.code === 'FORBIDDEN' ? 403 : err.code === 'BAD_REQUEST' ? 400 : 500;
        if (status < 500) return refuse(res, status, err.message, err.code);
      }
      req.log.error({ err }, 'chat upload failed');
      refuse(res, 500, 'Something went wrong; try again', 'internal');
    }
  };
}

export function refuse(res: Response, status: number, error: string, code: string, extra: Record<string, unknown> = {}) {
  if (!res.headersSent) res.status(status).json({ error, code, ...extra });
}

/**
 * Reads a request body in parts: an exact number of bytes, a look at the next bytes without
 * consuming them, then the rest as a stream.
 */
export function bodyReader(req: Request) {
  const chunks = req[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let pending: Buffer = Buffer.alloc(0);
  let ended = false;
  async function fill(n: number) {
    while (pending.length < n && !ended) {
      const next = await chunks.next();
      if (next.done) ended = true;
      else pending = pending.length ? Buffer.concat([pending, next.value]) : next.value;
    }
  }
  return {
    async read(n: number) {
      await fill(n);
      const out = pending.subarray(0, n);
      pending = pending.subarray(out.length);
      return Buffer.from(out);
    },
    async peek(n: number) {
      await fill(n);
      return pending.subarray(0, n);
    },
    rest(): Readable {
      const first = pending;
      return Readable.from(
        (async function* () {
          if (first.length) yield first;
          if (ended) return;
          for (;;) {
            const next = await chunks.next();
            if (next.done) return;
            yield next.value;
          }
        })(),
      );
    },
  };
}
