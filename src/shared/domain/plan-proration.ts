/**
 * Proration on a plan switch (docs/decisions.md, "Plan switch proration").
 *
 * Plans are monthly subscriptions at the payment provider, and a new plan's subscription is
 * charged its full monthly price by the provider the day it is paid: the new plan's period starts
 * on the day of the switch. What the company already paid and will not use is the rest of the old
 * plan's current period, so that part comes back as credits, counted in whole days:
 *
 *   credit = old monthly price x (days in the period - days used) / days in the period
 *
 * rounded half up to the cent. Days used are whole days elapsed since the period started: the
 * switch day itself is paid by the new plan, so a switch on the day the period started returns the
 * whole old price and one on its last day returns one day. Nothing is ever charged by the rule
 * (the difference in price is the provider's full charge of the new plan), and a company exempt
 * from charges (isentarCobranca), or an old plan that was not paid for the period (past due),
 * gets nothing back because it paid nothing.
 */
import { fromUnits, toUnits } from './billing';

const DAY_MS = 86_400_000;

/** Adds `months` calendar months in UTC, the day clamped to the month's last (Jan 31 + 1 = Feb 28/29). */
export function addMonthsUtc(date: Date, months: number): Date {
  const y = date.getUTCFullYear();
  const m = date.getUTCMonth() + months;
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  const d = new Date(date.getTime());
  d.setUTCFullYear(y, m, Math.min(date.getUTCDate(), last));
  return d;
}

/** The monthly period of a subscription paid since `anchor` that contains `at`: [start, end). */
export function monthlyPeriod(anchor: Date, at: Date): { start: Date; end: Date } {
  if (at < anchor) return { start: anchor, end: addMonthsUtc(anchor, 1) };
  // Months between them, then stepped back while that period starts after `at` (clamping).
  let n = (at.getUTCFullYear() - anchor.getUTCFullYear()) * 12 + at.getUTCMonth() - anchor.getUTCMonth();
  while (n > 0 && addMonthsUtc(anchor, n) > at) n--;
  while (addMonthsUtc(anchor, n + 1) <= at) n++;
  return { start: addMonthsUtc(anchor, n), end: addMonthsUtc(anchor, n + 1) };
}

export interface ProrationInput {
  /** The old plan's monthly price, a decimal string. */
  oldMonthlyPrice: string;
  /** When the old plan was first paid (its periods are months from here). */
  oldActiveSince: Date;
  /** Whether the old plan's current period was paid (active when the switch happened). */
  oldPaid: boolean;
  /** The moment the new plan took over (its first payment). */
  switchedAt: Date;
  /** isentarCobranca: never charged, so nothing to return either. */
  exempt: boolean;
}

export interface Proration {
  /** Credits to give back, a decimal string with 4 places ("0.0000" when none). */
  credit: string;
  daysInPeriod: number;
  daysUsed: number;
  period: { start: Date; end: Date };
}

export function prorateSwitch(input: ProrationInput): Proration {
  const period = monthlyPeriod(input.oldActiveSince, input.switchedAt);
  const daysInPeriod = Math.round((period.end.getTime() - period.start.getTime()) / DAY_MS);
  const daysUsed = Math.min(daysInPeriod, Math.max(0, Math.floor((input.switchedAt.getTime() - period.start.getTime()) / DAY_MS)));
  const price = toUnits(input.oldMonthlyPrice);
  if (input.exempt || !input.oldPaid || price <= 0n) return { credit: fromUnits(0n), daysInPeriod, daysUsed, period };
  // Exact in integers, rounded once: cents = price (ten-thousandths) x unused / (days x 100), half up.
  const unused = BigInt(daysInPeriod - daysUsed);
  const den = BigInt(daysInPeriod) * 100n;
  const cents = (price * unused * 2n + den) / (den * 2n);
  return { credit: fromUnits(cents * 100n), daysInPeriod, daysUsed, period };
}
