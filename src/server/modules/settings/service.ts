import { TRPCError } from '@trpc/server';
import type { z } from 'zod';
import type { AdditionalField } from '../../../generated/prisma/client';
import { COMPANY_DEFAULTS, isContentLanguage } from '../../../shared/domain/company-defaults';
import { allowsCallRecording, cleanSocialNetworks, companyBlocksWork, storagePlanGb } from '../../../shared/domain/company';
import { defaultContactUs, type ContactUsSettings } from '../../../shared/domain/contact-us';
import { COMPANY_MESSAGES as M, type contactUsInput, type publicPageInput } from '../../../shared/schemas/company';
import type { createAdditionalFieldInput, updateAdditionalFieldInput } from '../../../shared/schemas/profiles';
import { widgetSettingsOf, type WidgetSettings } from '../../../shared/domain/widget';
import type { widgetSettingsInput } from '../../../shared/schemas/widget';
import { lockCompanyNames, nameTaken, type CompanyContext } from '../company/service';

// ---- public page, greeting, account -----------------------------------------------------------

export async function updatePublicPage({ db, company }: CompanyContext, input: z.infer<typeof publicPageInput>) {
  const updated = await db.$transaction(async (tx) => {
    // Same lock as registration: a rename and a new company cannot both take one name.
    await lockCompanyNames(tx);
    if (await nameTaken(tx, input.name, company.id)) throw new TRPCError({ code: 'CONFLICT', message: M.nameUnavailable });
    return tx.company.update({
      where: { id: company.id },
      data: {
        name: input.name,
        bio: input.bio,
        website: input.website?.trim() || null,
        socialNetworks: cleanSocialNetworks(input.socialNetworks),
      },
    });
  });
  return { name: updated.name, bio: updated.bio, website: updated.website, socialNetworks: updated.socialNetworks as Record<string, string> };
}

const settingsOf = (c: CompanyContext['company']) => (c.settings ?? {}) as Record<string, unknown>;

/** The starting texts in the language the company was created in (the spec's Portuguese for companies older than that). */
function contentDefaultsOf(company: CompanyContext['company']) {
  const language = settingsOf(company).language;
  return isContentLanguage(language) ? COMPANY_DEFAULTS[language] : COMPANY_DEFAULTS.pt;
}

export function readGreeting({ company }: CompanyContext) {
  const greeting = settingsOf(company).greeting;
  return { greeting: typeof greeting === 'string' && greeting ? greeting : contentDefaultsOf(company).greeting };
}

/** configuracoes.msgSaudacao; other settings keys are kept. */
export async function updateGreeting({ db, company }: CompanyContext, greeting: string) {
  // Read-modify-write of one JSON key: merge in SQL so a concurrent change to another key survives.
  await db.$executeRaw`UPDATE "Company" SET settings = settings || jsonb_build_object('greeting', ${greeting}::text), "updatedAt" = now() WHERE id = ${company.id}::uuid`;
  return { greeting };
}

export function readCallSettings({ company }: CompanyContext) {
  return { allowCallRecording: allowsCallRecording(company.settings) };
}

/** configuracoes.allowCallRecording: calls started afterwards get canRec from it, and recording checks it. */
export async function updateCallSettings({ db, company }: CompanyContext, input: { allowCallRecording: boolean }) {
  await db.$executeRaw`UPDATE "Company" SET settings = settings || jsonb_build_object('allowCallRecording', ${input.allowCallRecording}::boolean), "updatedAt" = now() WHERE id = ${company.id}::uuid`;
  return { allowCallRecording: input.allowCallRecording };
}

export function companyAccount({ company }: CompanyContext) {
  return {
    credits: company.credits.toNumber(),
    plan: company.plan as Record<string, number>,
    storage: { bytes: Number(company.storageBytes), planGb: storagePlanGb(company.storageBytes) },
    planBlocked: company.planBlocked,
    billingExempt: company.billingExempt,
    deactivated: company.deactivated,
    blocked: companyBlocksWork(company),
  };
}

// ---- Contact Us -------------------------------------------------------------------------------

export function readContactUs({ company }: CompanyContext): ContactUsSettings {
  const stored = company.contactUs as Partial<ContactUsSettings> | null;
  // Companies created before Contact Us existed have {}: they get the defaults.
  const defaults = defaultContactUs(company.name, contentDefaultsOf(company));
  return stored && Array.isArray(stored.fields) ? { ...defaults, ...stored } : defaults;
}

export async function updateContactUs({ db, company }: CompanyContext, input: z.infer<typeof contactUsInput>) {
  const queue = await db.queue.findUnique({ where: { companyId_key: { companyId: company.id, key: input.defaultQueueKey } }, select: { id: true } });
  if (!queue) throw new TRPCError({ code: 'NOT_FOUND', message: 'Queue not found' });
  await db.company.update({ where: { id: company.id }, data: { contactUs: input } });
  return input;
}

// ---- embeddable widget -----------------------------------------------------------------------

export function readWidget({ company }: CompanyContext): WidgetSettings {
  return widgetSettingsOf(company.widget);
}

export async function updateWidget({ db, company }: CompanyContext, input: z.infer<typeof widgetSettingsInput>) {
  const widget = widgetSettingsOf(input);
  await db.company.update({ where: { id: company.id }, data: { widget: { ...widget } } });
  return widget;
}

// ---- additional fields ------------------------------------------------------------------------

const TAG_IN_USE = 'This TAG is already in use';

function presentField(f: AdditionalField) {
  return { id: f.id, name: f.name, tag: f.tag, multipleChoice: f.multipleChoice, options: f.options as string[] };
}

/** A unique (companyId, tag) violation becomes the readable conflict. */
async function tagConflict<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if ((err as { code?: string }).code === 'P2002') throw new TRPCError({ code: 'CONFLICT', message: TAG_IN_USE, cause: err });
    throw err;
  }
}

export async function listAdditionalFields({ db, company }: CompanyContext) {
  const fields = await db.additionalField.findMany({ where: { companyId: company.id }, orderBy: { createdAt: 'asc' } });
  return fields.map(presentField);
}

export async function createAdditionalField({ db, company }: CompanyContext, input: z.infer<typeof createAdditionalFieldInput>) {
  const created = await tagConflict(
    db.additionalField.create({
      data: { companyId: company.id, name: input.name, tag: input.tag, multipleChoice: input.multipleChoice, options: input.multipleChoice ? input.options : [] },
    }),
  );
  return presentField(created);
}

export async function updateAdditionalField({ db, company }: CompanyContext, input: z.infer<typeof updateAdditionalFieldInput>) {
  const { count } = await tagConflict(
    db.additionalField.updateMany({
      where: { id: input.fieldId, companyId: company.id },
      data: { name: input.name, tag: input.tag, multipleChoice: input.multipleChoice, options: input.multipleChoice ? input.options : [] },
    }),
  );
  if (count === 0) throw new TRPCError({ code: 'NOT_FOUND', message: 'Field not found' });
  return presentField(await db.additionalField.findUniqueOrThrow({ where: { id: input.fieldId } }));
}

export async function deleteAdditionalField({ db, company }: CompanyContext, fieldId: string) {
  const { count } = await db.additionalField.deleteMany({ where: { id: fieldId, companyId: company.id } });
  if (count === 0) throw new TRPCError({ code: 'NOT_FOUND', message: 'Field not found' });
  return { ok: true };
}
