/**
 * Filling forms inside conversations. An attendant opens a form from a conversation and fills it,
 * or sends it to the customer side (anonymous visitors included) to fill there; drafts are kept;
 * submitting posts a 'formulario' message that shows and opens the form.
 *
 * Two sides reach the same rules through an Actor: `member` (an attendant through the member
 * procedures: the company is the input's) and `customer` (anyone through the customer procedures:
 * only a participant of the form's conversation, only forms sent to the customer side).
 */
import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import type { FilledForm, FormTemplate, FormTemplateVersion, Member, Company } from '../../../generated/prisma/client';
import { CONVERSATION_STATE } from '../../../shared/constants';
import { companyBlocksWork, memberMayWork } from '../../../shared/domain/company';
import { requirePlan } from '../company/plan';
import {
  answerText,
  checkFormValues,
  FILE_FIELD_TYPES,
  filesOf,
  initialValues,
  isFileValue,
  type FormField,
  type FormFieldError,
  type FormMessageData,
  type FormValue,
  type FormValues,
} from '../../../shared/domain/forms';
import { CHAT_MESSAGES } from '../../../shared/schemas/chat';
import { FORM_MESSAGES as M, type startFormInput } from '../../../shared/schemas/forms';
import type { Prisma } from '../../db/client';
import { appendMessage, conversationForCall, emitMessage, isActiveParticipant, refundConversationFile } from '../chat/service';
import { fail, fieldsOf, memberFormsOf, rightsOf, templateRefusal, visibleTemplate, type FormsContext, type FormsDeps } from './context';
import { pushFormChanged } from './events';

/** Who acts on a filled form, and from which side. */
export interface Actor {
  userId: string;
  userName: string;
  side: 'member' | 'customer';
  /** member side: the caller's membership and company (from the member procedure). */
  member?: Member;
  company?: Company;
}

export const memberActor = (ctx: FormsContext): Actor => ({ userId: ctx.user.id, userName: ctx.user.name, side: 'member', member: ctx.member, company: ctx.company });
export const customerActor = (user: { id: string; name: string }): Actor => ({ userId: user.id, userName: user.name, side: 'customer' });

const WRITE_TX = { maxWait: 10_000, timeout: 20_000 } as const;

export type LoadedForm = FilledForm & { template: FormTemplate & { company: Company }; version: FormTemplateVersion; conversation: { protocol: string; state: number } | null };

/** A filled form still in its conversation; a member only finds their own company's. */
export async function loadForm(deps: FormsDeps, actor: Actor, formId: string): Promise<LoadedForm> {
  const form = await deps.db.filledForm.findFirst({
    where: { id: formId, conversationId: { not: null }, ...(actor.company && { companyId: actor.company.id }) },
    include: { template: { include: { company: true } }, version: true, conversation: { select: { protocol: true, state: true } } },
  });
  if (!form) throw fail('NOT_FOUND', M.formNotFound);
  return form;
}

/**
 * May the actor read this form? A participant of its conversation; a customer only forms sent to
 * the customer side (attendants' forms are internal, like comments). A form not submitted yet
 * follows its template: deleted or made private, it is gone for everyone but a private one's creator.
 */
export async function assertReader(deps: FormsDeps, actor: Actor, form: LoadedForm) {
  if (actor.side === 'customer' && form.filler !== 'customer') throw fail('NOT_FOUND', M.formNotFound);
  if (!(await isActiveParticipant(deps.db, form.conversationId!, actor.userId))) throw fail('FORBIDDEN', CHAT_MESSAGES.notParticipant);
  if (form.status !== 'submitted') {
    const refusal = templateRefusal(form.template, actor.userId);
    if (refusal) throw refusal;
  }
  // The member procedures check the plan too; plain HTTP routes and the customer side rely on this.
  requirePlan(form.template.company, 'forms');
}

/** May the actor change this form's answers now? Readers who fill it from its side, while it is a draft. */
export async function assertFiller(deps: FormsDeps, actor: Actor, form: LoadedForm) {
  await assertReader(deps, actor, form);
  if (form.status !== 'draft') throw fail('CONFLICT', M.alreadySubmitted);
  const company = form.template.company;
  if (actor.side === 'member') {
    if (form.filler !== 'member') throw fail('FORBIDDEN', M.notYours);
    if (!memberMayWork(company, actor.member!)) throw fail('FORBIDDEN', CHAT_MESSAGES.blocked);
    const forms = await memberFormsOf(deps.db, company.id, actor.userId);
    const rights = rightsOf({ ...deps, company, member: actor.member!, user: { id: actor.userId, name: actor.userName } }, form.template, forms);
    if (!rights.use) throw fail('FORBIDDEN', M.notAllowedToUse);
    return;
  }
  // The company's own attendants fill from their side, never as the customer.
  const member = await deps.db.member.count({ where: { companyId: company.id, userId: actor.userId, inviteAccepted: true, blocked: false, removed: false } });
  if (member > 0) throw fail('FORBIDDEN', M.notYours);
  if (companyBlocksWork(company)) throw fail('FORBIDDEN', CHAT_MESSAGES.blocked);
  if (form.conversation?.state === CONVERSATION_STATE.concluded) throw fail('BAD_REQUEST', 'This service is concluded: start a new one');
}

/** A stored file answer as clients see it: no storage key. */
const publicValue = (v: FormValue | undefined) => (isFileValue(v) ? { name: v.name, size: v.size, mime: v.mime } : (v ?? null));

/** A form as the fill, read and print screens show it. */
export async function describeForm(deps: FormsDeps, actor: Actor, form: LoadedForm) {
  const values = form.values as FormValues;
  let canFill = false;
  try {
    await assertFiller(deps, actor, form);
    canFill = true;
  } catch {
    canFill = false;
  }
  return {
    id: form.id,
    status: form.status as 'draft' | 'submitted',
    filler: form.filler as 'member' | 'customer',
    conversationId: form.conversationId!,
    protocol: form.conversation?.protocol ?? null,
    domain: form.template.company.domain,
    companyName: form.template.company.name,
    templateId: form.templateId,
    name: form.version.name,
    version: form.version.version,
    /** The template has a newer version than this form's (the form stays as it was filled). */
    outdated: form.template.version !== form.version.version,
    fields: fieldsOf(form.version.fields),
    values: Object.fromEntries(Object.entries(values).map(([k, v]) => [k, publicValue(v)])),
    createdAt: form.createdAt,
    updatedAt: form.updatedAt,
    submittedAt: form.submittedAt,
    submittedByName: form.submittedByName,
    canFill,
  };
}
export type FormView = Awaited<ReturnType<typeof describeForm>>;

export async function getForm(deps: FormsDeps, actor: Actor, formId: string) {
  const form = await loadForm(deps, actor, formId);
  await assertReader(deps, actor, form);
  return describeForm(deps, actor, form);
}

/**
 * The answers a save works with: what was given for fields the version has, except files (set by
 * uploads only) and read-only fields (the template's value).
 */
function mergeAnswers(fields: readonly FormField[], stored: FormValues, given: Record<string, FormValue>): Record<string, FormValue> {
  const merged: Record<string, FormValue> = {};
  for (const f of fields) {
    if (f.type === 'heading') continue;
    merged[f.id] = FILE_FIELD_TYPES.has(f.type) ? (stored[f.id] ?? null) : (given[f.id] ?? null);
  }
  return merged;
}

/** A refusal carrying each field's problem, as a validation error (data.fieldErrors) the client reads. */
function invalidAnswers(errors: Record<string, FormFieldError>) {
  const failed = z
    .object({})
    .superRefine((_v, zctx) => {
      // The first issue, without a path, is the sentence people read; the others are per field (codes).
      zctx.addIssue({ code: 'custom', path: [], message: M.invalidForm });
      for (const [field, error] of Object.entries(errors)) zctx.addIssue({ code: 'custom', path: [field], message: error });
    })
    .safeParse({});
  return new TRPCError({ code: 'BAD_REQUEST', message: M.invalidForm, cause: failed.error });
}

/**
 * Keeps what was typed so far (rascunho). A draft is not judged: answers that would not pass yet
 * are kept as typed and reported, so nothing is lost while someone is still writing.
 */
export async function saveDraft(deps: FormsDeps, actor: Actor, formId: string, given: Record<string, FormValue>) {
  const form = await loadForm(deps, actor, formId);
  await assertFiller(deps, actor, form);
  const fields = fieldsOf(form.version.fields);
  const merged = mergeAnswers(fields, form.values as FormValues, given);
  const checked = checkFormValues(fields, merged, 'draft');
  const values = checked.ok ? checked.values : { ...merged, ...Object.fromEntries(fields.filter((f) => f.readOnly).map((f) => [f.id, f.defaultValue || null])) };
  const { count } = await deps.db.filledForm.updateMany({
    where: { id: form.id, status: 'draft' },
    data: { values: values as Prisma.InputJsonValue, updatedAt: deps.clock.now() },
  });
  if (count === 0) throw fail('CONFLICT', M.alreadySubmitted);
  await pushFormChanged(deps, form, 'draft');
  return { saved: true, problems: checked.ok ? {} : checked.errors };
}

/** Up to three answers for the message card: short, textual ones. */
function preview(fields: readonly FormField[], values: FormValues): FormMessageData['preview'] {
  const out: { label: string; text: string }[] = [];
  for (const f of fields) {
    if (out.length >= 3) break;
    if (f.type === 'heading' || f.type === 'checkbox' || f.type === 'longText' || FILE_FIELD_TYPES.has(f.type)) continue;
    const text = answerText(f, values[f.id], { yes: '', no: '' });
    if (text) out.push({ label: f.label.slice(0, 80), text: text.slice(0, 120) });
  }
  return out;
}

/**
 * Submits the form: every rule of its version must pass. In one transaction the form becomes
 * submitted and a 'formulario' message is appended to the conversation (internal, like a comment,
 * when an attendant filled it; for everyone when the customer did). A form is submitted once.
 */
export async function submitForm(deps: FormsDeps, actor: Actor, formId: string, given: Record<string, FormValue>) {
  const form = await loadForm(deps, actor, formId);
  await assertFiller(deps, actor, form);
  const fields = fieldsOf(form.version.fields);
  const checked = checkFormValues(fields, mergeAnswers(fields, form.values as FormValues, given), 'submit');
  if (!checked.ok) throw invalidAnswers(checked.errors);
  const now = deps.clock.now();
  const data: FormMessageData = {
    formId: form.id,
    templateId: form.templateId,
    name: form.version.name,
    version: form.version.version,
    state: 'submitted',
    filler: form.filler as 'member' | 'customer',
    preview: preview(fields, checked.values),
  };
  const appended = await deps.db.$transaction(async (tx) => {
    const { count } = await tx.filledForm.updateMany({
      where: { id: form.id, status: 'draft' },
      data: { status: 'submitted', values: checked.values as Prisma.InputJsonValue, submittedById: actor.userId, submittedByName: actor.userName, submittedAt: now, updatedAt: now },
    });
    if (count === 0) throw fail('CONFLICT', M.alreadySubmitted);
    const done = await appendMessage(
      tx,
      form.template.company.domain,
      {
        conversationId: form.conversationId!,
        authorId: actor.userId,
        clientId: `form:${form.id}:submitted`,
        type: 'formulario',
        text: form.version.name,
        isComment: form.filler === 'member',
        data: data as unknown as Prisma.InputJsonValue,
      },
      now,
    );
    await tx.filledForm.update({ where: { id: form.id }, data: { messageId: done.message.id } });
    return done;
  }, WRITE_TX);
  emitMessage(deps.realtime, appended);
  await pushFormChanged(deps, form, 'submitted');
  return { formId: form.id, messageId: appended.message.id, seq: appended.message.seq };
}

// ---- the member side only ----------------------------------------------------------------------

/**
 * Opens a form of a template in a conversation the attendant takes part in. `forCustomer` sends it
 * to the customer side: a 'formulario' message asks them to fill it (only someone in the
 * conversation who is not a member of the company can).
 */
export async function startForm(ctx: FormsContext, input: z.output<typeof startFormInput>) {
  if (!memberMayWork(ctx.company, ctx.member)) throw fail('FORBIDDEN', CHAT_MESSAGES.blocked);
  const conversation = await conversationForCall(ctx.db, ctx.company.id, input.conversationId);
  if (!conversation) throw fail('NOT_FOUND', CHAT_MESSAGES.notFound);
  if (!conversation.participants.some((p) => p.userId === ctx.user.id)) throw fail('FORBIDDEN', CHAT_MESSAGES.notParticipant);
  const { template, rights } = await visibleTemplate(ctx, input.templateId);
  if (!rights.use) throw fail('FORBIDDEN', M.notAllowedToUse);
  if (input.forCustomer) {
    const others = conversation.participants.map((p) => p.userId).filter((id) => id !== ctx.user.id);
    const members = await ctx.db.member.count({ where: { companyId: ctx.company.id, userId: { in: others }, inviteAccepted: true, blocked: false, removed: false } });
    if (members === others.length) throw fail('BAD_REQUEST', M.noCustomer);
  }
  const version = await ctx.db.formTemplateVersion.findUniqueOrThrow({ where: { templateId_version: { templateId: template.id, version: template.version } } });
  const now = ctx.clock.now();
  const result = await ctx.db.$transaction(async (tx) => {
    const form = await tx.filledForm.create({
      data: {
        companyId: ctx.company.id,
        templateId: template.id,
        versionId: version.id,
        conversationId: conversation.id,
        filler: input.forCustomer ? 'customer' : 'member',
        values: initialValues(fieldsOf(version.fields)) as Prisma.InputJsonValue,
        startedById: ctx.user.id,
        createdAt: now,
        updatedAt: now,
      },
    });
    if (!input.forCustomer) return { form, appended: null };
    const data: FormMessageData = { formId: form.id, templateId: template.id, name: version.name, version: version.version, state: 'requested', filler: 'customer' };
    const appended = await appendMessage(
      tx,
      ctx.company.domain,
      { conversationId: conversation.id, authorId: ctx.user.id, clientId: `form:${form.id}:requested`, type: 'formulario', text: version.name, data: data as unknown as Prisma.InputJsonValue },
      now,
    );
    return { form, appended };
  }, WRITE_TX);
  if (result.appended) emitMessage(ctx.realtime, result.appended);
  await pushFormChanged(ctx, result.form, 'draft');
  return { formId: result.form.id };
}

/** The forms of a conversation, newest first, for its participants among the members. */
export async function conversationForms(ctx: FormsContext, conversationId: string) {
  const conversation = await conversationForCall(ctx.db, ctx.company.id, conversationId);
  if (!conversation) throw fail('NOT_FOUND', CHAT_MESSAGES.notFound);
  if (!conversation.participants.some((p) => p.userId === ctx.user.id)) throw fail('FORBIDDEN', CHAT_MESSAGES.notParticipant);
  const rows = await ctx.db.filledForm.findMany({
    where: { conversationId, companyId: ctx.company.id },
    orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
    include: { version: { select: { name: true, version: true } }, template: { select: { deletedAt: true, isPrivate: true, creatorId: true } } },
  });
  return rows
    .filter((r) => r.status === 'submitted' || !templateRefusal(r.template, ctx.user.id))
    .map((r) => ({
      id: r.id,
      name: r.version.name,
      version: r.version.version,
      status: r.status as 'draft' | 'submitted',
      filler: r.filler as 'member' | 'customer',
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
      submittedAt: r.submittedAt,
      submittedByName: r.submittedByName,
    }));
}

/**
 * Withdraws a form not submitted yet (a draft, or one waiting for the customer): the row goes, its
 * files are deleted and their bytes given back. Any attendant of the conversation may.
 */
export async function discardForm(ctx: FormsContext, formId: string) {
  const actor = memberActor(ctx);
  const form = await loadForm(ctx, actor, formId);
  if (!(await isActiveParticipant(ctx.db, form.conversationId!, ctx.user.id))) throw fail('FORBIDDEN', CHAT_MESSAGES.notParticipant);
  if (form.status !== 'draft') throw fail('BAD_REQUEST', M.notDraft);
  const files = await ctx.db.$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<{ status: string; values: unknown }[]>`
      SELECT "status", "values" FROM "FilledForm" WHERE "id" = ${form.id}::uuid FOR UPDATE`;
    if (!row || row.status !== 'draft') throw fail('BAD_REQUEST', M.notDraft);
    const stored = filesOf((row.values ?? {}) as Record<string, unknown>);
    const bytes = stored.reduce((n, f) => n + f.size, 0);
    if (bytes) await refundConversationFile(tx, form.conversationId!, bytes);
    await tx.filledForm.delete({ where: { id: form.id } });
    return stored;
  }, WRITE_TX);
  await Promise.all(files.map((f) => ctx.storage.delete(f.key).catch(() => undefined)));
  await pushFormChanged(ctx, form, 'discarded');
  return { discarded: true };
}

// ---- files ------------------------------------------------------------------------------------

/** A short-lived link to a file answer, for whoever may read the form. */
export async function fileLink(deps: FormsDeps, actor: Actor, formId: string, fieldId: string, download = false) {
  const form = await loadForm(deps, actor, formId);
  await assertReader(deps, actor, form);
  const value = (form.values as FormValues)[fieldId];
  if (!isFileValue(value)) throw fail('NOT_FOUND', CHAT_MESSAGES.fileNotFound);
  const seconds = 300;
  const url = await deps.storage.presignGet(value.key, seconds, download ? { downloadName: value.name } : undefined);
  return { url, name: value.name, mime: value.mime, expiresAt: new Date(deps.clock.now().getTime() + seconds * 1000) };
}

/** Clears a file answer of a draft: the object is deleted and its bytes given back. */
export async function removeFile(deps: FormsDeps, actor: Actor, formId: string, fieldId: string) {
  const form = await loadForm(deps, actor, formId);
  await assertFiller(deps, actor, form);
  const removed = await deps.db.$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<{ status: string; values: Record<string, FormValue> }[]>`
      SELECT "status", "values" FROM "FilledForm" WHERE "id" = ${form.id}::uuid FOR UPDATE`;
    if (!row || row.status !== 'draft') throw fail('CONFLICT', M.alreadySubmitted);
    const old = row.values[fieldId];
    if (!isFileValue(old)) return null;
    await refundConversationFile(tx, form.conversationId!, old.size);
    await tx.filledForm.update({ where: { id: form.id }, data: { values: { ...row.values, [fieldId]: null } as Prisma.InputJsonValue, updatedAt: deps.clock.now() } });
    return old;
  }, WRITE_TX);
  if (removed) await deps.storage.delete(removed.key).catch(() => undefined);
  await pushFormChanged(deps, form, 'draft');
  return { removed: !!removed };
}
