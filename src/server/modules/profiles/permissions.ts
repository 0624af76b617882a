import { TRPCError } from '@trpc/server';
import type { Company, Member } from '../../../generated/prisma/client';
import { MEMBER_PROFILE_DEFAULTS, PERMISSION_KEYS, readPermissions, type Permission, type ProfilePermissions } from '../../../shared/domain/profiles';
import type { Db } from '../../db/client';

export const PERMISSION_DENIED = 'Your profile does not allow this';

/**
 * What the member's profile allows. Admins may do everything whatever their profile says (spec 6
 * gives admins every management right); a profile code that no longer exists allows nothing.
 */
export async function memberPermissions(db: Db, companyId: string, member: Pick<Member, 'isAdmin' | 'profile'>): Promise<ProfilePermissions> {
  if (member.isAdmin) return Object.fromEntries(PERMISSION_KEYS.map((k) => [k, true])) as ProfilePermissions;
  const profile = await db.profile.findUnique({ where: { companyId_code: { companyId, code: member.profile } }, select: { permissions: true } });
  // The built-in member profile cannot be deleted; a company made before profiles were stored
  // (or by a fixture) has no row for it, and its members keep the built-in rights.
  if (!profile && member.profile === MEMBER_PROFILE_DEFAULTS.code) return MEMBER_PROFILE_DEFAULTS.permissions;
  return readPermissions(profile?.permissions);
}

/**
 * The server-side check for a profile permission, for procedures of other modules to call first:
 * createService (new conversations), integrateSingleService, serveContactUs (taking Contact Us
 * requests), addContacts / editContacts, viewReports (dashboard), voiceCall (starting calls),
 * sendAudio (audio messages).
 */
export async function requirePermission(ctx: { db: Db; company: Company; member: Member }, permission: Permission): Promise<void> {
  const allowed = await memberPermissions(ctx.db, ctx.company.id, ctx.member);
  if (!allowed[permission]) throw new TRPCError({ code: 'FORBIDDEN', message: PERMISSION_DENIED });
}
