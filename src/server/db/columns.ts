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
  for (const f of Object.values(fields)) out[f] = row[`${prefix}${f}`];
  return out as T;
}
