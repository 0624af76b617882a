/**
 * Customers (external contacts): what a contact record holds and how one is checked, the CSV
 * columns an import understands, the CSV an export writes, and how two records of the same person
 * become one. Pure: the contacts service and the browser both use it.
 */
import { normalizePhone } from './phone';

export const CONTACT_SOURCES = ['manual', 'import', 'publicPage', 'channel', 'appointment'] as const;
export type ContactSource = (typeof CONTACT_SOURCES)[number];

export const CONTACT_LIMITS = { name: 120, email: 254, organization: 120, notes: 5000, tag: 40, tags: 30, field: 500 } as const;
/** The largest CSV an import takes, and its most data rows. */
export const IMPORT_MAX_BYTES = 5 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 20_000;

/** The company's additional field as a contact form and an import see it. */
export interface ExtraField {
  tag: string;
  name: string;
  multipleChoice: boolean;
  options: string[];
}

export interface ContactData {
  name: string;
  email: string | null;
  phone: string | null;
  organization: string;
  fields: Record<string, string>;
  tags: string[];
  notes: string;
}

export const CONTACT_MESSAGES = {
  nameRequired: 'Name is required',
  nameTooLong: `A name has at most ${CONTACT_LIMITS.name} characters`,
  invalidEmail: 'Invalid email',
  invalidPhone: 'Invalid phone number',
  tooLong: 'Too long',
  notAnOption: 'Choose one of the options',
  unknownField: 'This field does not exist',
  tooManyTags: `At most ${CONTACT_LIMITS.tags} tags`,
  // Whole-record and import refusals
  notFound: 'Contact not found',
  mergeSame: 'Choose two different contacts to merge',
  emptyFile: 'The file has no rows to import',
  noNameColumn: 'The file needs a "name" column',
  fileTooLarge: 'The file is too large (at most 5 MB)',
  tooManyRows: `The file has more than ${IMPORT_MAX_ROWS.toLocaleString('en')} rows`,
  notCsv: 'The file could not be read as CSV',
  columnCount: 'The row has a different number of columns than the header',
  importNotFound: 'Import not found',
} as const;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export type ContactErrors = Partial<Record<'name' | 'email' | 'phone' | 'organization' | 'notes' | 'tags' | `fields.${string}`, string>>;
export type ContactCheck = { ok: true; contact: ContactData } | { ok: false; errors: ContactErrors };

/** Tags typed as "vip; atacado" or a list: trimmed, deduplicated, empty ones dropped. */
export function cleanTags(raw: string | string[]): string[] {
  const list = Array.isArray(raw) ? raw : raw.split(/[;,|]/);
  return [...new Set(list.map((t) => t.trim()).filter(Boolean))];
}

/** Checks a contact as typed or read from a CSV row, against the company's additional fields. */
export function checkContact(
  input: { name?: string; email?: string | null; phone?: string | null; organization?: string; fields?: Record<string, string>; tags?: string[] | string; notes?: string },
  extras: ExtraField[],
): ContactCheck {
  const errors: ContactErrors = {};
  const name = (input.name ?? '').trim().replace(/\s+/g, ' ');
  if (!name) errors.name = CONTACT_MESSAGES.nameRequired;
  else if (name.length > CONTACT_LIMITS.name) errors.name = CONTACT_MESSAGES.nameTooLong;
  const emailRaw = (input.email ?? '').trim().toLowerCase();
  if (emailRaw && (emailRaw.length > CONTACT_LIMITS.email || !EMAIL.test(emailRaw))) errors.email = CONTACT_MESSAGES.invalidEmail;
  const phoneRaw = (input.phone ?? '').trim();
  const phone = phoneRaw ? normalizePhone(phoneRaw) : null;
  if (phoneRaw && (!phone || /[^\d\s+().-]/.test(phoneRaw))) errors.phone = CONTACT_MESSAGES.invalidPhone;
  const organization = (input.organization ?? '').trim();
  if (organization.length > CONTACT_LIMITS.organization) errors.organization = CONTACT_MESSAGES.tooLong;
  const notes = (input.notes ?? '').trim();
  if (notes.length > CONTACT_LIMITS.notes) errors.notes = CONTACT_MESSAGES.tooLong;
  const tags = cleanTags(input.tags ?? []);
  if (tags.length > CONTACT_LIMITS.tags || tags.some((t) => t.length > CONTACT_LIMITS.tag)) errors.tags = CONTACT_MESSAGES.tooManyTags;
  const fields: Record<string, string> = {};
  const byTag = new Map(extras.map((x) => [x.tag, x]));
  for (const [tag, rawValue] of Object.entries(input.fields ?? {})) {
    const value = String(rawValue ?? '').trim();
    const extra = byTag.get(tag);
    if (!extra) {
      errors[`fields.${tag}`] = CONTACT_MESSAGES.unknownField;
      continue;
    }
    if (!value) continue;
    if (value.length > CONTACT_LIMITS.field) errors[`fields.${tag}`] = CONTACT_MESSAGES.tooLong;
    else if (extra.multipleChoice && !extra.options.includes(value)) errors[`fields.${tag}`] = CONTACT_MESSAGES.notAnOption;
    else fields[tag] = value;
  }
  if (Object.keys(errors).length) return { ok: false, errors };
  return { ok: true, contact: { name, email: emailRaw || null, phone, organization, fields, tags, notes } };
}

// ---- CSV ------------------------------------------------------------------------------------

/** Header words an import recognises for each column (accents and case ignored). */
const COLUMN_ALIASES: Record<'name' | 'email' | 'phone' | 'organization' | 'tags' | 'notes', string[]> = {
  name: ['name', 'nome', 'nombre', 'full name', 'nome completo'],
  email: ['email', 'e-mail', 'mail', 'correo'],
  phone: ['phone', 'telefone', 'telefono', 'celular', 'mobile', 'whatsapp', 'telefon'],
  organization: ['company', 'empresa', 'organization', 'organizacao', 'azienda', 'firma'],
  tags: ['tags', 'tag', 'etiquetas'],
  notes: ['notes', 'notas', 'anotacoes', 'observacoes', 'note', 'notizen', 'note'],
};

export const headerKey = (h: string) =>
  h
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .trim()
    .toLowerCase();

export type ColumnTarget = { kind: 'base'; key: keyof typeof COLUMN_ALIASES } | { kind: 'field'; tag: string } | { kind: 'ignored' };

/** What each CSV column fills: a contact's own field, an additional field (by TAG or name), or nothing. */
export function mapColumns(header: string[], extras: ExtraField[]): ColumnTarget[] {
  return header.map((h) => {
    const key = headerKey(h);
    for (const [base, aliases] of Object.entries(COLUMN_ALIASES)) if (aliases.includes(key)) return { kind: 'base', key: base as keyof typeof COLUMN_ALIASES };
    const extra = extras.find((x) => headerKey(x.tag) === key || headerKey(x.name) === key);
    return extra ? { kind: 'field', tag: extra.tag } : { kind: 'ignored' };
  });
}

/** One CSV row as contact input, by the column mapping. */
export function rowToInput(row: string[], columns: ColumnTarget[]) {
  const input: { name?: string; email?: string; phone?: string; organization?: string; tags?: string; notes?: string; fields: Record<string, string> } = { fields: {} };
  columns.forEach((c, i) => {
    const value = row[i] ?? '';
    if (c.kind === 'base') input[c.key] = value;
    else if (c.kind === 'field') input.fields[c.tag] = value;
  });
  return input;
}

/** The first error of a refused row, as one line of the import report. */
export function rowErrorText(errors: ContactErrors): string {
  const [key, message] = Object.entries(errors)[0] ?? ['', ''];
  return key.startsWith('fields.') ? `${key.slice(7)}: ${message}` : `${key}: ${message}`;
}

/** A CSV cell: quoted when needed, and a leading = + - @ neutralised so spreadsheets never run it. */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n;]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function toCsv(rows: string[][]): string {
  // The BOM makes spreadsheet programs read the file as UTF-8 (accents).
  return `\uFEFF${rows.map((r) => r.map(csvCell).join(',')).join('\r\n')}\r\n`;
}

// ---- merge ----------------------------------------------------------------------------------

/**
 * Two records of the same person become one: the kept record's values win, its empty ones are
 * filled from the other; tags, additional fields and accounts are united; notes are joined.
 */
export function mergeContactData<T extends ContactData & { userIds: string[] }>(kept: T, other: T): ContactData & { userIds: string[] } {
  return {
    name: kept.name || other.name,
    email: kept.email ?? other.email,
    phone: kept.phone ?? other.phone,
    organization: kept.organization || other.organization,
    fields: { ...other.fields, ...kept.fields },
    tags: cleanTags([...kept.tags, ...other.tags]),
    notes: [kept.notes, other.notes].filter(Boolean).join('\n\n').slice(0, CONTACT_LIMITS.notes),
    userIds: [...new Set([...kept.userIds, ...other.userIds])],
  };
}
