import { z } from 'zod';
import { LOCALES } from '../constants';
import { FORM_FIELD_TYPES, FORM_LIMITS, templateProblems, type FormField } from '../domain/forms';
import { TEMPLATE_LOSS_MESSAGES } from '../domain/forms-access';
import { domainSchema } from './company';

import { FORM_MESSAGES } from '../messages/forms';
export { FORM_MESSAGES } from '../messages/forms';

const id = z.uuid();
const inCompany = { domain: domainSchema };

/** Field ids are made by the builder and kept across versions (one CSV column per id). */
export const fieldIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, 'Invalid field id');

const size = z.number().finite().min(-1e12).max(1e12).nullable().default(null);

export const formFieldSchema = z.object({
  id: fieldIdSchema,
  type: z.enum(FORM_FIELD_TYPES),
  label: z.string().trim().max(FORM_LIMITS.labelMax).default(''),
  help: z.string().trim().max(FORM_LIMITS.helpMax).default(''),
  required: z.boolean().default(false),
  readOnly: z.boolean().default(false),
  validateEmail: z.boolean().default(false),
  minSize: size,
  maxSize: size,
  options: z.array(z.string().trim().min(1).max(FORM_LIMITS.optionMax)).max(FORM_LIMITS.options).default([]),
  defaultValue: z.string().max(FORM_LIMITS.defaultValueMax).default(''),
}) satisfies z.ZodType<FormField, unknown>;

const PROBLEM_TEXT: Record<ReturnType<typeof templateProblems>[number]['problem'], string> = {
  noFields: 'Add at least one field',
  tooManyFields: `A form has at most ${FORM_LIMITS.fields} fields`,
  duplicateId: 'Two fields have the same id',
  noLabel: 'Every field needs a label',
  noOptions: 'A choice needs at least one option',
  duplicateOption: 'Options of a choice must be different',
  minAboveMax: 'The minimum is above the maximum',
  sizeNotAllowed: 'This kind of field has no minimum or maximum',
  badDefault: 'The fixed value breaks the field’s own rules',
};

/** The fields of a template, with the template rules (shared/domain/forms.ts) as validation issues. */
export const templateFieldsSchema = z
  .array(formFieldSchema)
  .max(FORM_LIMITS.fields, PROBLEM_TEXT.tooManyFields)
  .superRefine((fields, ctx) => {
    for (const p of templateProblems(fields)) {
      const at = p.field === null ? [] : [fields.findIndex((f) => f.id === p.field)];
      ctx.addIssue({ code: 'custom', path: at, message: PROBLEM_TEXT[p.problem] });
    }
  });

const templateName = z.string().trim().min(1, FORM_MESSAGES.nameRequired).max(FORM_LIMITS.nameMax);
const editorIds = z.array(id).max(FORM_LIMITS.editors);

export const createTemplateInput = z.object({ ...inCompany, name: templateName, fields: templateFieldsSchema, editorIds: editorIds.default([]), isPrivate: z.boolean().default(false) });
export const updateTemplateInput = z.object({ ...inCompany, templateId: id, name: templateName.optional(), fields: templateFieldsSchema.optional(), editorIds: editorIds.optional() });
export const templateInput = z.object({ ...inCompany, templateId: id });
export const setPrivateInput = z.object({ ...inCompany, templateId: id, isPrivate: z.boolean() });
export const nameFreeInput = z.object({ ...inCompany, name: templateName, templateId: id.optional() });
export const formsCompanyInput = z.object(inCompany);
export const setMemberFormsInput = z.object({ ...inCompany, userId: id, all: z.boolean(), templateIds: z.array(id).max(1000).default([]) });

// ---- filled forms ------------------------------------------------------------------------------

/**
 * An answer as the client sends it. Files are never sent here: they are uploaded
 * (PUT /uploads/form/:formId/:fieldId) and the server sets the answer itself.
 */
export const formValueInput = z.union([
  z.string().max(FORM_LIMITS.defaultValueMax),
  z.number().finite(),
  z.boolean(),
  z.array(z.string().max(FORM_LIMITS.optionMax)).max(FORM_LIMITS.options),
  z.null(),
]);
export const formValuesInput = z.record(fieldIdSchema, formValueInput).refine((v) => Object.keys(v).length <= FORM_LIMITS.fields, 'Too many answers');

export const startFormInput = z.object({ ...inCompany, conversationId: id, templateId: id, forCustomer: z.boolean().default(false) });
export const conversationFormsInput = z.object({ ...inCompany, conversationId: id });
export const formInput = z.object({ ...inCompany, formId: id });
export const saveFormInput = z.object({ ...inCompany, formId: id, values: formValuesInput });
export const fileLinkInput = z.object({ ...inCompany, formId: id, fieldId: fieldIdSchema, download: z.boolean().optional() });
export const exportInput = z.object({ ...inCompany, templateId: id, lang: z.enum(LOCALES).optional() });

/** The customer's side: no company in the input; the caller's participation in the form's conversation decides. */
export const customerFormInput = z.object({ formId: id });
export const customerSaveFormInput = z.object({ formId: id, values: formValuesInput });
export const customerFileLinkInput = z.object({ formId: id, fieldId: fieldIdSchema, download: z.boolean().optional() });

/** PUT /uploads/form/:formId/:fieldId?name=... — the file's name; the body is the file. */
export const formUploadQuery = z.object({ name: z.string().trim().min(1).max(255) });
