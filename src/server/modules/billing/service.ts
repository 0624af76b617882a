/**
 * Billing: the prices document, the per-tick charges of calls (COBRANCA) and the company statement
 * (extrato). A charge is one transaction that locks the thing being charged, writes the
 * ChargeRecord and the StatementEntry and takes the amount from Company.credits only if the
 * balance covers it. (subject, tickIndex) is unique, so several instances running the same tick
 * charge it once.
 */
import type { Prisma } from '../../../generated/prisma/client';
import { BILLING_TICK_MS } from '../../../shared/constants';
import { chargeFor, fromUnits, isZero, participantTag, remoteTag, toUnits, type BillingTag, type PricesPerMinute } from '../../../shared/domain/billing';
import { planOffer, type PlanOffer } from '../../../shared/schemas/billing';
import type { Db } from '../../db/client';
import { MONEY_TX } from './ledger';

export interface Prices extends PricesPerMinute {
  translatePerChar: string;
}

export async function getPrices(db: Db | Prisma.TransactionClient): Promise<Prices> {
  const row = await db.prices.findUnique({ where: { id: 1 } });
  // The migration inserts the row; a database restored without it still bills with the defaults.
  if (!row) return { voice: '0', video: '0', share: '0', recording: '0', remote: '0', translatePerChar: '0.0005' };
  return {
    voice: row.voicePerMinute.toString(),
    video: row.videoPerMinute.toString(),
    share: row.sharePerMinute.toString(),
    recording: row.recordingPerMinute.toString(),
    remote: row.remotePerMinute.toString(),
    translatePerChar: row.translatePerChar.toString(),
  };
}

/**
 * The plan catalogue of the prices document. Entries that no longer validate (a feature renamed
 * since) are left out rather than offered wrong.
 */
export async function getPlans(db: Db | Prisma.TransactionClient): Promise<PlanOffer[]> {
  const row = await db.prices.findUnique({ where: { id: 1 }, select: { plans: true } });
  const list = Array.isArray(row?.plans) ? row.plans : [];
  return list.flatMap((p) => {
    const parsed = planOffer.safeParse(p);
    return parsed.success ? [parsed.data] : [];
  });
}

/**
 * Whether a company may start something billed: exempt, or nothing costs anything, or it has a
 * positive balance. One tick more than the balance is caught by the tick itself.
 */
export function mayStartBilled(company: { billingExempt: boolean; credits: { toString(): string } }, prices: PricesPerMinute): boolean {
  if (company.billingExempt) return true;
  const anyPrice = [prices.voice, prices.video, prices.share, prices.recording, prices.remote].some((p) => !isZero(p));
  return !anyPrice || toUnits(company.credits.toString()) > 0n;
}

export type ChargeOutcome =
  | { status: 'charged'; tickIndex: number; seconds: number; amount: string; tag: BillingTag }
  | { status: 'nothingDue' }
  | { status: 'insufficient' };

const FIELD_OF: Record<BillingTag, string> = { voice: 'voiceTime', video: 'videoTime', share: 'shareTime', recording: 'recTime', remote: 'arTime' };

/** Takes `amount` from the company if the balance covers it; the new balance, or null. */
async function debit(tx: Prisma.TransactionClient, companyId: string, amount: string): Promise<string | null> {
  const rows = await tx.$queryRaw<{ credits: { toString(): string } }[]>`
    UPDATE "Company" SET "credits" = "credits" - ${amount}::numeric, "updatedAt" = now()
    WHERE "id" = ${companyId}::uuid AND "credits" >= ${amount}::numeric
    RETURNING "credits"`;
  return rows[0] ? rows[0].credits.toString() : null;
}

/** Time billed on a call (voice, video, share, recording): a 'calls' ChargeRecord of the timer kind. */
function record(
  tx: Prisma.TransactionClient,
  input: { companyId: string; callId: string; subject: string; tickIndex: number; tag: BillingTag; name: string; seconds: number; amount: string; balanceAfter: string; now: Date },
) {
  return writeCharge(tx, {
    ...input,
    key: 'calls',
    type: 'cumulativeTimer',
    summary: { tag: input.tag, amount: input.amount, field: FIELD_OF[input.tag] },
  });
}

/** The ChargeRecord and its Statement entry, written together inside the caller's transaction. */
async function writeCharge(
  tx: Prisma.TransactionClient,
  input: {
    companyId: string;
    callId: string;
    key: string;
    type: string;
    tag: string;
    subject: string;
    tickIndex: number;
    name: string;
    seconds: number;
    amount: string;
    summary: Prisma.InputJsonObject;
    balanceAfter: string;
    now: Date;
  },
) {
  const { balanceAfter, now, ...charge } = input;
  const created = await tx.chargeRecord.create({ data: { ...charge, createdAt: now } });
  await tx.statementEntry.create({
    data: {
      companyId: input.companyId,
      name: input.name,
      action: 'charge',
      amount: fromUnits(-toUnits(input.amount)),
      balanceAfter,
      chargeRecordId: created.id,
      callId: input.callId,
      createdAt: now,
    },
  });
}

/** Whole seconds since `from`, and the instant those seconds end (the remainder waits for the next tick). */
function dueSeconds(from: Date, now: Date): { seconds: number; until: Date } {
  const seconds = Math.max(0, Math.floor((now.getTime() - from.getTime()) / 1000));
  return { seconds, until: new Date(from.getTime() + seconds * 1000) };
}

/**
 * Charges a connected participant for the time since their last charge (30 s on a tick; what
 * is left when they leave), at the price of what they send (share, video or voice).
 */
export async function chargeParticipant(db: Db, participantId: string, now: Date): Promise<ChargeOutcome> {
  return db.$transaction(async (tx) => {
    // The row lock orders two instances ticking the same participant: the second sees the
    // first one's billedUntil and finds nothing due.
    await tx.$executeRaw`SELECT 1 FROM "CallParticipant" WHERE "id" = ${participantId}::uuid FOR UPDATE`;
    const p = await tx.callParticipant.findUnique({
      where: { id: participantId },
      include: { user: { select: { name: true } }, call: { include: { company: { select: { id: true, billingExempt: true } } } } },
    });
    if (!p || !p.connected || !p.billedUntil) return { status: 'nothingDue' } as const;
    const { seconds, until } = dueSeconds(p.billedUntil, now);
    if (seconds < 1) return { status: 'nothingDue' } as const;
    // A remote assistance call is charged once, on its owner, at arTime's price (remoteTag).
    const remote = remoteTag(p.call, p.userId);
    const tag: Exclude<BillingTag, 'recording'> = remote === 'remote' ? 'remote' : participantTag(p);
    const price = { voice: p.call.priceVoice, video: p.call.priceVideo, share: p.call.priceShare, remote: p.call.priceRemote }[tag].toString();
    const amount = p.call.company.billingExempt || remote === 'free' ? '0.0000' : chargeFor(seconds, price);
    const tickIndex = p.billedTicks + 1;
    if (!isZero(amount)) {
      const balanceAfter = await debit(tx, p.call.companyId, amount);
      if (balanceAfter === null) return { status: 'insufficient' } as const;
      await record(tx, {
        companyId: p.call.companyId,
        callId: p.callId,
        subject: `participant:${p.id}`,
        tickIndex,
        tag,
        name: p.user.name,
        seconds,
        amount,
        balanceAfter,
        now,
      });
    }
    await tx.callParticipant.update({
      where: { id: p.id },
      data: { billedTicks: tickIndex, billedUntil: until, totalCharged: { increment: amount } },
    });
    const secondsField = { share: 'shareSeconds', video: 'videoSeconds', voice: 'voiceSeconds', remote: 'remoteSeconds' }[tag];
    // The customer's side of a remote assistance call is inside arTime: no time of its own.
    if (remote !== 'free') await tx.call.update({ where: { id: p.callId }, data: { [secondsField]: { increment: seconds }, totalCharged: { increment: amount } } });
    return { status: 'charged', tickIndex, seconds, amount, tag } as const;
  }, MONEY_TX);
}

/** Charges a call's recording for the time since its last charge, at the recording price. */
export async function chargeRecording(db: Db, callId: string, now: Date): Promise<ChargeOutcome> {
  return db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT 1 FROM "Call" WHERE "id" = ${callId}::uuid FOR UPDATE`;
    const call = await tx.call.findUnique({ where: { id: callId }, include: { company: { select: { billingExempt: true } } } });
    if (!call || !call.recordingBilledUntil) return { status: 'nothingDue' } as const;
    const { seconds, until } = dueSeconds(call.recordingBilledUntil, now);
    if (seconds < 1) return { status: 'nothingDue' } as const;
    const amount = call.company.billingExempt ? '0.0000' : chargeFor(seconds, call.priceRecording.toString());
    const tickIndex = call.recordingBilledTicks + 1;
    if (!isZero(amount)) {
      const balanceAfter = await debit(tx, call.companyId, amount);
      if (balanceAfter === null) return { status: 'insufficient' } as const;
      const recorder = call.recorderId ? await tx.user.findUnique({ where: { id: call.recorderId }, select: { name: true } }) : null;
      await record(tx, {
        companyId: call.companyId,
        callId,
        subject: `recording:${callId}`,
        tickIndex,
        tag: 'recording',
        name: recorder?.name ?? '',
        seconds,
        amount,
        balanceAfter,
        now,
      });
    }
    await tx.call.update({
      where: { id: callId },
      data: { recordingBilledTicks: tickIndex, recordingBilledUntil: until, recordingSeconds: { increment: seconds }, totalCharged: { increment: amount } },
    });
    return { status: 'charged', tickIndex, seconds, amount, tag: 'recording' } as const;
  }, MONEY_TX);
}

/** The company statement, newest first, a page at a time (cursor: the last entry's id). */
export async function listStatement(db: Db, companyId: string, page: { cursor?: string; limit: number }) {
  const rows = await db.statementEntry.findMany({
    where: { companyId },
    orderBy: { seq: 'desc' },
    take: page.limit + 1,
    ...(page.cursor && { cursor: { id: page.cursor }, skip: 1 }),
    include: { chargeRecord: { select: { tag: true, seconds: true, key: true } } },
  });
  const more = rows.length > page.limit;
  const entries = rows.slice(0, page.limit).map((e) => ({
    id: e.id,
    name: e.name,
    action: e.action,
    amount: e.amount.toString(),
    balanceAfter: e.balanceAfter.toString(),
    callId: e.callId,
    tag: (e.chargeRecord?.tag ?? null) as BillingTag | 'translate' | null,
    seconds: e.chargeRecord?.seconds ?? null,
    createdAt: e.createdAt,
  }));
  return { entries, nextCursor: more ? entries[entries.length - 1]!.id : null };
}

export async function balanceOf(db: Db, companyId: string) {
  const [company, prices] = await Promise.all([
    db.company.findUniqueOrThrow({ where: { id: companyId }, select: { credits: true, billingExempt: true } }),
    getPrices(db),
  ]);
  return { credits: company.credits.toString(), billingExempt: company.billingExempt, prices, tickSeconds: BILLING_TICK_MS / 1000 };
}

export type TranslationChargeOutcome = { status: 'charged'; amount: string } | { status: 'free' } | { status: 'insufficient' };

/**
 * Charges one translation of a transcript line into one language: characters x the call's price
 * per character (key 'translate', type 'cumulative'), in one transaction that takes the credits
 * only if the balance covers it and writes the ChargeRecord and its Statement entry. The subject
 * 'translate:<lineId>:<lang>' is unique with tickIndex 1: a line is never billed twice per language.
 */
export async function chargeTranslation(
  db: Db,
  input: { companyId: string; callId: string; lineId: string; lang: string; characters: number; amount: string; name: string; now: Date },
): Promise<TranslationChargeOutcome> {
  return db.$transaction(async (tx) => {
    const company = await tx.company.findUniqueOrThrow({ where: { id: input.companyId }, select: { billingExempt: true } });
    if (company.billingExempt || isZero(input.amount)) return { status: 'free' } as const;
    const balanceAfter = await debit(tx, input.companyId, input.amount);
    if (balanceAfter === null) return { status: 'insufficient' } as const;
    await writeCharge(tx, {
      companyId: input.companyId,
      callId: input.callId,
      key: 'translate',
      type: 'cumulative',
      tag: 'translate',
      subject: `translate:${input.lineId}:${input.lang}`,
      tickIndex: 1,
      name: input.name,
      seconds: 0,
      amount: input.amount,
      summary: { tag: 'translate', amount: input.amount, field: 'characters', characters: input.characters, lang: input.lang },
      balanceAfter,
      now: input.now,
    });
    await tx.call.update({ where: { id: input.callId }, data: { totalCharged: { increment: input.amount } } });
    return { status: 'charged', amount: input.amount } as const;
  }, MONEY_TX);
}
