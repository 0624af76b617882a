import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../../server/router';

type Outputs = inferRouterOutputs<AppRouter>;
export type MemberRow = Outputs['members']['list'][number];
export type MemberState = MemberRow['state'];
export type ProfileRow = Outputs['profiles']['list'][number];
export type AdditionalFieldRow = Outputs['additionalFields']['list'][number];
export type ClientRow = Outputs['clients']['list'][number];
export type CompanyAccount = Outputs['settings']['companyAccount'];
