/**
 * Forms procedures (inputs in shared/schemas/forms.ts). Everything on the member side is behind
 * the plan flag `forms` (declared in meta; the member level enforces it).
 *
 * Templates (members; what one may do follows shared/domain/forms-access.ts)
 *   forms.templates      q  {} -> TemplateSummary[] (newest first; each with the caller's rights)
 *   forms.usable         q  {} -> [{id, name, version}]  the ones the caller may fill (formsMembro)
 *   forms.template       q  {templateId} -> summary + fields  (refusals: deleted / made private, the spec's texts)
 *   forms.nameFree       q  {name, templateId?} -> {free}
 *   forms.create         m  {name, fields, editorIds?, isPrivate?}
 *   forms.update         m  {templateId, name?, fields?, editorIds?}  (a used version is kept: the change is the next version)
 *   forms.setPrivate     m  {templateId, isPrivate}  (creator only)
 *   forms.delete         m  {templateId}  (creator or admin)
 *   forms.exportCsv      q  {templateId, lang?} -> {fileName, csv, count}  (admins and editors)
 *   forms.memberForms    q  {} -> [{userId, name, isAdmin, all, templateIds}]  (admins: formsMembro)
 *   forms.setMemberForms m  {userId, all, templateIds}  (admins)
 * Filling (members who take part in the conversation)
 *   forms.start          m  {conversationId, templateId, forCustomer?} -> {formId}
 *   forms.conversationForms q {conversationId} -> forms of the conversation, newest first
 *   forms.form           q  {formId} -> FormView
 *   forms.saveDraft      m  {formId, values} -> {saved, problems}
 *   forms.submit         m  {formId, values} -> {formId, messageId, seq}  (refusal: data.fieldErrors per field)
 *   forms.discard        m  {formId}
 *   forms.fileLink       q  {formId, fieldId, download?} -> {url, name, mime, expiresAt}
 *   forms.removeFile     m  {formId, fieldId}
 * The customer side (formsCustomer.*: no company in the input; a participant of the form's
 * conversation, forms sent to the customer): form, saveDraft, submit, fileLink, removeFile.
 * HTTP: PUT /uploads/form/:formId/:fieldId?name= (a file answer), GET /forms/:formId/pdf?lang=&tz=
 *
 * Socket events: forms:changed {domain, templateId} (listings refetch), forms:lost {domain,
 * templateId, reason: private|deleted} (whoever has it open: the spec's dialog, then /i/recent),
 * forms:form {formId, conversationId, status} (open copies of a filled form refetch).
 */
import {
  conversationFormsInput,
  createTemplateInput,
  customerFileLinkInput,
  customerFormInput,
  customerSaveFormInput,
  exportInput,
  fileLinkInput,
  formInput,
  formsCompanyInput,
  nameFreeInput,
  saveFormInput,
  setMemberFormsInput,
  setPrivateInput,
  startFormInput,
  templateInput,
  updateTemplateInput,
} from '../../../shared/schemas/forms';
import { adminProcedure, authedProcedure, participantProcedure, memberProcedure, router } from '../../trpc';
import { exportCsv } from './export';
import * as filling from './filling';
import * as templates from './templates';

const forms = memberProcedure.meta({ plan: 'forms' });
const formsAdmin = adminProcedure.meta({ plan: 'forms' });
const member = filling.memberActor;
const customer = filling.customerActor;

export const formsRouter = router({
  templates: forms.input(formsCompanyInput).query(({ ctx }) => templates.listTemplates(ctx)),
  usable: forms.input(formsCompanyInput).query(({ ctx }) => templates.usableTemplates(ctx)),
  template: forms.input(templateInput).query(({ ctx, input }) => templates.getTemplate(ctx, input.templateId)),
  nameFree: forms.input(nameFreeInput).query(({ ctx, input }) => templates.nameFree(ctx, input.name, input.templateId)),
  create: forms.input(createTemplateInput).mutation(({ ctx, input }) => templates.createTemplate(ctx, input)),
  update: forms.input(updateTemplateInput).mutation(({ ctx, input }) => templates.updateTemplate(ctx, input)),
  setPrivate: forms.input(setPrivateInput).mutation(({ ctx, input }) => templates.setPrivate(ctx, input.templateId, input.isPrivate)),
  delete: forms.input(templateInput).mutation(({ ctx, input }) => templates.deleteTemplate(ctx, input.templateId)),
  exportCsv: forms.input(exportInput).query(({ ctx, input }) => exportCsv(ctx, input.templateId, input.lang)),
  memberForms: formsAdmin.input(formsCompanyInput).query(({ ctx }) => templates.listMemberForms(ctx)),
  setMemberForms: formsAdmin.input(setMemberFormsInput).mutation(({ ctx, input }) => templates.setMemberForms(ctx, input)),

  start: forms.input(startFormInput).mutation(({ ctx, input }) => filling.startForm(ctx, input)),
  conversationForms: forms.input(conversationFormsInput).query(({ ctx, input }) => filling.conversationForms(ctx, input.conversationId)),
  form: forms.input(formInput).query(({ ctx, input }) => filling.getForm(ctx, member(ctx), input.formId)),
  saveDraft: forms.input(saveFormInput).mutation(({ ctx, input }) => filling.saveDraft(ctx, member(ctx), input.formId, input.values)),
  submit: forms.input(saveFormInput).mutation(({ ctx, input }) => filling.submitForm(ctx, member(ctx), input.formId, input.values)),
  discard: forms.input(formInput).mutation(({ ctx, input }) => filling.discardForm(ctx, input.formId)),
  fileLink: forms.input(fileLinkInput).query(({ ctx, input }) => filling.fileLink(ctx, member(ctx), input.formId, input.fieldId, input.download)),
  removeFile: forms.input(fileLinkInput).mutation(({ ctx, input }) => filling.removeFile(ctx, member(ctx), input.formId, input.fieldId)),
});

/** The customer side: whoever takes part in the form's conversation (anonymous visitors included). */
export const formsCustomerRouter = router({
  form: participantProcedure.input(customerFormInput).query(({ ctx, input }) => filling.getForm(ctx, customer(ctx.user), input.formId)),
  saveDraft: participantProcedure.input(customerSaveFormInput).mutation(({ ctx, input }) => filling.saveDraft(ctx, customer(ctx.user), input.formId, input.values)),
  submit: participantProcedure.input(customerSaveFormInput).mutation(({ ctx, input }) => filling.submitForm(ctx, customer(ctx.user), input.formId, input.values)),
  fileLink: participantProcedure.input(customerFileLinkInput).query(({ ctx, input }) => filling.fileLink(ctx, customer(ctx.user), input.formId, input.fieldId, input.download)),
  removeFile: participantProcedure.input(customerFileLinkInput).mutation(({ ctx, input }) => filling.removeFile(ctx, customer(ctx.user), input.formId, input.fieldId)),
});
