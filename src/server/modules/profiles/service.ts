import { TRPCError } from '@trpc/server';
import type { z } from 'zod';
import type { Prisma, Profile } from '../../../generated/prisma/client';
import { BUILT_IN_PROFILES, nextProfileCode, readPermissions } from '../../../shared/domain/profiles';
import { COMPANY_MESSAGES } from '../../../shared/schemas/company';
import type { createProfileInput, updateProfileInput } from '../../../shared/schemas/profiles';
import { lockCompany, type CompanyContext } from '../company/service';

type Tx = Prisma.TransactionClient;

export const PROFILE_MESSAGES = {
  notFound: 'Profile not found',
  builtIn: 'The built-in profiles A01 and M01 cannot be deleted',
  builtInType: 'The type of the built-in profiles A01 and M01 cannot change',
  typeInUse: 'You cannot change the type of a profile in use',
  queueNotFound: 'Queue not found',
  reportProfileNotFound: 'Profile not found in the reports list',
} as const;

function present(p: Profile, membersUsing: number) {
  return {
    id: p.id,
    code: p.code,
    name: p.name,
    type: p.type as 'internal' | 'admin',
    queueIds: p.queueIds as string[],
    permissions: readPermissions(p.permissions),
    reportProfiles: p.reportProfiles as string[],
    builtIn: BUILT_IN_PROFILES.has(p.code),
    membersUsing,
  };
}

async function usage(tx: Tx | CompanyContext['db'], companyId: string): Promise<Map<string, number>> {
  const rows = await tx.member.groupBy({ by: ['profile'], where: { companyId, removed: false }, _count: { _all: true } });
  return new Map(rows.map((r) => [r.profile, r._count._all]));
}

/** Queues and report profiles named by a profile must be the company's own. */
async function checkReferences(tx: Tx, companyId: string, input: { queueIds?: string[]; reportProfiles?: string[] }) {
  if (input.queueIds?.length) {
    const ids = [...new Set(input.queueIds)];
    const found = await tx.queue.count({ where: { companyId, id: { in: ids } } });
    if (found !== ids.length) throw new TRPCError({ code: 'NOT_FOUND', message: PROFILE_MESSAGES.queueNotFound });
  }
  if (input.reportProfiles?.length) {
    const codes = [...new Set(input.reportProfiles)];
    const found = await tx.profile.count({ where: { companyId, code: { in: codes } } });
    if (found !== codes.length) throw new TRPCError({ code: 'NOT_FOUND', message: PROFILE_MESSAGES.reportProfileNotFound });
  }
}

export async function listProfiles({ db, company }: CompanyContext) {
  const [profiles, used] = await Promise.all([
    db.profile.findMany({ where: { companyId: company.id }, orderBy: { code: 'asc' } }),
    usage(db, company.id),
  ]);
  return profiles.map((p) => present(p, used.get(p.code) ?? 0));
}

export async function createProfile({ db, company }: CompanyContext, input: z.infer<typeof createProfileInput>) {
  return db.$transaction(async (tx) => {
    // Codes are generated from the ones in use: serialize so two creations do not pick the same.
    await lockCompany(tx, company.id);
    await checkReferences(tx, company.id, input);
    const used = await tx.profile.findMany({ where: { companyId: company.id }, select: { code: true } });
    const created = await tx.profile.create({
      data: {
        companyId: company.id,
        code: nextProfileCode(used.map((u) => u.code)),
        name: input.name,
        type: input.type,
        queueIds: [...new Set(input.queueIds)],
        permissions: input.permissions,
        reportProfiles: [...new Set(input.reportProfiles)],
      },
    });
    return present(created, 0);
  });
}

export async function updateProfile({ db, company }: CompanyContext, input: z.infer<typeof updateProfileInput>) {
  return db.$transaction(async (tx) => {
    await lockCompany(tx, company.id);
    const profile = await tx.profile.findFirst({ where: { id: input.profileId, companyId: company.id } });
    if (!profile) throw new TRPCError({ code: 'NOT_FOUND', message: PROFILE_MESSAGES.notFound });
    const used = (await usage(tx, company.id)).get(profile.code) ?? 0;
    if (input.type && input.type !== profile.type) {
      // A member's isAdmin follows the profile's type when it is assigned; changing the type under
      // members would leave them inconsistent.
      if (BUILT_IN_PROFILES.has(profile.code)) throw new TRPCError({ code: 'BAD_REQUEST', message: PROFILE_MESSAGES.builtInType });
      if (used > 0) throw new TRPCError({ code: 'BAD_REQUEST', message: PROFILE_MESSAGES.typeInUse });
    }
    await checkReferences(tx, company.id, input);
    const updated = await tx.profile.update({
      where: { id: profile.id },
      data: {
        name: input.name,
        type: input.type,
        queueIds: input.queueIds ? [...new Set(input.queueIds)] : undefined,
        permissions: input.permissions,
        reportProfiles: input.reportProfiles ? [...new Set(input.reportProfiles)] : undefined,
      },
    });
    return present(updated, used);
  });
}

/** A profile in use cannot be deleted (spec 5); removed members do not count as using it. */
export async function deleteProfile({ db, company }: CompanyContext, profileId: string) {
  await db.$transaction(async (tx) => {
    await lockCompany(tx, company.id);
    const profile = await tx.profile.findFirst({ where: { id: profileId, companyId: company.id } });
    if (!profile) throw new TRPCError({ code: 'NOT_FOUND', message: PROFILE_MESSAGES.notFound });
    if (BUILT_IN_PROFILES.has(profile.code)) throw new TRPCError({ code: 'BAD_REQUEST', message: PROFILE_MESSAGES.builtIn });
    if ((await usage(tx, company.id)).get(profile.code)) throw new TRPCError({ code: 'BAD_REQUEST', message: COMPANY_MESSAGES.profileInUse });
    await tx.profile.delete({ where: { id: profile.id } });
  });
  return { ok: true };
}
