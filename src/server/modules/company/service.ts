import type { Company, Member } from '../../../generated/prisma/client';
import type { Db } from '../../db/client';

/** The company-scoped service context: the member procedure has already resolved both. */
export interface CompanyContext {
  db: Db;
  company: Company;
  member: Member;
}

export function describeCompany({ company, member }: CompanyContext) {
  return {
    domain: company.domain,
    name: company.name,
    bio: company.bio,
    active: company.active && !company.deactivated,
    planBlocked: company.planBlocked && !company.billingExempt,
    rating: { total: company.ratingTotal, count: company.ratingCount },
    me: { memberId: member.id, isAdmin: member.isAdmin, profile: member.profile },
  };
}

export async function listMembers({ db, company }: CompanyContext) {
  const members = await db.member.findMany({
    where: { companyId: company.id },
    include: { user: { select: { name: true, avatarKey: true, presence: true } } },
    orderBy: [{ isAdmin: 'desc' }, { createdAt: 'asc' }],
  });
  return members.map((m) => ({
    id: m.id,
    userId: m.userId,
    name: m.user.name,
    email: m.email,
    isAdmin: m.isAdmin,
    profile: m.profile,
    inviteAccepted: m.inviteAccepted,
    blocked: m.blocked,
    removed: m.removed,
    joinedAt: m.joinedAt,
  }));
}
