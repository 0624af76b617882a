import { Prisma } from './client';

/**
 * A model's columns as `alias."col" AS "prefixcol"`, built from the generated client's list of
 * scalar fields, so a raw join that reads two models at once follows the schema when a column is
 * added (our models map no field names: column = field).
 */
export function prefixedColumns(fields: Record<string, string>, alias: string, prefix: string): Prisma.Sql {
  return Prisma.raw(Object.values(fields).map((f) => `${alias}."${f}" AS "${prefix}${f}"`).join(', '));
}

/** The fields of `row` that start with `prefix`, unprefixed; null when the joined row is absent. */
export function unprefix<T>(row: Record<string, unknown>, fields: Record<string, string>, prefix: string, idField = 'id'): T | null {
  if (row[`${prefix}${idField}`] == null) return null;
  const out: Record<string, unknown> = {};
  for (const [f, column] of prefixedNames(fields, prefix)) out[f] = row[column];
  return out as T;
}

/**
 * [field, prefixed column] of a model, made once: every send unprefixes six rows or so, and
 * building each column's name again was most of what that cost.
 */
const names = new WeakMap<Record<string, string>, Map<string, [string, string][]>>();
function prefixedNames(fields: Record<string, string>, prefix: string) {
  let byPrefix = names.get(fields);
  if (!byPrefix) names.set(fields, (byPrefix = new Map()));
  let pairs = byPrefix.get(prefix);
  if (!pairs) byPrefix.set(prefix, (pairs = Object.values(fields).map((f) => [f, `${prefix}${f}`])));
  return pairs;
}
