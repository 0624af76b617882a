/**
 * Template versions: a filled form keeps the version it was started with, so changing a template
 * never changes what was already filled (issue: "filled forms store the version they used").
 * A version nobody used yet is simply rewritten: designing a template does not pile up versions.
 */
import type { FormField } from './forms';

export interface VersionState {
  version: number;
  name: string;
  fields: readonly FormField[];
  /** Some form (draft, sent or submitted) was started with this version. */
  used: boolean;
}

export type SavePlan =
  /** Nothing a filled form shows changed: keep the version (the editors or privacy may still change). */
  | { kind: 'unchanged'; version: number }
  /** Nobody used the current version yet: it is rewritten in place. */
  | { kind: 'rewrite'; version: number }
  /** Forms were filled with the current version: the change becomes the next version. */
  | { kind: 'newVersion'; version: number };

/** Field lists compared by content, whatever order their keys were written in. */
export function sameFields(a: readonly FormField[], b: readonly FormField[]): boolean {
  if (a.length !== b.length) return false;
  return a.every((f, i) => canonical(f) === canonical(b[i]!));
}

function canonical(f: FormField): string {
  const { id, type, label, help, required, readOnly, validateEmail, minSize, maxSize, options, defaultValue } = f;
  return JSON.stringify([id, type, label, help, required, readOnly, validateEmail, minSize, maxSize, options, defaultValue]);
}

/** What saving `next` over the current version does. The name is part of what a filled form shows. */
export function planSave(current: VersionState, next: { name: string; fields: readonly FormField[] }): SavePlan {
  if (current.name === next.name && sameFields(current.fields, next.fields)) return { kind: 'unchanged', version: current.version };
  return current.used ? { kind: 'newVersion', version: current.version + 1 } : { kind: 'rewrite', version: current.version };
}

export interface ExportColumn {
  fieldId: string;
  label: string;
  type: FormField['type'];
}

/**
 * One column per question over every version of a template (the same id is the same question):
 * the newest version's fields in its order, then fields that only older versions had, newest
 * first. A column is labelled as its newest version labels it. Headings are not questions.
 */
export function exportColumns(versionsNewestFirst: readonly { version: number; fields: readonly FormField[] }[]): ExportColumn[] {
  const columns: ExportColumn[] = [];
  const seen = new Set<string>();
  for (const v of versionsNewestFirst) {
    for (const f of v.fields) {
      if (f.type === 'heading' || seen.has(f.id)) continue;
      seen.add(f.id);
      columns.push({ fieldId: f.id, label: f.label, type: f.type });
    }
  }
  return columns;
}
