/**
 * Forms (spec 3 Form, 4 Forms, 5 form name rule, 6 Forms): the fields a template is made of, the
 * rules a template must keep, and how a filled form's answers are checked. Text rules are the
 * Contact Us fields' own (required, e-mail check, read-only, min/max size): each text answer goes
 * through `validateContactUs`, so both pages refuse exactly the same things.
 */
import { validateContactUs, type ContactUsFieldError } from './contact-us-form';
import { maskBrazilianPhone, normalizePhone, onlyDigits } from './phone';

export const FORM_FIELD_TYPES = [
  'shortText',
  'longText',
  'number',
  'date',
  'time',
  'singleChoice',
  'multipleChoice',
  'checkbox',
  'email',
  'phone',
  'file',
  'image',
  'signature',
  'heading',
] as const;
export type FormFieldType = (typeof FORM_FIELD_TYPES)[number];

/** Types whose answer is a stored file (uploaded through /uploads/form, never typed into the values). */
export const FILE_FIELD_TYPES: ReadonlySet<FormFieldType> = new Set(['file', 'image', 'signature']);
/** Types whose answer is text checked with the Contact Us rules. */
const TEXT_FIELD_TYPES: ReadonlySet<FormFieldType> = new Set(['shortText', 'longText', 'email']);
/** Types where min/max size means something, and what it counts. */
export const SIZE_MEANING: Partial<Record<FormFieldType, 'characters' | 'value' | 'choices'>> = {
  shortText: 'characters',
  longText: 'characters',
  email: 'characters',
  number: 'value',
  multipleChoice: 'choices',
};

/** The longest answer each text type takes when the template sets no maximum. */
export const TEXT_MAX: Record<'shortText' | 'longText' | 'email', number> = { shortText: 200, longText: 5000, email: 254 };
export const FORM_LIMITS = {
  nameMax: 120,
  fields: 200,
  labelMax: 200,
  helpMax: 1000,
  options: 100,
  optionMax: 200,
  defaultValueMax: 5000,
  editors: 200,
} as const;

/** One field of a template (label, help text, required, and the Contact Us rules). */
export interface FormField {
  /** Stable across versions: the same question keeps its id, so exports keep one column for it. */
  id: string;
  type: FormFieldType;
  label: string;
  help: string;
  required: boolean;
  /** Shown with `defaultValue`, never typed (the Contact Us read-only rule). */
  readOnly: boolean;
  /** E-mail check on a text field (an 'email' field always has it). */
  validateEmail: boolean;
  /** Characters (text), value (number) or number of choices (multiple choice); null: no rule. */
  minSize: number | null;
  maxSize: number | null;
  /** Single and multiple choice. */
  options: string[];
  /** What a read-only field shows, or what a new form starts with. */
  defaultValue: string;
}

export interface FormFileValue {
  key: string;
  name: string;
  size: number;
  mime: string;
}
/** An answer as stored: text, number, yes/no, the chosen options, or a stored file. */
export type FormValue = string | number | boolean | string[] | FormFileValue | null;
export type FormValues = Record<string, FormValue>;

// ---- templates --------------------------------------------------------------------------------

export type TemplateProblem =
  | { field: string | null; problem: 'noFields' | 'tooManyFields' }
  | { field: string; problem: 'duplicateId' | 'noLabel' | 'noOptions' | 'duplicateOption' | 'minAboveMax' | 'sizeNotAllowed' | 'badDefault' };

/** A name as the uniqueness rule compares it: "Intake" = " intake ". */
export const formNameKey = (name: string) => name.trim().toLowerCase();

/** What is wrong with a template's fields, in order; empty when it may be saved. */
export function templateProblems(fields: readonly FormField[]): TemplateProblem[] {
  const problems: TemplateProblem[] = [];
  if (fields.filter((f) => f.type !== 'heading').length === 0) problems.push({ field: null, problem: 'noFields' });
  if (fields.length > FORM_LIMITS.fields) problems.push({ field: null, problem: 'tooManyFields' });
  const seen = new Set<string>();
  for (const f of fields) {
    if (seen.has(f.id)) problems.push({ field: f.id, problem: 'duplicateId' });
    seen.add(f.id);
    if (!f.label.trim()) problems.push({ field: f.id, problem: 'noLabel' });
    if (f.type === 'singleChoice' || f.type === 'multipleChoice') {
      if (f.options.length === 0) problems.push({ field: f.id, problem: 'noOptions' });
      if (new Set(f.options.map((o) => o.trim().toLowerCase())).size !== f.options.length) problems.push({ field: f.id, problem: 'duplicateOption' });
    }
    if ((f.minSize !== null || f.maxSize !== null) && !SIZE_MEANING[f.type]) problems.push({ field: f.id, problem: 'sizeNotAllowed' });
    else if (f.minSize !== null && f.maxSize !== null && f.minSize > f.maxSize) problems.push({ field: f.id, problem: 'minAboveMax' });
    if (f.readOnly && f.defaultValue && checkValue(f, f.defaultValue, 'draft') !== null) problems.push({ field: f.id, problem: 'badDefault' });
  }
  return problems;
}

/** A new field of a type, as the builder adds it. */
export function newField(id: string, type: FormFieldType, label = ''): FormField {
  return { id, type, label, help: '', required: false, readOnly: false, validateEmail: type === 'email', minSize: null, maxSize: null, options: [], defaultValue: '' };
}

// ---- answers ----------------------------------------------------------------------------------

export type FormFieldError =
  | ContactUsFieldError
  | 'invalid'
  | 'notANumber'
  | 'tooSmall'
  | 'tooLarge'
  | 'notADate'
  | 'notATime'
  | 'notAPhone'
  | 'tooFewChoices'
  | 'tooManyChoices'
  | 'notAFile'
  | 'notAnImage';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

function isRealDate(value: string): boolean {
  const m = DATE.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** "3,5" (Brazilian) and "3.5" both read as 3.5; anything else that is not a plain number is refused. */
export function parseFormNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string') return null;
  const text = value.trim().replace(',', '.');
  if (!/^[-+]?\d+(\.\d+)?$/.test(text)) return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : null;
}

const isFileValue = (v: unknown): v is FormFileValue =>
  !!v && typeof v === 'object' && !Array.isArray(v) && typeof (v as FormFileValue).key === 'string' && typeof (v as FormFileValue).mime === 'string';

const isEmpty = (v: FormValue | undefined) =>
  v === undefined || v === null || v === false || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.length === 0);

/**
 * One answer against its field: null when it is acceptable, else why not. A draft only checks what
 * was given (nothing is required yet); a submission also needs every required answer.
 * Empty answers are never wrong in a draft.
 */
export function checkValue(field: FormField, value: FormValue | undefined, mode: 'draft' | 'submit'): FormFieldError | null {
  if (field.type === 'heading') return null;
  if (isEmpty(value)) return mode === 'submit' && field.required && !field.readOnly ? 'required' : null;
  if (TEXT_FIELD_TYPES.has(field.type)) {
    if (typeof value !== 'string') return 'invalid';
    const max = TEXT_MAX[field.type as keyof typeof TEXT_MAX];
    const checked = validateContactUs(
      [
        {
          key: 'v',
          label: field.label,
          required: field.required,
          validateEmail: field.validateEmail || field.type === 'email',
          readOnly: field.readOnly,
          minSize: field.minSize ?? 0,
          maxSize: Math.min(field.maxSize ?? max, max),
        },
      ],
      [],
      { v: value },
    );
    return checked.ok ? null : (checked.errors.v ?? null);
  }
  switch (field.type) {
    case 'number': {
      const n = parseFormNumber(value);
      if (n === null) return 'notANumber';
      if (field.minSize !== null && n < field.minSize) return 'tooSmall';
      if (field.maxSize !== null && n > field.maxSize) return 'tooLarge';
      return null;
    }
    case 'date':
      return typeof value === 'string' && isRealDate(value) ? null : 'notADate';
    case 'time':
      return typeof value === 'string' && TIME.test(value) ? null : 'notATime';
    case 'phone':
      return typeof value === 'string' && normalizePhone(value) !== null ? null : 'notAPhone';
    case 'singleChoice':
      return typeof value === 'string' && field.options.includes(value) ? null : 'notAnOption';
    case 'multipleChoice': {
      if (!Array.isArray(value) || value.some((v) => !field.options.includes(v)) || new Set(value).size !== value.length) return 'notAnOption';
      if (field.minSize !== null && value.length < field.minSize && mode === 'submit') return 'tooFewChoices';
      if (field.maxSize !== null && value.length > field.maxSize) return 'tooManyChoices';
      return null;
    }
    case 'checkbox':
      return value === true ? null : 'notAnOption';
    case 'file':
      return isFileValue(value) ? null : 'notAFile';
    case 'image':
    case 'signature':
      return isFileValue(value) ? (value.mime.startsWith('image/') ? null : 'notAnImage') : 'notAFile';
    default:
      return null;
  }
}

/** An answer as stored: trimmed text, a number, digits of a phone with its country code. */
function normalizeValue(field: FormField, value: FormValue): FormValue {
  if (isEmpty(value)) return field.type === 'checkbox' ? false : null;
  switch (field.type) {
    case 'number':
      return parseFormNumber(value);
    case 'phone':
      return normalizePhone(value as string);
    case 'shortText':
    case 'longText':
    case 'email':
    case 'date':
    case 'time':
    case 'singleChoice':
      return (value as string).trim();
    default:
      return value;
  }
}

export type FormCheck = { ok: true; values: FormValues } | { ok: false; errors: Record<string, FormFieldError> };

/**
 * Every answer of a form against the version it was started with. Read-only fields always carry
 * their template value (what the filler sent is ignored); answers to fields the version does not
 * have are dropped. Returns the answers as they are stored, or the error of each failing field.
 */
export function checkFormValues(fields: readonly FormField[], given: Readonly<Record<string, FormValue | undefined>>, mode: 'draft' | 'submit'): FormCheck {
  const errors: Record<string, FormFieldError> = {};
  const values: FormValues = {};
  for (const field of fields) {
    if (field.type === 'heading') continue;
    const value = field.readOnly ? field.defaultValue || null : (given[field.id] ?? null);
    const error = checkValue(field, value, mode);
    if (error) errors[field.id] = error;
    else values[field.id] = normalizeValue(field, value);
  }
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, values };
}

/** What a new form of this version starts with: read-only texts and the designer's defaults. */
export function initialValues(fields: readonly FormField[]): FormValues {
  const values: FormValues = {};
  for (const f of fields) {
    if (f.type === 'heading' || FILE_FIELD_TYPES.has(f.type) || !f.defaultValue) continue;
    if (f.type === 'checkbox') values[f.id] = f.defaultValue === 'true';
    else if (f.type === 'multipleChoice') values[f.id] = f.options.includes(f.defaultValue) ? [f.defaultValue] : [];
    else values[f.id] = f.defaultValue;
  }
  return values;
}

/** A stored phone for people: Brazilian numbers with the mask, (11) 98765-4321; other countries as +digits. */
export function formatPhone(stored: string): string {
  const d = onlyDigits(stored);
  if (d.startsWith('55') && (d.length === 12 || d.length === 13)) return maskBrazilianPhone(d.slice(2));
  return d ? `+${d}` : '';
}

/** Words an answer needs when written out (print, PDF, CSV), in the reader's language. */
export interface AnswerWords {
  yes: string;
  no: string;
}

/** One answer as plain text, for print, PDF and CSV. A file is its name. */
export function answerText(field: FormField, value: FormValue | undefined, words: AnswerWords): string {
  if (value === undefined || value === null) return field.type === 'checkbox' ? words.no : '';
  switch (field.type) {
    case 'checkbox':
      return value === true ? words.yes : words.no;
    case 'multipleChoice':
      return Array.isArray(value) ? value.join('; ') : '';
    case 'phone':
      return typeof value === 'string' ? formatPhone(value) : '';
    case 'date': {
      const m = typeof value === 'string' ? DATE.exec(value) : null;
      return m ? `${m[3]}/${m[2]}/${m[1]}` : String(value);
    }
    case 'file':
    case 'image':
    case 'signature':
      // Stored answers carry the object's key; what clients see has the name only.
      return typeof value === 'object' && !Array.isArray(value) && typeof (value as { name?: unknown }).name === 'string' ? (value as { name: string }).name : '';
    default:
      return typeof value === 'string' ? value : String(value);
  }
}

/** The stored files a form's answers point at (to delete them, or count them). */
export function filesOf(values: Readonly<Record<string, unknown>>): FormFileValue[] {
  return Object.values(values).filter(isFileValue);
}

export { isFileValue };

/**
 * What a 'formulario' message carries: a form sent to the customer side to fill ('requested'), or
 * a submitted form. The chat shows it as a card that opens the form.
 */
export interface FormMessageData {
  formId: string;
  templateId: string;
  name: string;
  version: number;
  state: 'requested' | 'submitted';
  filler: 'member' | 'customer';
  /** A few answers for the card (submitted forms): label and answer as text. */
  preview?: { label: string; text: string }[];
}

export const isFormMessageData = (data: unknown): data is FormMessageData =>
  !!data && typeof data === 'object' && typeof (data as FormMessageData).formId === 'string' && typeof (data as FormMessageData).name === 'string';
