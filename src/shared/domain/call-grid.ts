/**
 * The camera grid (calls-errors-constants §9: "up to 4x4 for more than 12 videos"). Columns and
 * rows for n tiles: as square as possible, never more than 4 x 4 on a page; more tiles than 16
 * go to further pages.
 */
import { GRID_LARGE_THRESHOLD, GRID_MAX_SIDE } from '../constants';

export interface GridLayout {
  columns: number;
  rows: number;
  /** Tiles shown per page. */
  perPage: number;
  pages: number;
}

export function gridLayout(tiles: number, opts: { narrow?: boolean } = {}): GridLayout {
  const n = Math.max(0, Math.floor(tiles));
  if (n === 0) return { columns: 1, rows: 1, perPage: 1, pages: 1 };
  // A phone shows one column up to 2 tiles, two columns after that, and never more than 2 x 3.
  if (opts.narrow) {
    const columns = n <= 2 ? 1 : 2;
    const perPage = Math.min(n, columns === 1 ? 2 : 6);
    return { columns, rows: Math.ceil(perPage / columns), perPage, pages: Math.ceil(n / perPage) };
  }
  if (n > GRID_LARGE_THRESHOLD) {
    const perPage = GRID_MAX_SIDE * GRID_MAX_SIDE;
    const shown = Math.min(n, perPage);
    const columns = GRID_MAX_SIDE;
    return { columns, rows: Math.ceil(shown / columns), perPage, pages: Math.ceil(n / perPage) };
  }
  const columns = Math.ceil(Math.sqrt(n));
  const rows = Math.ceil(n / columns);
  return { columns, rows, perPage: n, pages: 1 };
}

/** The active speaker: the loudest level above the threshold (speaker level counts only above 5). */
export function activeSpeaker(levels: ReadonlyMap<string, number>, threshold: number): string | null {
  let best: string | null = null;
  let bestLevel = threshold;
  for (const [id, level] of levels) {
    if (level > bestLevel) {
      best = id;
      bestLevel = level;
    }
  }
  return best;
}
