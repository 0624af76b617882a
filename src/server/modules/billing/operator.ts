/**
 * The operator console (the spec's root user): the people who run this installation edit the
 * prices document, adjust a company's credits by hand and refund payments. Operators are granted
 * by OPERATOR_EMAILS or `npm run operator -- grant <e-mail>` (an Operator row), never by SQL; every change is
 * written to OperatorAudit with who, when, before and after, in the same transaction.
 */
import { TRPCError } from '@trpc/server';
import type { Prisma } from '../../../generated/prisma/client';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { OPERATOR_MESSAGES, type PricesInput } from '../../../shared/schemas/operator';
import { MONEY_TX, postEntry } from './ledger';
import type { PlanOffer } from '../../../shared/schemas/billing';
import { getPlans, getPrices } from './service';

export async function isOperator(db: Db, config: Config, user: { id: string; email: string | null }): Promise<boolean> {
  if (user.email && config.operatorEmails.includes(user.email.toLowerCase())) return true;
  return !!(await db.operator.findUnique({ where: { userId: user.id } }));
}

export async function requireOperator(db: Db, config: Config, user: { id: string; email: string | null }) {
  if (!(await isOperator(db, config, user))) throw new TRPCError({ code: 'FORBIDDEN', message: OPERATOR_MESSAGES.notOperator });
}

const jsonPrices = (p: Awaited<ReturnType<typeof getPrices>>) => ({ ...p }) as Prisma.InputJsonObject;

export async function updatePrices(db: Db, actorId: string, input: PricesInput) {
  return db.$transaction(async (tx) => {
    await tx.$executeRaw`INSERT INTO "Prices" ("id") VALUES (1) ON CONFLICT DO NOTHING`;
    await tx.$executeRaw`SELECT 1 FROM "Prices" WHERE "id" = 1 FOR UPDATE`;
    const before = await getPrices(tx);
    await tx.prices.update({
      where: { id: 1 },
      data: {
        voicePerMinute: input.voice,
        videoPerMinute: input.video,
        sharePerMinute: input.share,
        recordingPerMinute: input.recording,
        ...(input.remote !== undefined && { remotePerMinute: input.remote }),
        translatePerChar: input.translatePerChar,
      },
    });
    const after = await getPrices(tx);
    await tx.operatorAudit.create({ data: { actorId, action: 'prices', before: jsonPrices(before), after: jsonPrices(after) } });
    return after;
  }, MONEY_TX);
}

/** One line per plan for the audit log ("pro: Pro, 149.90, calls transc"), so before/after read at a glance. */
const planSummary = (plans: PlanOffer[]) => ({ plans: plans.map((p) => `${p.key}: ${p.name}, ${p.monthlyPrice}, ${p.features.join(' ')}`).join(' | ') });

/** Replaces the plan catalogue of the prices document (what admins can subscribe to). */
export async function updatePlans(db: Db, actorId: string, plans: PlanOffer[]) {
  return db.$transaction(async (tx) => {
    await tx.$executeRaw`INSERT INTO "Prices" ("id") VALUES (1) ON CONFLICT DO NOTHING`;
    await tx.$executeRaw`SELECT 1 FROM "Prices" WHERE "id" = 1 FOR UPDATE`;
    const before = await getPlans(tx);
    await tx.prices.update({ where: { id: 1 }, data: { plans: plans as unknown as Prisma.InputJsonArray } });
    await tx.operatorAudit.create({ data: { actorId, action: 'plans', before: planSummary(before), after: planSummary(plans) } });
    return plans;
  }, MONEY_TX);
}

/** A manual credit (positive) or debit (negative): a statement entry like any other. */
export async function adjustCredits(db: Db, actorId: string, input: { companyDomain: string; amount: string; note: string }) {
  return db.$transaction(async (tx) => {
    const company = await tx.company.findUnique({ where: { domain: input.companyDomain }, select: { id: true, credits: true } });
    if (!company) throw new TRPCError({ code: 'NOT_FOUND', message: 'Domain not found' });
    const entry = await postEntry(tx, { companyId: company.id, amount: input.amount, action: 'adjustment', name: input.note });
    const before = (await tx.statementEntry.findUniqueOrThrow({ where: { id: entry.id } })).balanceAfter.minus(input.amount).toString();
    await tx.operatorAudit.create({
      data: { actorId, action: 'credits', companyId: company.id, before: { credits: before }, after: { credits: entry.balanceAfter }, note: input.note },
    });
    return { credits: entry.balanceAfter };
  }, MONEY_TX);
}

export async function listAudit(db: Db, limit: number) {
  const rows = await db.operatorAudit.findMany({ orderBy: { createdAt: 'desc' }, take: limit });
  const people = await db.user.findMany({ where: { id: { in: [...new Set(rows.map((r) => r.actorId))] } }, select: { id: true, name: true, email: true } });
  const companies = await db.company.findMany({ where: { id: { in: rows.flatMap((r) => (r.companyId ? [r.companyId] : [])) } }, select: { id: true, domain: true } });
  return rows.map((r) => ({
    id: r.id,
    action: r.action as 'prices' | 'credits' | 'plans',
    actor: people.find((p) => p.id === r.actorId) ?? { id: r.actorId, name: '', email: null },
    domain: companies.find((c) => c.id === r.companyId)?.domain ?? null,
    before: r.before as Record<string, string>,
    after: r.after as Record<string, string>,
    note: r.note,
    createdAt: r.createdAt,
  }));
}
