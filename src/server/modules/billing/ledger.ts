/**
 * The only way credits change besides call charges (service.ts): one statement entry and the
 * balance it leaves, in the caller's transaction. The UPDATE takes the company row's lock, so
 * concurrent writers queue and each entry's balanceAfter is exact.
 */
import type { Prisma } from '../../../generated/prisma/client';

/**
 * Money transactions wait their turn for a pooled connection rather than fail after Prisma's 2 s:
 * under a burst (ticks of many calls, a webhook storm) they queue behind the company row lock
 * while holding connections, and a failed tick or webhook would only be retried later.
 */
export const MONEY_TX = { maxWait: 15_000, timeout: 20_000 } as const;

/** proration: the unused part of a plan replaced by another (plan-proration.ts); name = that plan's name. */
export type EntryAction = 'credit' | 'refund' | 'adjustment' | 'proration';

export async function postEntry(
  tx: Prisma.TransactionClient,
  input: { companyId: string; amount: string; action: EntryAction; name: string; externalRef?: string; paymentId?: string; now?: Date },
): Promise<{ id: string; balanceAfter: string }> {
  const rows = await tx.$queryRaw<{ credits: { toString(): string } }[]>`
    UPDATE "Company" SET "credits" = "credits" + ${input.amount}::numeric, "updatedAt" = now()
    WHERE "id" = ${input.companyId}::uuid RETURNING "credits"`;
  if (!rows[0]) throw new Error(`No company ${input.companyId}`);
  const balanceAfter = rows[0].credits.toString();
  const entry = await tx.statementEntry.create({
    data: {
      companyId: input.companyId,
      name: input.name,
      action: input.action,
      amount: input.amount,
      balanceAfter,
      externalRef: input.externalRef,
      paymentId: input.paymentId,
      ...(input.now && { createdAt: input.now }),
    },
  });
  return { id: entry.id, balanceAfter };
}
