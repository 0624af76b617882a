/**
 * Call billing (calls-errors-constants §7.6 step 4, §9): every 30 s of call time each connected
 * participant is charged seconds/60 x the price per minute of what they send (voice, video or
 * screen share), and a recording is charged per minute of recording on top. Prices come from the
 * prices table (defaults 0). Amounts are decimals kept as strings to 4 places, as the database
 * stores them, so no float rounding creeps into a balance.
 */
export const BILLING_TAGS = ['voice', 'video', 'share', 'recording', 'remote'] as const;
export type BillingTag = (typeof BILLING_TAGS)[number];

export interface PricesPerMinute {
  voice: string;
  video: string;
  share: string;
  recording: string;
  /** arTime: a remote assistance call (tipo 4), per minute of the call. */
  remote: string;
}

export const ZERO_PRICES: PricesPerMinute = { voice: '0', video: '0', share: '0', recording: '0', remote: '0' };

/**
 * Remote assistance (tipo 4) is one service bought by the company, not a stream per person: its
 * time (arTime) is charged once, on the attendant who started it (the call's owner), at the
 * remote price; the customer's screen share and both voices are part of it and not charged again.
 * What a participant of a tipo-4 call is charged as: 'remote' for the owner, nothing for others.
 */
export function remoteTag(call: { type: number; ownerId: string | null }, userId: string): 'remote' | 'free' | null {
  if (call.type !== 4) return null;
  return call.ownerId === userId ? 'remote' : 'free';
}

/** What a participant is sending decides the tag: a screen share, else a camera, else voice. */
export function participantTag(media: { screen: boolean; video: boolean }): Exclude<BillingTag, 'recording' | 'remote'> {
  if (media.screen) return 'share';
  if (media.video) return 'video';
  return 'voice';
}

const SCALE = 10_000n; // 4 decimal places

/** A decimal string ("12.5", "-0.0003") as ten-thousandths. Throws on anything else. */
export function toUnits(value: string | number): bigint {
  const s = typeof value === 'number' ? value.toFixed(4) : value.trim();
  const m = /^(-)?(\d+)(?:\.(\d{1,}))?$/.exec(s);
  if (!m) throw new Error(`not a decimal amount: ${value}`);
  const frac = (m[3] ?? '').padEnd(4, '0');
  // Beyond 4 places rounds half up, as the database's numeric(14,4) would.
  let units = BigInt(m[2]!) * SCALE + BigInt(frac.slice(0, 4));
  if (frac.length > 4 && Number(frac[4]) >= 5) units += 1n;
  return m[1] ? -units : units;
}

export function fromUnits(units: bigint): string {
  const negative = units < 0n;
  const abs = negative ? -units : units;
  const whole = abs / SCALE;
  const frac = (abs % SCALE).toString().padStart(4, '0');
  return `${negative ? '-' : ''}${whole}.${frac}`;
}

/**
 * charge = seconds / 60 x price per minute, rounded half up to 4 places. Seconds are whole (a
 * tick is 30; the last, partial one is what was used).
 */
export function chargeFor(seconds: number, pricePerMinute: string): string {
  if (!Number.isInteger(seconds) || seconds < 0) throw new Error(`seconds must be a whole number >= 0, got ${seconds}`);
  const price = toUnits(pricePerMinute);
  const numerator = price * BigInt(seconds);
  // Round half away from zero over /60.
  const q = numerator / 60n;
  const r = numerator % 60n;
  const rounded = r * 2n >= 60n ? q + 1n : q;
  return fromUnits(rounded);
}

export const isZero = (amount: string) => toUnits(amount) === 0n;

/** Whether a balance covers an amount (credits never go below zero unnoticed). */
export const covers = (balance: string, amount: string) => toUnits(balance) >= toUnits(amount);
