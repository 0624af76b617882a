import { statementInput } from '../../../shared/schemas/calls';
import { cardPaymentInput, cardSubscribeInput, paymentInput, subscribeInput, topUpInput } from '../../../shared/schemas/billing';
import { adminProcedure, memberProcedure, router } from '../../trpc';
import * as card from './card';
import * as payments from './payments';
import * as billing from './service';
import * as subscriptions from './subscriptions';

export const billingRouter = router({
  /** The company's credits and the prices calls are charged at (every member sees what a call costs). */
  balance: memberProcedure.query(({ ctx }) => billing.balanceOf(ctx.db, ctx.company.id)),
  /** The statement (extrato): admins only, like the rest of the company account. */
  statement: adminProcedure.input(statementInput).query(({ ctx, input }) => billing.listStatement(ctx.db, ctx.company.id, input)),
  /** Whether payments are set up, and in which currency. */
  paymentsStatus: adminProcedure.query(({ ctx }) => payments.paymentsStatus(ctx.config)),
  /** Starts a top-up: the answer's url is the provider's checkout page. */
  topUp: adminProcedure
    .input(topUpInput)
    .mutation(({ ctx, input }) => payments.startTopUp(ctx, { companyId: ctx.company.id, domain: ctx.company.domain, userId: ctx.user.id, amount: input.amount })),
  /** Transparent checkout: a session for the provider's card script on /i/recarga. */
  cardSession: adminProcedure.mutation(({ ctx }) => card.cardSession(ctx)),
  /** Pays a top-up with the card token the provider's script made in the browser (never a card number). */
  payByCard: adminProcedure
    .input(cardPaymentInput)
    .mutation(({ ctx, input }) => card.payTopUpByCard(ctx, { companyId: ctx.company.id, domain: ctx.company.domain, userId: ctx.user.id, card: input })),
  /** Subscribes to a plan of the catalogue with a card token (transparent pre-approval). */
  subscribeByCard: adminProcedure
    .input(cardSubscribeInput)
    .mutation(({ ctx, input }) => card.subscribeByCard(ctx, { companyId: ctx.company.id, userId: ctx.user.id, card: input })),
  /** One payment, asked again of the provider (what the page shows on return from checkout). */
  payment: adminProcedure.input(paymentInput).mutation(({ ctx, input }) => payments.refreshPayment(ctx, ctx.company.id, input.paymentId)),
  /** The company's recent payments and their state (paid, failed, refunded...). */
  payments: adminProcedure.query(({ ctx }) => payments.listPayments(ctx.db, ctx.company.id)),
  /** The plans offered (the catalogue of the prices document) and which one the company has. */
  plans: adminProcedure.query(({ ctx }) => subscriptions.offeredPlans(ctx.db, ctx.company.id)),
  /** Subscribe to a plan of the catalogue: the answer's url is the provider's checkout page. */
  subscribe: adminProcedure
    .input(subscribeInput)
    .mutation(({ ctx, input }) => subscriptions.startSubscription(ctx, { companyId: ctx.company.id, userId: ctx.user.id, planKey: input.planKey })),
  /** The plan subscription's state and whether the plan is blocked. */
  subscription: adminProcedure.query(({ ctx }) => subscriptions.currentSubscription(ctx.db, ctx.company.id)),
});
