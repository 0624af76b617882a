import { TRPCError } from '@trpc/server';
import { plansInput } from '../../../shared/schemas/billing';
import { adjustCreditsInput, auditInput, companyPaymentsInput, pricesInput, refundInput } from '../../../shared/schemas/operator';
import { authedProcedure, router } from '../../trpc';
import * as operator from './operator';
import { listPayments, refundPayment } from './payments';
import { getPlans, getPrices } from './service';

/** Signed in, and an operator of the installation (not of a company: these span every company). */
const operatorProcedure = authedProcedure.use(async ({ ctx, next }) => {
  await operator.requireOperator(ctx.db, ctx.config, ctx.user);
  return next();
});

export const operatorRouter = router({
  /** Whether the caller is an operator (the client shows the console's link). */
  me: authedProcedure.query(async ({ ctx }) => ({ operator: await operator.isOperator(ctx.db, ctx.config, ctx.user) })),
  prices: operatorProcedure.query(({ ctx }) => getPrices(ctx.db)),
  setPrices: operatorProcedure.input(pricesInput).mutation(({ ctx, input }) => operator.updatePrices(ctx.db, ctx.user.id, input)),
  /** The plan catalogue admins subscribe to (part of the prices document). */
  plans: operatorProcedure.query(({ ctx }) => getPlans(ctx.db)),
  setPlans: operatorProcedure.input(plansInput).mutation(({ ctx, input }) => operator.updatePlans(ctx.db, ctx.user.id, input.plans)),
  adjustCredits: operatorProcedure.input(adjustCreditsInput).mutation(({ ctx, input }) => operator.adjustCredits(ctx.db, ctx.user.id, input)),
  /** One company's recent payments, to pick the one to refund. */
  payments: operatorProcedure.input(companyPaymentsInput).query(async ({ ctx, input }) => {
    const company = await ctx.db.company.findUnique({ where: { domain: input.companyDomain }, select: { id: true } });
    if (!company) throw new TRPCError({ code: 'NOT_FOUND', message: 'Domain not found' });
    return listPayments(ctx.db, company.id);
  }),
  refund: operatorProcedure.input(refundInput).mutation(({ ctx, input }) => refundPayment(ctx, input.paymentId)),
  audit: operatorProcedure.input(auditInput).query(({ ctx, input }) => operator.listAudit(ctx.db, input.limit)),
});
