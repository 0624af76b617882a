import { statementInput } from '../../../shared/schemas/calls';
import { adminProcedure, memberProcedure, router } from '../../trpc';
import * as billing from './service';

export const billingRouter = router({
  /** The company's credits and the prices calls are charged at (every member sees what a call costs). */
  balance: memberProcedure.query(({ ctx }) => billing.balanceOf(ctx.db, ctx.company.id)),
  /** The statement (extrato): admins only, like the rest of the company account. */
  statement: adminProcedure.input(statementInput).query(({ ctx, input }) => billing.listStatement(ctx.db, ctx.company.id, input)),
});
