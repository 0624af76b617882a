/**
 * What every forms rule starts from: the caller inside a company (member side), the template
 * rights of spec 6, and the refusals with the spec's texts.
 */
import { TRPCError } from '@trpc/server';
import type { Company, FormTemplate, Member } from '../../../generated/prisma/client';
import type { FormField } from '../../../shared/domain/forms';
import { ALL_FORMS, templateRights, type MemberForms, type TemplateRights } from '../../../shared/domain/forms-access';
import { FORM_MESSAGES as M } from '../../../shared/schemas/forms';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import type { Db, Prisma } from '../../db/client';
import type { Realtime } from '../../realtime';
import type { ObjectStore } from '../../storage';

/** Infrastructure the forms module uses, whoever calls. */
export interface FormsDeps {
  db: Db;
  clock: Clock;
  realtime: Realtime;
  storage: ObjectStore;
  config: Pick<Config, 'maxUploadBytes'>;
}

/** A member of the company the input named (memberProcedure's context). */
export interface FormsContext extends FormsDeps {
  company: Company;
  member: Member;
  user: { id: string; name: string };
}

export type Reader = Db | Prisma.TransactionClient;

export const fail = (code: 'NOT_FOUND' | 'FORBIDDEN' | 'BAD_REQUEST' | 'CONFLICT', message: string) => new TRPCError({ code, message });

/** formsMembro of a member; null when never set (every template). */
export async function memberFormsOf(db: Reader, companyId: string, userId: string): Promise<MemberForms | null> {
  const row = await db.memberForms.findUnique({ where: { companyId_userId: { companyId, userId } } });
  if (!row) return null;
  return row.allForms ? ALL_FORMS : { all: false, templateIds: row.templateIds };
}

export function rightsOf(ctx: FormsContext, template: FormTemplate, forms: MemberForms | null): TemplateRights {
  return templateRights(
    { id: template.id, creatorId: template.creatorId, editorIds: template.editorIds, isPrivate: template.isPrivate, deleted: template.deletedAt !== null },
    { userId: ctx.user.id, isAdmin: ctx.member.isAdmin },
    forms,
  );
}

/**
 * Why a template someone asked for is not theirs to see: never existed (or another company's),
 * deleted, or made private by its creator. The last two carry the spec's sentences, so a screen
 * opened from an old link says what happened.
 */
export function templateRefusal(template: Pick<FormTemplate, 'deletedAt' | 'isPrivate' | 'creatorId'> | null, userId: string): TRPCError | null {
  if (!template) return fail('NOT_FOUND', M.templateNotFound);
  if (template.deletedAt) return fail('NOT_FOUND', M.deleted);
  if (template.isPrivate && template.creatorId !== userId) return fail('FORBIDDEN', M.madePrivate);
  return null;
}

/** The template of this company the caller may see, with their rights over it. */
export async function visibleTemplate(ctx: FormsContext, templateId: string, db: Reader = ctx.db) {
  const template = await db.formTemplate.findFirst({ where: { id: templateId, companyId: ctx.company.id } });
  const refusal = templateRefusal(template, ctx.user.id);
  if (refusal) throw refusal;
  const rights = rightsOf(ctx, template!, await memberFormsOf(db, ctx.company.id, ctx.user.id));
  return { template: template!, rights };
}

export const fieldsOf = (json: unknown) => (Array.isArray(json) ? (json as FormField[]) : []);
