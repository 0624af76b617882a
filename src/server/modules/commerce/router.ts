/**
 * Commerce procedures (inputs in shared/schemas/commerce.ts), all behind the plan flag `invent`.
 *
 * Catalogue (commerce.*: members read it to build budgets; admins edit it)
 *   commerce.products        q  {search?} -> ProductView[]
 *   commerce.saveProduct     m  {productId?, code, name, quantity, priceCents}   (admins)
 *   commerce.removeProduct   m  {productId}                                       (admins)
 *   commerce.exportCsv       q  {} -> {fileName, csv, count}                      (admins)
 *   commerce.importCsv       m  {csv} -> {created, updated}  (all or nothing)     (admins)
 * Budgets in a conversation (attendants who take part in it)
 *   commerce.createBudget    m  {conversationId, items[{productId, quantity, discountPercent}], discountCents, validUntil, notes, send}
 *   commerce.updateBudget    m  {budgetId, items, discountCents, validUntil, notes}   (drafts, priced again)
 *   commerce.sendBudget      m  {budgetId}     commerce.discardBudget m {budgetId}   (drafts)
 *   commerce.conversationBudgets q {conversationId}
 *   commerce.sales           q  {limit} -> the company's sales, newest first       (admins)
 * Either side, by id (commerceView.*: no company in the input; the service decides who reads,
 * and checks `invent` on the budget's company): budget, sale, and the customer's accept / decline.
 * HTTP: GET /commerce/budget/:budgetId/pdf, GET /commerce/sale/:saleId/pdf
 */
import {
  budgetInMemberInput,
  budgetInput,
  commerceCompanyInput,
  conversationBudgetsInput,
  createBudgetInput,
  importCsvInput,
  productInput,
  productsInput,
  saleInput,
  salesInput,
  saveProductInput,
  updateBudgetInput,
} from '../../../shared/schemas/commerce';
import { adminProcedure, memberProcedure, participantProcedure, router } from '../../trpc';
import * as catalogue from './catalogue';
import * as service from './service';

const member = memberProcedure.meta({ plan: 'invent' });
const admin = adminProcedure.meta({ plan: 'invent' });

export const commerceRouter = router({
  products: member.input(productsInput).query(({ ctx, input }) => catalogue.listProducts(ctx, input.search)),
  saveProduct: admin.input(saveProductInput).mutation(({ ctx, input }) => catalogue.saveProduct(ctx, input)),
  removeProduct: admin.input(productInput).mutation(({ ctx, input }) => catalogue.removeProduct(ctx, input.productId)),
  exportCsv: admin.input(commerceCompanyInput).query(({ ctx }) => catalogue.exportCsv(ctx)),
  importCsv: admin.input(importCsvInput).mutation(({ ctx, input }) => catalogue.importCsv(ctx, input.csv)),

  createBudget: member.input(createBudgetInput).mutation(({ ctx, input }) => service.createBudget(ctx, input)),
  updateBudget: member.input(updateBudgetInput).mutation(({ ctx, input }) => service.updateBudget(ctx, input)),
  sendBudget: member.input(budgetInMemberInput).mutation(({ ctx, input }) => service.sendBudget(ctx, input.budgetId)),
  discardBudget: member.input(budgetInMemberInput).mutation(({ ctx, input }) => service.discardBudget(ctx, input.budgetId)),
  conversationBudgets: member.input(conversationBudgetsInput).query(({ ctx, input }) => service.conversationBudgets(ctx, input.conversationId)),
  sales: admin.input(salesInput).query(({ ctx, input }) => service.listSales(ctx, input.limit)),
});

/** Reached through the caller's own conversation (or their membership): budgets and sales by id. */
export const commerceViewRouter = router({
  budget: participantProcedure.input(budgetInput).query(({ ctx, input }) => service.getBudget(ctx, ctx.user, input.budgetId)),
  sale: participantProcedure.input(saleInput).query(({ ctx, input }) => service.getSale(ctx, ctx.user, input.saleId)),
  accept: participantProcedure.input(budgetInput).mutation(({ ctx, input }) => service.decideBudget(ctx, ctx.user, input.budgetId, 'accepted')),
  decline: participantProcedure.input(budgetInput).mutation(({ ctx, input }) => service.decideBudget(ctx, ctx.user, input.budgetId, 'declined')),
});
