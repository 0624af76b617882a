import { TRPCError } from '@trpc/server';
import type { Company, Member, User } from '../../../generated/prisma/client';
import type { AppDeps } from '../../deps';

/** What the telemedicine rules work with (the calls hub for consultation calls). */
export type TeleDeps = Pick<AppDeps, 'db' | 'clock' | 'realtime' | 'storage' | 'config' | 'logger' | 'calls'>;

/** A company admin or member, as the member procedure resolved them. */
export interface TeleMemberContext extends TeleDeps {
  company: Company;
  member: Member;
  user: User;
}

export const fail = (code: TRPCError['code'], message: string) => new TRPCError({ code, message });

/** Health data is never behind a long-lived link: a minute is enough to open it. */
export const HEALTH_LINK_SECONDS = 60;
