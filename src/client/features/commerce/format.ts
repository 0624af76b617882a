/**
 * Commerce screens are Portuguese only, as the spec says of products (docs/decisions.md,
 * Commerce): their texts are plain Portuguese here, not Lingui messages, so the other catalogs
 * never carry them. Money and dates are shown the Brazilian way whatever the interface language.
 */
export { formatCents } from '../../../shared/domain/commerce';

export const dateBr = (d: Date | string) => new Intl.DateTimeFormat('pt-BR', { dateStyle: 'short' }).format(new Date(d));
export const dateTimeBr = (d: Date | string) => new Intl.DateTimeFormat('pt-BR', { dateStyle: 'short', timeStyle: 'short' }).format(new Date(d));
export const shortId = (id: string) => id.slice(0, 8).toUpperCase();

/** The server-made PDF, dated in the reader's time zone. */
export function pdfUrl(kind: 'budget' | 'sale', id: string) {
  const tz = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return `/commerce/${kind}/${id}/pdf${tz ? `?${new URLSearchParams({ tz })}` : ''}`;
}

/** 'YYYY-MM-DD' of a day from today, in the browser's calendar (a date input's value). */
export function dayFromToday(days: number): string {
  const d = new Date();
  d.setDate(d.getDate() + days);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** The end of a chosen day in the browser's time zone: a budget is valid through that whole day. */
export function endOfDay(value: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return null;
  return new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]), 23, 59, 59, 999);
}

/** Cents as a price field shows them: "12,50". */
export const centsToInput = (cents: number) => `${Math.floor(cents / 100)},${String(cents % 100).padStart(2, '0')}`;
