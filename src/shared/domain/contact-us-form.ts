import type { ContactUsField } from './contact-us';

/** An additional field (campo adicional) offered on the Contact Us page; multiple choice shows its options. */
export interface ContactUsExtraField {
  tag: string;
  name: string;
  multipleChoice: boolean;
  options: string[];
}

export type ContactUsFieldError = 'required' | 'email' | 'tooShort' | 'tooLong' | 'notAnOption';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Checks what a visitor typed on /{emp}/faleconosco against the company's configured fields
 * (required, e-mail validation, min and max size) and its multiple-choice additional fields.
 * Read-only fields are filled by the page, not typed, so they are only checked for size.
 * Returns the values trimmed, or the error of each failing field by key.
 */
export function validateContactUs(
  fields: readonly ContactUsField[],
  extras: readonly ContactUsExtraField[],
  input: Record<string, string | undefined>,
): { ok: true; values: Record<string, string> } | { ok: false; errors: Record<string, ContactUsFieldError> } {
  const errors: Record<string, ContactUsFieldError> = {};
  const values: Record<string, string> = {};
  for (const f of fields) {
    const value = (input[f.key] ?? '').trim();
    if (!value) {
      if (f.required && !f.readOnly) errors[f.key] = 'required';
      continue;
    }
    if (f.validateEmail && !EMAIL.test(value)) errors[f.key] = 'email';
    else if (value.length < f.minSize) errors[f.key] = 'tooShort';
    else if (value.length > f.maxSize) errors[f.key] = 'tooLong';
    else values[f.key] = value;
  }
  for (const x of extras) {
    const value = (input[x.tag] ?? '').trim();
    if (!value) continue;
    if (x.multipleChoice && !x.options.includes(value)) errors[x.tag] = 'notAnOption';
    else if (value.length > 500) errors[x.tag] = 'tooLong';
    else values[x.tag] = value;
  }
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, values };
}

/** The request's first message: one "Label: value" line per answered field, in the form's order. */
export function contactUsMessage(fields: readonly ContactUsField[], extras: readonly ContactUsExtraField[], values: Record<string, string>): string {
  const lines: string[] = [];
  for (const f of fields) if (values[f.key]) lines.push(`${f.label}: ${values[f.key]}`);
  for (const x of extras) if (values[x.tag]) lines.push(`${x.name}: ${values[x.tag]}`);
  return lines.join('\n');
}
