/**
 * What the server writes out of forms for people: the CSV of a template's submissions and the
 * words of the PDF. These are made on the server, outside the client's Lingui catalogs, so the
 * few words they carry are here in the five languages; the client passes the reader's language.
 */
import { LOCALES, type Locale } from '../constants';
import type { AnswerWords } from './forms';

export interface ExportWords extends AnswerWords {
  form: string;
  version: string;
  filledBy: string;
  submittedAt: string;
  conversation: string;
  status: string;
  draft: string;
  sent: string;
  submitted: string;
  page: string;
}

export const EXPORT_WORDS: Record<Locale, ExportWords> = {
  en: { yes: 'Yes', no: 'No', form: 'Form', version: 'Version', filledBy: 'Filled in by', submittedAt: 'Submitted at', conversation: 'Protocol', status: 'Status', draft: 'Draft', sent: 'Waiting for the customer', submitted: 'Submitted', page: 'Page' },
  pt: { yes: 'Sim', no: 'Não', form: 'Formulário', version: 'Versão', filledBy: 'Preenchido por', submittedAt: 'Enviado em', conversation: 'Protocolo', status: 'Situação', draft: 'Rascunho', sent: 'Aguardando o cliente', submitted: 'Enviado', page: 'Página' },
  es: { yes: 'Sí', no: 'No', form: 'Formulario', version: 'Versión', filledBy: 'Rellenado por', submittedAt: 'Enviado el', conversation: 'Protocolo', status: 'Estado', draft: 'Borrador', sent: 'Esperando al cliente', submitted: 'Enviado', page: 'Página' },
  it: { yes: 'Sì', no: 'No', form: 'Modulo', version: 'Versione', filledBy: 'Compilato da', submittedAt: 'Inviato il', conversation: 'Protocollo', status: 'Stato', draft: 'Bozza', sent: 'In attesa del cliente', submitted: 'Inviato', page: 'Pagina' },
  de: { yes: 'Ja', no: 'Nein', form: 'Formular', version: 'Version', filledBy: 'Ausgefüllt von', submittedAt: 'Gesendet am', conversation: 'Protokoll', status: 'Status', draft: 'Entwurf', sent: 'Wartet auf den Kunden', submitted: 'Gesendet', page: 'Seite' },
};

export const exportWords = (lang: string | undefined): ExportWords => EXPORT_WORDS[(LOCALES as readonly string[]).includes(lang ?? '') ? (lang as Locale) : 'en'];

/**
 * One CSV cell. A cell a spreadsheet would run as a formula (=, +, -, @, tab or carriage return
 * first) is prefixed with an apostrophe (OWASP's CSV injection advice): an answer a customer typed
 * must never execute on an attendant's computer.
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** Rows as CSV (RFC 4180, CRLF), with a byte-order mark so spreadsheets read it as UTF-8. */
export function toCsv(rows: readonly (readonly string[])[]): string {
  return `\uFEFF${rows.map((r) => r.map(csvCell).join(',')).join('\r\n')}\r\n`;
}

/** A file name from a form's name: letters, digits, dash and underscore. */
export function exportFileName(name: string, extension: 'csv' | 'pdf'): string {
  const base = name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return `${base || 'form'}.${extension}`;
}
