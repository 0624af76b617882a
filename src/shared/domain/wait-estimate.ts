/**
 * The visitor's estimated wait, from how long the company's recent requests waited before an
 * attendant took them. The median, so one request left overnight does not inflate every
 * estimate; too few samples say nothing rather than something made up.
 */
export const WAIT_SAMPLE_SIZE = 20;
export const WAIT_SAMPLE_DAYS = 7;
export const WAIT_MIN_SAMPLES = 3;

/** Whole minutes (at least 1), or null when the recent history is too thin to say. */
export function estimateWaitMinutes(waitsMs: readonly number[]): number | null {
  const valid = waitsMs.filter((w) => Number.isFinite(w) && w >= 0).sort((a, b) => a - b);
  if (valid.length < WAIT_MIN_SAMPLES) return null;
  const mid = Math.floor(valid.length / 2);
  const median = valid.length % 2 ? valid[mid]! : (valid[mid - 1]! + valid[mid]!) / 2;
  return Math.max(1, Math.round(median / 60_000));
}
