/**
 * The forms' plain HTTP routes (files are not JSON):
 *
 *   PUT /uploads/form/:formId/:fieldId?name=   body = the file; answers { fieldId, value: {name, size, mime} }
 *       The answer of a file, image or signature field of a draft. Same storage, size limit and
 *       company quota as chat files (MAX_UPLOAD_BYTES; 413 fileTooLarge, 507 quotaExceeded); the
 *       previous file of the field is deleted. Images and signatures must be images by their bytes (415).
 *   GET /forms/:formId/pdf?lang=&tz=           the filled form as a PDF download
 *
 * Either side may call them: a member of the form's company (member rules) or anyone else (the
 * customer side's rules: a participant of the form's conversation, forms sent to the customer).
 */
import { randomUUID } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import type { User } from '../../../generated/prisma/client';
import { cleanMime, sanitizeFileName } from '../../../shared/domain/files';
import { FILE_FIELD_TYPES, isFileValue, type FormValue } from '../../../shared/domain/forms';
import { exportFileName } from '../../../shared/domain/forms-export';
import { detectImageType } from '../../../shared/domain/images';
import { accessRefusal } from '../../../shared/domain/membership';
import { LOCALES } from '../../../shared/constants';
import { fieldIdSchema, FORM_MESSAGES as M, formUploadQuery } from '../../../shared/schemas/forms';
import type { Prisma } from '../../db/client';
import type { AppDeps } from '../../deps';
import { ObjectSizeMismatchError } from '../../storage';
import { bodyReader, refuse } from '../../uploads/attachments';
import { requireUser } from '../../uploads/images';
import { chargeConversationFile, checkConversationFile, refundConversationFile, UploadRefused } from '../chat/service';
import { fieldsOf } from './context';
import { pushFormChanged } from './events';
import { formPdf, imageKeys } from './export';
import { assertFiller, assertReader, customerActor, describeForm, loadForm, type Actor, type LoadedForm } from './filling';

const HEAD_BYTES = 64;
const formId = z.uuid();

/** The side a plain request acts from: a member of the form's company (same rule as memberProcedure), else a customer. */
async function actorFor(deps: AppDeps, user: User, form: LoadedForm): Promise<Actor> {
  const [member, appConfig] = await Promise.all([
    deps.db.member.findUnique({ where: { companyId_userId: { companyId: form.companyId, userId: user.id } } }),
    deps.db.appConfig.findUnique({ where: { id: 1 } }),
  ]);
  const refusal = accessRefusal(member, { mustVerifyEmail: !!appConfig?.verifyEmail && !!user.email && !user.emailVerifiedAt });
  if (refusal || !member) return customerActor(user);
  return { userId: user.id, userName: user.name, side: 'member', member, company: form.template.company };
}

function refuseError(req: Request, res: Response, err: unknown, what: string) {
  if (err instanceof UploadRefused) return refuse(res, err.status, err.message, err.code, err.extra);
  if (err instanceof TRPCError) {
    const status = { NOT_FOUND: 404, FORBIDDEN: 403, BAD_REQUEST: 400, CONFLICT: 409 }[err.code as string];
    if (status) return refuse(res, status, err.message, err.code);
  }
  req.log.error({ err }, what);
  refuse(res, 500, 'Something went wrong; try again', 'internal');
}

export function uploadFormFile(deps: AppDeps): RequestHandler {
  return async (req, res) => {
    try {
      const auth = await requireUser(deps, req, res);
      if (!auth) return;
      const id = formId.safeParse(req.params.formId);
      const fieldId = fieldIdSchema.safeParse(req.params.fieldId);
      const query = formUploadQuery.safeParse(req.query);
      if (!id.success) return refuse(res, 404, M.formNotFound, 'NOT_FOUND');
      if (!fieldId.success || !query.success) return refuse(res, 400, M.fieldNotFound, 'BAD_REQUEST');
      const size = Number(req.headers['content-length']);
      if (!Number.isSafeInteger(size) || size <= 0) return refuse(res, 411, 'The upload needs a Content-Length', 'noLength');

      const form = await loadForm(deps, customerActor(auth.user), id.data);
      const actor = await actorFor(deps, auth.user, form);
      await assertFiller(deps, actor, form);
      const field = fieldsOf(form.version.fields).find((f) => f.id === fieldId.data);
      if (!field) return refuse(res, 404, M.fieldNotFound, 'NOT_FOUND');
      if (!FILE_FIELD_TYPES.has(field.type)) return refuse(res, 400, M.notAFileField, 'BAD_REQUEST');
      await checkConversationFile(deps, form.companyId, size);

      const body = bodyReader(req);
      const head = await body.peek(Math.min(HEAD_BYTES, size));
      const image = detectImageType(head);
      if (field.type !== 'file' && !image) return refuse(res, 415, M.notAnImage, 'notAnImage');
      const name = sanitizeFileName(query.data.name);
      const mime = image ?? cleanMime(req.headers['content-type']);
      const key = `${form.template.company.domain}/${form.conversationId}/forms/${form.id}/${field.id}/${randomUUID().slice(0, 8)}/${name}`;
      try {
        await deps.storage.put(key, body.rest(), { size, contentType: mime });
      } catch (err) {
        if (err instanceof ObjectSizeMismatchError) return refuse(res, 400, 'The upload was interrupted; send the file again', 'cutShort');
        throw err;
      }
      const value = { key, name, size, mime };
      let previous: FormValue = null;
      try {
        previous = await deps.db.$transaction(
          async (tx) => {
            const [row] = await tx.$queryRaw<{ status: string; values: Record<string, FormValue> }[]>`
              SELECT "status", "values" FROM "FilledForm" WHERE "id" = ${form.id}::uuid FOR UPDATE`;
            if (!row || row.status !== 'draft') throw new TRPCError({ code: 'CONFLICT', message: M.alreadySubmitted });
            await chargeConversationFile(tx, form.companyId, form.conversationId!, size);
            const old = row.values[field.id] ?? null;
            if (isFileValue(old)) await refundConversationFile(tx, form.conversationId!, old.size);
            await tx.filledForm.update({ where: { id: form.id }, data: { values: { ...row.values, [field.id]: value } as Prisma.InputJsonValue, updatedAt: deps.clock.now() } });
            return old;
          },
          { maxWait: 10_000, timeout: 20_000 },
        );
      } catch (err) {
        await deps.storage.delete(key).catch(() => undefined);
        throw err;
      }
      if (isFileValue(previous)) await deps.storage.delete(previous.key).catch(() => undefined);
      await pushFormChanged(deps, form, 'draft');
      res.json({ fieldId: field.id, value: { name, size, mime } });
    } catch (err) {
      refuseError(req, res, err, 'form upload failed');
    }
  };
}

const pdfQuery = z.object({ lang: z.enum(LOCALES).optional(), tz: z.string().max(64).optional() });

export function downloadFormPdf(deps: AppDeps): RequestHandler {
  return async (req, res) => {
    try {
      const auth = await requireUser(deps, req, res);
      if (!auth) return;
      const id = formId.safeParse(req.params.formId);
      if (!id.success) return refuse(res, 404, M.formNotFound, 'NOT_FOUND');
      const query = pdfQuery.safeParse(req.query);
      const form = await loadForm(deps, customerActor(auth.user), id.data);
      const actor = await actorFor(deps, auth.user, form);
      await assertReader(deps, actor, form);
      const view = await describeForm(deps, actor, form);
      const pdf = await formPdf(deps.storage, { ...view, keys: imageKeys(view.fields, form.values as Record<string, unknown>) }, {
        lang: query.success ? query.data.lang : undefined,
        timeZone: query.success ? query.data.tz : undefined,
      });
      const fileName = exportFileName(view.name, 'pdf');
      res.setHeader('Content-Type', 'application/pdf');
      res.setHeader('Content-Disposition', `attachment; filename="${fileName}"`);
      res.setHeader('Cache-Control', 'private, no-store');
      res.end(pdf);
    } catch (err) {
      refuseError(req, res, err, 'form PDF failed');
    }
  };
}
