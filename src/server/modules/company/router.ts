import { checkDomainInput, joinCompanyInput, registerCompanyInput } from '../../../shared/schemas/company';
import { authedProcedure, memberProcedure, publicProcedure, router } from '../../trpc';
import * as company from './service';

/*
 * checkDomain, register and join name a company in `domain` but are, by nature, called by people
 * who are not its members yet; tests/helpers/procedures.ts lists them as the only exceptions to
 * the isolation rule.
 */
export const companyRouter = router({
  /** The company as its member sees it, with the caller's own role, permissions and plan state. */
  current: memberProcedure.query(({ ctx }) => company.describeCompany(ctx)),
  checkDomain: publicProcedure.input(checkDomainInput).query(({ ctx, input }) => company.checkDomain(ctx.db, input.domain)),
  register: authedProcedure
    .input(registerCompanyInput)
    .mutation(({ ctx, input }) => company.registerCompany({ db: ctx.db, realtime: ctx.realtime, clock: ctx.clock, newCompanyBonus: ctx.config.newCompanyBonus }, ctx.user, input)),
  /** For /i/selectCompany. */
  mine: authedProcedure.query(({ ctx }) => company.listMyCompanies(ctx.db, ctx.user)),
  select: memberProcedure.mutation(({ ctx }) => company.selectCompany(ctx)),
  join: authedProcedure.meta({ rate: 'joinRequests' }).input(joinCompanyInput).mutation(({ ctx, input }) => company.joinCompany({ ...ctx, publicUrl: ctx.config.publicUrl }, ctx.user, input.domain)),
});
