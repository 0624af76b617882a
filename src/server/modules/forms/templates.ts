/**
 * Form templates: the company's listing (newest first, live), the builder's reads and writes,
 * versions, privacy, deletion, and which templates each member may use (formsMembro).
 */
import type { z } from 'zod';
import type { FormTemplate } from '../../../generated/prisma/client';
import { formNameKey, type FormField } from '../../../shared/domain/forms';
import { planSave } from '../../../shared/domain/forms-versions';
import { FORM_MESSAGES as M, type createTemplateInput, type setMemberFormsInput, type updateTemplateInput } from '../../../shared/schemas/forms';
import type { Prisma } from '../../db/client';
import { fail, fieldsOf, memberFormsOf, rightsOf, visibleTemplate, type FormsContext } from './context';
import { pushTemplateChanged, pushTemplateLost } from './events';

const isUniqueViolation = (err: unknown) => (err as { code?: string }).code === 'P2002';

/** Editors must be active members of the company; the creator is an editor anyway. */
async function checkEditors(ctx: FormsContext, editorIds: string[], creatorId: string | null): Promise<string[]> {
  const wanted = [...new Set(editorIds)].filter((id) => id !== creatorId);
  if (wanted.length === 0) return [];
  const found = await ctx.db.member.count({ where: { companyId: ctx.company.id, userId: { in: wanted }, inviteAccepted: true, blocked: false, removed: false } });
  if (found !== wanted.length) throw fail('BAD_REQUEST', M.editorsMembers);
  return wanted;
}

async function creatorNames(ctx: FormsContext, ids: (string | null)[]) {
  const wanted = [...new Set(ids.filter((id): id is string => !!id))];
  const users = await ctx.db.user.findMany({ where: { id: { in: wanted } }, select: { id: true, name: true } });
  return new Map(users.map((u) => [u.id, u.name]));
}

function describe(ctx: FormsContext, t: FormTemplate, names: Map<string, string>, forms: Awaited<ReturnType<typeof memberFormsOf>>, submissions: number) {
  return {
    id: t.id,
    name: t.name,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
    creatorId: t.creatorId,
    creatorName: (t.creatorId && names.get(t.creatorId)) ?? null,
    editorIds: t.editorIds,
    // Who else may edit it (templateEditableFor), by name, for the listing and the builder.
    editorNames: t.editorIds.map((id) => names.get(id)).filter((n): n is string => !!n),
    mayChangeEditors: t.creatorId === ctx.user.id || ctx.member.isAdmin,
    isPrivate: t.isPrivate,
    version: t.version,
    submissions,
    rights: rightsOf(ctx, t, forms),
  };
}
export type TemplateSummary = ReturnType<typeof describe>;

/** /i/settings/forms: the templates the caller may see, newest first. */
export async function listTemplates(ctx: FormsContext) {
  const [rows, forms] = await Promise.all([
    ctx.db.formTemplate.findMany({
      where: { companyId: ctx.company.id, deletedAt: null, OR: [{ isPrivate: false }, { creatorId: ctx.user.id }] },
      orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
      include: { _count: { select: { forms: { where: { status: 'submitted', conversationId: { not: null } } } } } },
    }),
    memberFormsOf(ctx.db, ctx.company.id, ctx.user.id),
  ]);
  const names = await creatorNames(ctx, rows.flatMap((r) => [r.creatorId, ...r.editorIds]));
  return rows.map((r) => describe(ctx, r, names, forms, r._count.forms));
}

/** The templates the caller may fill in a conversation (visible, and allowed by their formsMembro). */
export async function usableTemplates(ctx: FormsContext) {
  return (await listTemplates(ctx)).filter((t) => t.rights.use).map((t) => ({ id: t.id, name: t.name, version: t.version }));
}

/** The builder: a template with its current fields. */
export async function getTemplate(ctx: FormsContext, templateId: string) {
  const { template } = await visibleTemplate(ctx, templateId);
  const [current, names, forms, submissions] = await Promise.all([
    ctx.db.formTemplateVersion.findUniqueOrThrow({ where: { templateId_version: { templateId, version: template.version } } }),
    creatorNames(ctx, [template.creatorId, ...template.editorIds]),
    memberFormsOf(ctx.db, ctx.company.id, ctx.user.id),
    ctx.db.filledForm.count({ where: { templateId, status: 'submitted', conversationId: { not: null } } }),
  ]);
  return { ...describe(ctx, template, names, forms, submissions), fields: fieldsOf(current.fields) };
}

/** Is a name free for this template (the same name is allowed only for the same form)? */
export async function nameFree(ctx: FormsContext, name: string, templateId?: string) {
  const other = await ctx.db.formTemplate.findFirst({ where: { companyId: ctx.company.id, nameKey: formNameKey(name), ...(templateId && { NOT: { id: templateId } }) }, select: { id: true } });
  return { free: !other };
}

export async function createTemplate(ctx: FormsContext, input: z.output<typeof createTemplateInput>) {
  const editorIds = await checkEditors(ctx, input.editorIds, ctx.user.id);
  const now = ctx.clock.now();
  let created: FormTemplate;
  try {
    created = await ctx.db.formTemplate.create({
      data: {
        companyId: ctx.company.id,
        name: input.name,
        nameKey: formNameKey(input.name),
        creatorId: ctx.user.id,
        editorIds,
        isPrivate: input.isPrivate,
        createdAt: now,
        updatedAt: now,
        versions: { create: { version: 1, name: input.name, fields: input.fields as unknown as Prisma.InputJsonValue, createdAt: now } },
      },
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw fail('CONFLICT', M.nameTaken);
    throw err;
  }
  await pushTemplateChanged(ctx, ctx.company, created.id);
  return getTemplate(ctx, created.id);
}

/**
 * Saves the builder's changes. A change to what a filled form shows (name or fields) rewrites the
 * current version while no form used it, and makes the next version once one did; the forms
 * already filled keep pointing at theirs. Editors are changed by the creator and admins only.
 */
export async function updateTemplate(ctx: FormsContext, input: z.output<typeof updateTemplateInput>) {
  const { template, rights } = await visibleTemplate(ctx, input.templateId);
  if (!rights.edit) throw fail('FORBIDDEN', M.notEditor);
  let editorIds = template.editorIds;
  if (input.editorIds !== undefined && !sameSet(input.editorIds.filter((id) => id !== template.creatorId), template.editorIds)) {
    if (template.creatorId !== ctx.user.id && !ctx.member.isAdmin) throw fail('FORBIDDEN', M.notEditorsChange);
    editorIds = await checkEditors(ctx, input.editorIds, template.creatorId);
  }
  const now = ctx.clock.now();
  try {
    await ctx.db.$transaction(async (tx) => {
      // Two editors saving at once take turns: each plans its version from what the other saved.
      const [locked] = await tx.$queryRaw<{ version: number; deletedAt: Date | null }[]>`
        SELECT "version", "deletedAt" FROM "FormTemplate" WHERE "id" = ${template.id}::uuid FOR UPDATE`;
      if (!locked || locked.deletedAt) throw fail('NOT_FOUND', M.deleted);
      const current = await tx.formTemplateVersion.findUniqueOrThrow({ where: { templateId_version: { templateId: template.id, version: locked.version } } });
      const used = (await tx.filledForm.count({ where: { versionId: current.id } })) > 0;
      const name = input.name ?? current.name;
      const fields: FormField[] = input.fields ?? fieldsOf(current.fields);
      const plan = planSave({ version: current.version, name: current.name, fields: fieldsOf(current.fields), used }, { name, fields });
      const json = fields as unknown as Prisma.InputJsonValue;
      if (plan.kind === 'rewrite') await tx.formTemplateVersion.update({ where: { id: current.id }, data: { name, fields: json } });
      if (plan.kind === 'newVersion') await tx.formTemplateVersion.create({ data: { templateId: template.id, version: plan.version, name, fields: json, createdAt: now } });
      await tx.formTemplate.update({
        where: { id: template.id },
        data: { name, nameKey: formNameKey(name), editorIds, version: plan.version, updatedAt: now },
      });
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw fail('CONFLICT', M.nameTaken);
    throw err;
  }
  await pushTemplateChanged(ctx, ctx.company, template.id);
  return getTemplate(ctx, template.id);
}

const sameSet = (a: readonly string[], b: readonly string[]) => {
  const x = new Set(a);
  const y = new Set(b);
  return x.size === y.size && [...x].every((v) => y.has(v));
};

/** The creator makes a template private (others lose it at once) or public again. */
export async function setPrivate(ctx: FormsContext, templateId: string, isPrivate: boolean) {
  const { template, rights } = await visibleTemplate(ctx, templateId);
  if (!rights.changePrivacy) throw fail('FORBIDDEN', M.notCreator);
  if (template.isPrivate !== isPrivate) {
    await ctx.db.formTemplate.update({ where: { id: template.id }, data: { isPrivate, updatedAt: ctx.clock.now() } });
    if (isPrivate) await pushTemplateLost(ctx, ctx.company, template, 'private');
    else await pushTemplateChanged(ctx, ctx.company, template.id);
  }
  return { isPrivate };
}

/**
 * Deletes a template for everyone (creator or admin). Its versions stay, so the forms filled with
 * it remain readable; forms still being filled with it can no longer be (a job removes them).
 * The name is free again.
 */
export async function deleteTemplate(ctx: FormsContext, templateId: string) {
  const { template, rights } = await visibleTemplate(ctx, templateId);
  if (!rights.remove) throw fail('FORBIDDEN', M.notRemover);
  const { count } = await ctx.db.formTemplate.updateMany({ where: { id: template.id, deletedAt: null }, data: { deletedAt: ctx.clock.now(), nameKey: null } });
  if (count) await pushTemplateLost(ctx, ctx.company, template, 'deleted');
  return { deleted: true };
}

// ---- formsMembro -------------------------------------------------------------------------------

/** Admins: every active member with the templates they may use (all, or the listed ones). */
export async function listMemberForms(ctx: FormsContext) {
  const [members, settings] = await Promise.all([
    ctx.db.member.findMany({
      where: { companyId: ctx.company.id, inviteAccepted: true, blocked: false, removed: false },
      select: { userId: true, isAdmin: true, user: { select: { name: true } } },
      orderBy: [{ user: { name: 'asc' } }, { id: 'asc' }],
    }),
    ctx.db.memberForms.findMany({ where: { companyId: ctx.company.id } }),
  ]);
  const byUser = new Map(settings.map((s) => [s.userId, s]));
  return members.map((m) => {
    const s = byUser.get(m.userId);
    return { userId: m.userId, name: m.user.name, isAdmin: m.isAdmin, all: m.isAdmin || !s || s.allForms, templateIds: s && !s.allForms ? s.templateIds : [] };
  });
}

/** Admins choose which templates a member may use. Ids of other companies' templates are ignored. */
export async function setMemberForms(ctx: FormsContext, input: z.output<typeof setMemberFormsInput>) {
  const member = await ctx.db.member.findFirst({ where: { companyId: ctx.company.id, userId: input.userId } });
  if (!member) throw fail('NOT_FOUND', M.memberNotFound);
  const known = input.all
    ? []
    : (await ctx.db.formTemplate.findMany({ where: { companyId: ctx.company.id, id: { in: input.templateIds }, deletedAt: null }, select: { id: true } })).map((t) => t.id);
  const data = { allForms: input.all, templateIds: known, updatedAt: ctx.clock.now() };
  await ctx.db.memberForms.upsert({
    where: { companyId_userId: { companyId: ctx.company.id, userId: input.userId } },
    create: { companyId: ctx.company.id, userId: input.userId, ...data },
    update: data,
  });
  // The member's form pickers refetch.
  ctx.realtime.toUser(input.userId, 'forms:changed', { domain: ctx.company.domain, templateId: '' });
  return { userId: input.userId, all: input.all, templateIds: known };
}
