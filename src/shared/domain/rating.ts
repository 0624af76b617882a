import { INITIAL_RATING } from '../constants';

export interface CompanyRating {
  total: number; // rating.total: the average shown
  count: number; // rating.avaliacoesFeitas
}

export const RATING_MIN = 1;
export const RATING_MAX = 5;

export const isValidStars = (stars: number) => Number.isInteger(stars) && stars >= RATING_MIN && stars <= RATING_MAX;

const round1 = (n: number) => Math.round(n * 10) / 10;

/**
 * A customer's rating folded into the company's (spec 9: a company starts at 5 over 1 rating; the
 * average is kept rounded to 1 decimal).
 */
export function applyRating(current: CompanyRating | null | undefined, stars: number): CompanyRating {
  if (!isValidStars(stars)) throw new RangeError(`A rating is a whole number from ${RATING_MIN} to ${RATING_MAX}`);
  const { total, count } = current && current.count > 0 ? current : INITIAL_RATING;
  return { total: round1((total * count + stars) / (count + 1)), count: count + 1 };
}

/**
 * What a company's page shows: nothing until a customer has rated it. The stored rating starts
 * at the spec's seed (5 over 1), which is not a customer's rating; the count shown is the
 * customers' ratings only.
 */
export function publicRating(stored: CompanyRating): CompanyRating | null {
  const received = stored.count - INITIAL_RATING.count;
  return received > 0 ? { total: stored.total, count: received } : null;
}
