/** What every commerce rule starts from: the caller's side, the refusals, the transaction budget. */
import { TRPCError } from '@trpc/server';
import type { Company, Member } from '../../../generated/prisma/client';
import { accessRefusal } from '../../../shared/domain/membership';
import type { Clock } from '../../clock';
import type { Db } from '../../db/client';
import type { Realtime } from '../../realtime';

export interface CommerceDeps {
  db: Db;
  clock: Clock;
  realtime: Realtime;
}

/** A member of the company the input named (memberProcedure's context). */
export interface CommerceContext extends CommerceDeps {
  company: Company;
  member: Member;
  user: { id: string; name: string };
}

export const WRITE_TX = { maxWait: 10_000, timeout: 20_000 } as const;

export const fail = (code: 'NOT_FOUND' | 'FORBIDDEN' | 'BAD_REQUEST' | 'CONFLICT', message: string) => new TRPCError({ code, message });

/**
 * Which side a person acts from in a company: an active member (reads every budget of it), a
 * member it blocked or removed (refused, as the access rule says), or anyone else (a customer,
 * who reaches only what was sent into their own conversations).
 */
export async function sideIn(db: Db, companyId: string, user: { id: string; email?: string | null; emailVerifiedAt?: Date | null }): Promise<{ side: 'member'; member: Member } | { side: 'customer' } | { side: 'refused'; message: string }> {
  const [member, appConfig] = await Promise.all([
    db.member.findUnique({ where: { companyId_userId: { companyId, userId: user.id } } }),
    db.appConfig.findUnique({ where: { id: 1 } }),
  ]);
  if (!member) return { side: 'customer' };
  const refusal = accessRefusal(member, { mustVerifyEmail: !!appConfig?.verifyEmail && !!user.email && !user.emailVerifiedAt });
  // Someone whose invite was never accepted is not one of the company's people: a customer still.
  if (refusal && !member.inviteAccepted && !member.blocked && !member.removed) return { side: 'customer' };
  if (refusal) return { side: 'refused', message: refusal.message };
  return { side: 'member', member };
}
