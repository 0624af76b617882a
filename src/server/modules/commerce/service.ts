/**
 * Budgets (orçamentos) made by an attendant in a conversation, answered by its customer, and the
 * sales they become. Sending posts an 'orcamento' message into the conversation (as forms post a
 * 'formulario'); the customer's answer posts another. Accepting takes the quantities from stock
 * in the same transaction, under row locks on the budget and its products (in id order, so two
 * sales never deadlock): of two customers racing for the last unit, one gets the sale and the
 * other a sentence naming the product.
 */
import type { z } from 'zod';
import type { Budget, BudgetItem, Company } from '../../../generated/prisma/client';
import {
  budgetTotals,
  COMMERCE_MESSAGES as M,
  effectiveStatus,
  insufficientStockMessage,
  stockShortage,
  transitionRefusal,
  validityProblem,
  type BudgetMessageData,
} from '../../../shared/domain/commerce';
import { companyBlocksWork, memberMayWork } from '../../../shared/domain/company';
import { CHAT_MESSAGES } from '../../../shared/schemas/chat';
import type { createBudgetInput, updateBudgetInput } from '../../../shared/schemas/commerce';
import type { Prisma } from '../../db/client';
import { appendMessage, conversationForCall, emitMessage, isActiveParticipant } from '../chat/service';
import { requirePlan } from '../company/plan';
import { fail, sideIn, WRITE_TX, type CommerceContext, type CommerceDeps } from './context';

type Tx = Prisma.TransactionClient;
type Person = { id: string; name: string; email?: string | null; emailVerifiedAt?: Date | null };

/** The people of a conversation who are not active members of the company: its customers. */
async function customersOf(db: CommerceDeps['db'], companyId: string, participants: { userId: string; name: string }[]) {
  const members = await db.member.findMany({ where: { companyId, userId: { in: participants.map((p) => p.userId) }, inviteAccepted: true, blocked: false, removed: false }, select: { userId: true } });
  const ids = new Set(members.map((m) => m.userId));
  return participants.filter((p) => !ids.has(p.userId));
}

async function conversationOfAttendant(ctx: CommerceContext, conversationId: string) {
  if (!memberMayWork(ctx.company, ctx.member)) throw fail('FORBIDDEN', CHAT_MESSAGES.blocked);
  const conversation = await conversationForCall(ctx.db, ctx.company.id, conversationId);
  if (!conversation) throw fail('NOT_FOUND', CHAT_MESSAGES.notFound);
  if (!conversation.participants.some((p) => p.userId === ctx.user.id)) throw fail('FORBIDDEN', CHAT_MESSAGES.notParticipant);
  return conversation;
}

function messageData(budget: Pick<Budget, 'id' | 'totalCents' | 'validUntil'>, items: number, state: BudgetMessageData['state'], saleId?: string): BudgetMessageData {
  return { budgetId: budget.id, state, totalCents: budget.totalCents, validUntil: budget.validUntil.toISOString(), items, ...(saleId && { saleId }) };
}

/** Posts the 'orcamento' message of a budget sent to the customer, inside the caller's transaction. */
async function postSent(tx: Tx, domain: string, budget: Budget, items: number, authorId: string, now: Date) {
  return appendMessage(
    tx,
    domain,
    { conversationId: budget.conversationId!, authorId, clientId: `budget:${budget.id}:sent`, type: 'orcamento', text: 'Orçamento', data: messageData(budget, items, 'sent') as unknown as Prisma.InputJsonValue },
    now,
  );
}

type BudgetTerms = Pick<z.output<typeof createBudgetInput>, 'items' | 'discountCents' | 'validUntil'>;

/** The lines of a budget priced from this company's catalogue now, and its totals; or the refusal. */
async function priceBudget(ctx: CommerceContext, input: BudgetTerms) {
  const problem = validityProblem(input.validUntil, ctx.clock.now());
  if (problem) throw fail('BAD_REQUEST', problem);
  const ids = [...new Set(input.items.map((i) => i.productId))];
  const products = new Map((await ctx.db.product.findMany({ where: { companyId: ctx.company.id, id: { in: ids } } })).map((p) => [p.id, p]));
  if (products.size !== ids.length) throw fail('BAD_REQUEST', M.productNotFound);
  const lines = input.items.map((i) => ({ ...i, product: products.get(i.productId)! }));
  const totals = budgetTotals(lines.map((l) => ({ quantity: l.quantity, unitPriceCents: l.product.priceCents, discountPercent: l.discountPercent })), input.discountCents);
  if (!totals.ok) throw fail('BAD_REQUEST', totals.message);
  const items = lines.map((l, position) => ({
    position,
    productId: l.product.id,
    code: l.product.code,
    name: l.product.name,
    quantity: l.quantity,
    unitPriceCents: l.product.priceCents,
    discountPercent: l.discountPercent,
    totalCents: totals.totals.lines[position]!,
  }));
  return { items, ...totals.totals };
}

export async function createBudget(ctx: CommerceContext, input: z.output<typeof createBudgetInput>) {
  const conversation = await conversationOfAttendant(ctx, input.conversationId);
  if (input.send && (await customersOf(ctx.db, ctx.company.id, conversation.participants)).length === 0) throw fail('BAD_REQUEST', M.noCustomer);
  const now = ctx.clock.now();
  const { items, subtotalCents, discountCents, totalCents } = await priceBudget(ctx, input);

  const result = await ctx.db.$transaction(async (tx) => {
    const budget = await tx.budget.create({
      data: {
        companyId: ctx.company.id,
        conversationId: conversation.id,
        status: input.send ? 'sent' : 'draft',
        validUntil: input.validUntil,
        notes: input.notes.trim(),
        discountCents,
        subtotalCents,
        totalCents,
        createdById: ctx.user.id,
        createdByName: ctx.user.name,
        sentAt: input.send ? now : null,
        createdAt: now,
        updatedAt: now,
        items: { create: items },
      },
    });
    const appended = input.send ? await postSent(tx, ctx.company.domain, budget, items.length, ctx.user.id, now) : null;
    return { budget, appended };
  }, WRITE_TX);
  if (result.appended) emitMessage(ctx.realtime, result.appended);
  return { budgetId: result.budget.id, status: result.budget.status, totalCents };
}

async function budgetOfCompany(ctx: CommerceContext, budgetId: string) {
  const budget = await ctx.db.budget.findFirst({ where: { id: budgetId, companyId: ctx.company.id }, include: { _count: { select: { items: true } } } });
  if (!budget || !budget.conversationId) throw fail('NOT_FOUND', M.budgetNotFound);
  return budget;
}

/** Sends a draft to the customer of its conversation. */
export async function sendBudget(ctx: CommerceContext, budgetId: string) {
  const budget = await budgetOfCompany(ctx, budgetId);
  const conversation = await conversationOfAttendant(ctx, budget.conversationId!);
  if ((await customersOf(ctx.db, ctx.company.id, conversation.participants)).length === 0) throw fail('BAD_REQUEST', M.noCustomer);
  const now = ctx.clock.now();
  const problem = validityProblem(budget.validUntil, now);
  if (problem) throw fail('BAD_REQUEST', problem);
  const appended = await ctx.db.$transaction(async (tx) => {
    const { count } = await tx.budget.updateMany({ where: { id: budget.id, status: 'draft' }, data: { status: 'sent', sentAt: now, updatedAt: now } });
    if (count === 0) throw fail('CONFLICT', M.notDraft);
    return postSent(tx, ctx.company.domain, budget, budget._count.items, ctx.user.id, now);
  }, WRITE_TX);
  emitMessage(ctx.realtime, appended);
  return { budgetId: budget.id, status: 'sent' as const };
}

/** Changes a draft's lines, discount, validity or notes (priced again from the catalogue now). */
export async function updateBudget(ctx: CommerceContext, input: z.output<typeof updateBudgetInput>) {
  const budget = await budgetOfCompany(ctx, input.budgetId);
  await conversationOfAttendant(ctx, budget.conversationId!);
  const { items, subtotalCents, discountCents, totalCents } = await priceBudget(ctx, input);
  const now = ctx.clock.now();
  await ctx.db.$transaction(async (tx) => {
    const [locked] = await tx.$queryRaw<{ status: string }[]>`SELECT "status" FROM "Budget" WHERE "id" = ${budget.id}::uuid FOR UPDATE`;
    if (locked?.status !== 'draft') throw fail('CONFLICT', M.notDraft);
    await tx.budgetItem.deleteMany({ where: { budgetId: budget.id } });
    await tx.budget.update({
      where: { id: budget.id },
      data: { validUntil: input.validUntil, notes: input.notes.trim(), discountCents, subtotalCents, totalCents, updatedAt: now, items: { create: items } },
    });
  }, WRITE_TX);
  return { budgetId: budget.id, status: 'draft' as const, totalCents };
}

/** A draft goes away; a budget the customer saw stays, whatever became of it. */
export async function discardBudget(ctx: CommerceContext, budgetId: string) {
  const budget = await budgetOfCompany(ctx, budgetId);
  await conversationOfAttendant(ctx, budget.conversationId!);
  const { count } = await ctx.db.budget.deleteMany({ where: { id: budget.id, status: 'draft' } });
  if (count === 0) throw fail('CONFLICT', M.notDraft);
  return { discarded: true };
}

export async function conversationBudgets(ctx: CommerceContext, conversationId: string) {
  await conversationOfAttendant(ctx, conversationId);
  const now = ctx.clock.now();
  const rows = await ctx.db.budget.findMany({
    where: { companyId: ctx.company.id, conversationId },
    orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
    include: { sale: { select: { id: true } }, _count: { select: { items: true } } },
  });
  return rows.map((b) => ({
    id: b.id,
    status: effectiveStatus(b, now),
    totalCents: b.totalCents,
    items: b._count.items,
    validUntil: b.validUntil,
    createdAt: b.createdAt,
    createdByName: b.createdByName,
    saleId: b.sale?.id ?? null,
  }));
}

export async function listSales(ctx: CommerceContext, limit: number) {
  const rows = await ctx.db.sale.findMany({ where: { companyId: ctx.company.id }, orderBy: [{ createdAt: 'desc' }, { id: 'asc' }], take: limit, include: { _count: { select: { items: true } } } });
  return rows.map((s) => ({ id: s.id, budgetId: s.budgetId, customerName: s.customerName, totalCents: s.totalCents, items: s._count.items, createdAt: s.createdAt }));
}

// ---- either side ------------------------------------------------------------------------------

type LoadedBudget = Budget & { company: Company; items: BudgetItem[]; sale: { id: string } | null };

/**
 * May this person read this budget? The company's active members, any; anyone else only a budget
 * sent into a conversation they take part in. Every way in (procedures, the PDF) asks here.
 */
async function readable(deps: CommerceDeps, user: Person, budget: LoadedBudget | null) {
  if (!budget) throw fail('NOT_FOUND', M.budgetNotFound);
  const who = await sideIn(deps.db, budget.companyId, user);
  if (who.side === 'refused') throw fail('FORBIDDEN', who.message);
  requirePlan(budget.company, 'invent');
  if (who.side === 'member') return who;
  if (budget.status === 'draft' || !budget.conversationId || !(await isActiveParticipant(deps.db, budget.conversationId, user.id))) throw fail('NOT_FOUND', M.budgetNotFound);
  return who;
}

const loadBudget = (deps: CommerceDeps, budgetId: string): Promise<LoadedBudget | null> =>
  deps.db.budget.findUnique({ where: { id: budgetId }, include: { company: true, items: { orderBy: { position: 'asc' } }, sale: { select: { id: true } } } });

async function customerNames(deps: CommerceDeps, budget: LoadedBudget) {
  if (!budget.conversationId) return [];
  const conversation = await conversationForCall(deps.db, budget.companyId, budget.conversationId);
  return conversation ? (await customersOf(deps.db, budget.companyId, conversation.participants)).map((p) => p.name) : [];
}

export async function getBudget(deps: CommerceDeps, user: Person, budgetId: string) {
  const budget = await loadBudget(deps, budgetId);
  const who = await readable(deps, user, budget);
  const b = budget!;
  const status = effectiveStatus(b, deps.clock.now());
  return {
    id: b.id,
    companyName: b.company.name,
    domain: b.company.domain,
    conversationId: b.conversationId,
    status,
    validUntil: b.validUntil,
    notes: b.notes,
    subtotalCents: b.subtotalCents,
    discountCents: b.discountCents,
    totalCents: b.totalCents,
    createdByName: b.createdByName,
    createdAt: b.createdAt,
    sentAt: b.sentAt,
    decidedAt: b.decidedAt,
    decidedByName: b.decidedByName,
    customerNames: await customerNames(deps, b),
    saleId: b.sale?.id ?? null,
    items: b.items.map((i) => ({
      code: i.code,
      name: i.name,
      quantity: i.quantity,
      unitPriceCents: i.unitPriceCents,
      discountPercent: i.discountPercent,
      totalCents: i.totalCents,
      // The catalogue's ids are the company's business: members get them (to edit a draft).
      productId: who.side === 'member' ? i.productId : null,
    })),
    /** The caller is the customer and the budget waits for their answer. */
    canDecide: who.side === 'customer' && status === 'sent',
    side: who.side,
  };
}
export type BudgetView = Awaited<ReturnType<typeof getBudget>>;

export async function getSale(deps: CommerceDeps, user: Person, saleId: string) {
  const sale = await deps.db.sale.findUnique({ where: { id: saleId }, include: { items: { orderBy: { position: 'asc' } } } });
  if (!sale) throw fail('NOT_FOUND', M.saleNotFound);
  const budget = await loadBudget(deps, sale.budgetId);
  await readable(deps, user, budget).catch(() => {
    throw fail('NOT_FOUND', M.saleNotFound);
  });
  return {
    id: sale.id,
    budgetId: sale.budgetId,
    companyName: budget!.company.name,
    domain: budget!.company.domain,
    conversationId: budget!.conversationId,
    customerName: sale.customerName,
    createdAt: sale.createdAt,
    attendantName: budget!.createdByName,
    subtotalCents: budget!.subtotalCents,
    discountCents: budget!.discountCents,
    totalCents: sale.totalCents,
    items: sale.items.map((i) => ({ code: i.code, name: i.name, quantity: i.quantity, unitPriceCents: i.unitPriceCents, discountPercent: i.discountPercent, totalCents: i.totalCents })),
  };
}
export type SaleView = Awaited<ReturnType<typeof getSale>>;

/**
 * The customer's answer. Accepting is one transaction: the budget row locked and checked again
 * (still waiting, still valid), its products locked in id order and checked for stock, the
 * quantities taken, the sale written, the answer posted into the conversation.
 */
export async function decideBudget(deps: CommerceDeps, user: Person, budgetId: string, decision: 'accepted' | 'declined') {
  const budget = await loadBudget(deps, budgetId);
  const who = await readable(deps, user, budget);
  const b = budget!;
  if (who.side !== 'customer') throw fail('FORBIDDEN', M.customerOnly);
  if (companyBlocksWork(b.company)) throw fail('FORBIDDEN', CHAT_MESSAGES.blocked);
  const now = deps.clock.now();
  const refusal = transitionRefusal(b, decision, now);
  if (refusal) {
    // A budget found past its validity is recorded as expired, so lists agree with what was said.
    if (refusal === M.expired) await deps.db.budget.updateMany({ where: { id: b.id, status: 'sent' }, data: { status: 'expired', updatedAt: now } });
    throw fail('CONFLICT', refusal);
  }
  const result = await deps.db.$transaction(async (tx) => {
    const [locked] = await tx.$queryRaw<{ status: string; validUntil: Date }[]>`SELECT "status", "validUntil" FROM "Budget" WHERE "id" = ${b.id}::uuid FOR UPDATE`;
    const again = locked ? transitionRefusal(locked, decision, now) : M.budgetNotFound;
    if (again) throw fail('CONFLICT', again);
    let saleId: string | undefined;
    if (decision === 'accepted') {
      const ids = [...new Set(b.items.map((i) => i.productId).filter((id): id is string => !!id))].sort();
      const stock = await tx.$queryRaw<{ id: string; quantity: number }[]>`
        SELECT "id", "quantity" FROM "Product" WHERE "id" = ANY(${ids}::uuid[]) AND "companyId" = ${b.companyId}::uuid ORDER BY "id" FOR UPDATE`;
      const shortage = stockShortage(b.items, new Map(stock.map((s) => [s.id, s.quantity])));
      if (shortage) throw fail('CONFLICT', insufficientStockMessage(shortage.name, shortage.available));
      const taken = new Map<string, number>();
      for (const item of b.items) if (item.productId) taken.set(item.productId, (taken.get(item.productId) ?? 0) + item.quantity);
      for (const [id, quantity] of taken) {
        await tx.$executeRaw`UPDATE "Product" SET "quantity" = "quantity" - ${quantity}, "updatedAt" = ${now} WHERE "id" = ${id}::uuid`;
      }
      const sale = await tx.sale.create({
        data: {
          companyId: b.companyId,
          budgetId: b.id,
          customerId: user.id,
          customerName: user.name,
          totalCents: b.totalCents,
          createdAt: now,
          items: { create: b.items.map(({ position, productId, code, name, quantity, unitPriceCents, discountPercent, totalCents }) => ({ position, productId, code, name, quantity, unitPriceCents, discountPercent, totalCents })) },
        },
      });
      saleId = sale.id;
    }
    await tx.budget.update({ where: { id: b.id }, data: { status: decision, decidedAt: now, decidedById: user.id, decidedByName: user.name, updatedAt: now } });
    const appended = b.conversationId
      ? await appendMessage(
          tx,
          b.company.domain,
          {
            conversationId: b.conversationId,
            authorId: user.id,
            clientId: `budget:${b.id}:${decision}`,
            type: 'orcamento',
            text: decision === 'accepted' ? 'Orçamento aceito' : 'Orçamento recusado',
            data: messageData(b, b.items.length, decision, saleId) as unknown as Prisma.InputJsonValue,
          },
          now,
        )
      : null;
    return { saleId, appended };
  }, WRITE_TX);
  if (result.appended) emitMessage(deps.realtime, result.appended);
  return { budgetId: b.id, status: decision, saleId: result.saleId ?? null };
}
