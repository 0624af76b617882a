import { adjustCreditsInput, auditInput, pricesInput, refundInput } from '../../../shared/schemas/operator';
import { authedProcedure, router } from '../../trpc';
import * as operator from './operator';
import { refundPayment } from './payments';
import { getPrices } from './service';

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
  adjustCredits: operatorProcedure.input(adjustCreditsInput).mutation(({ ctx, input }) => operator.adjustCredits(ctx.db, ctx.user.id, input)),
  refund: operatorProcedure.input(refundInput).mutation(({ ctx, input }) => refundPayment(ctx, input.paymentId)),
  audit: operatorProcedure.input(auditInput).query(({ ctx, input }) => operator.listAudit(ctx.db, input.limit)),
});
