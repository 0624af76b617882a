import { TRPCError } from '@trpc/server';
import type { Company } from '../../../generated/prisma/client';
import { PLAN_FEATURE_MESSAGES, planIncludes, type PlanFeature } from '../../../shared/domain/company';

/**
 * The one check of a plan flag: procedures declare theirs in meta (`meta({ plan })`, checked by
 * src/server/trpc.ts through this), and services whose procedure cannot (no `domain` in the
 * input: the customer side of forms, queues saved with an SLA) call it themselves.
 */
export function requirePlan(company: Pick<Company, 'plan'>, feature: PlanFeature): void {
  if (!planIncludes(company.plan, feature)) throw new TRPCError({ code: 'FORBIDDEN', message: PLAN_FEATURE_MESSAGES[feature] });
}
