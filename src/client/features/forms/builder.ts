/**
 * The builder's list of fields as one reducer: add, change, remove and move (by drag or by the
 * keyboard's move up / move down). Field ids are made here once and kept across saves: the
 * server keeps one export column per id over every version.
 */
import { newField, type FormField, type FormFieldType } from '../../../shared/domain/forms';

export type BuilderAction =
  | { type: 'reset'; fields: FormField[] }
  | { type: 'add'; fieldType: FormFieldType; label: string }
  | { type: 'change'; id: string; patch: Partial<FormField> }
  | { type: 'remove'; id: string }
  | { type: 'move'; id: string; to: number };

export function newFieldId(): string {
  return `f${crypto.randomUUID().replace(/-/g, '').slice(0, 10)}`;
}

export function builderReducer(fields: FormField[], action: BuilderAction): FormField[] {
  switch (action.type) {
    case 'reset':
      return action.fields;
    case 'add': {
      const field = newField(newFieldId(), action.fieldType, action.label);
      if (action.fieldType === 'singleChoice' || action.fieldType === 'multipleChoice') field.options = [];
      return [...fields, field];
    }
    case 'change':
      return fields.map((f) => (f.id === action.id ? { ...f, ...action.patch } : f));
    case 'remove':
      return fields.filter((f) => f.id !== action.id);
    case 'move': {
      const from = fields.findIndex((f) => f.id === action.id);
      const to = Math.max(0, Math.min(fields.length - 1, action.to));
      if (from < 0 || from === to) return fields;
      const next = [...fields];
      const [moved] = next.splice(from, 1);
      next.splice(to, 0, moved!);
      return next;
    }
  }
}
