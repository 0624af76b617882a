/**
 * Forms out of the app: every submission of a template as CSV (one column per question over all
 * its versions), and one filled form as a PDF made on the server with pdfkit.
 */
import { pdfkit } from '../../pdfkit';
import type { Readable } from 'node:stream';
import { answerText, isFileValue, type FormField, type FormValues } from '../../../shared/domain/forms';
import { exportFileName, exportWords, toCsv, type ExportWords } from '../../../shared/domain/forms-export';
import { exportColumns } from '../../../shared/domain/forms-versions';
import { detectImageType } from '../../../shared/domain/images';
import { FORM_MESSAGES as M } from '../../../shared/schemas/forms';
import type { ObjectStore } from '../../storage';
import { fail, fieldsOf, visibleTemplate, type FormsContext } from './context';
import type { FormView } from './filling';

/** All submissions of a template, oldest first: admins and the template's editors. */
export async function exportCsv(ctx: FormsContext, templateId: string, lang?: string) {
  const { template, rights } = await visibleTemplate(ctx, templateId);
  if (!rights.export) throw fail('FORBIDDEN', M.notExporter);
  const words = exportWords(lang);
  const [versions, forms] = await Promise.all([
    ctx.db.formTemplateVersion.findMany({ where: { templateId }, orderBy: { version: 'desc' } }),
    ctx.db.filledForm.findMany({
      where: { templateId, companyId: ctx.company.id, status: 'submitted', conversationId: { not: null } },
      orderBy: [{ submittedAt: 'asc' }, { id: 'asc' }],
      include: { conversation: { select: { protocol: true } } },
    }),
  ]);
  const fieldsByVersion = new Map(versions.map((v) => [v.id, new Map(fieldsOf(v.fields).map((f) => [f.id, f]))]));
  const versionNumber = new Map(versions.map((v) => [v.id, v.version]));
  const columns = exportColumns(versions.map((v) => ({ version: v.version, fields: fieldsOf(v.fields) })));
  const header = [words.form, words.submittedAt, words.filledBy, words.conversation, words.version, ...columns.map((c) => c.label)];
  const rows = forms.map((f) => {
    const values = f.values as FormValues;
    const own = fieldsByVersion.get(f.versionId);
    return [
      f.id,
      f.submittedAt?.toISOString() ?? '',
      f.submittedByName ?? '',
      f.conversation?.protocol ?? '',
      String(versionNumber.get(f.versionId) ?? ''),
      ...columns.map((c) => {
        const field = own?.get(c.fieldId);
        // A question this form's version did not have: an empty cell, not a "No".
        return field ? answerText(field, values[c.fieldId], words) : '';
      }),
    ];
  });
  return { fileName: exportFileName(template.name, 'csv'), csv: toCsv([header, ...rows]), count: forms.length };
}

// ---- PDF -------------------------------------------------------------------------------------

/**
 * The built-in PDF fonts (Helvetica) encode WinAnsi only: a character outside it becomes '?'
 * rather than a wrong glyph. Embedding a full Unicode font would add megabytes to every install
 * for scripts our users rarely type (docs/decisions.md, Forms).
 */
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');
export function pdfText(text: string): string {
  let out = '';
  for (const ch of text.normalize('NFC')) {
    const code = ch.codePointAt(0)!;
    out += ch === '\n' || (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.has(ch) ? ch : '?';
  }
  return out;
}

function formatDate(date: Date | string | null, lang: string, timeZone: string | undefined): string {
  if (!date) return '';
  const d = new Date(date);
  try {
    return new Intl.DateTimeFormat(lang, { dateStyle: 'short', timeStyle: 'short', timeZone }).format(d);
  } catch {
    return new Intl.DateTimeFormat(lang, { dateStyle: 'short', timeStyle: 'short', timeZone: 'UTC' }).format(d) + ' UTC';
  }
}

async function readImage(storage: ObjectStore, key: string, maxBytes: number): Promise<Buffer | null> {
  try {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of (await storage.get(key)) as Readable) {
      size += (chunk as Buffer).length;
      if (size > maxBytes) return null;
      chunks.push(chunk as Buffer);
    }
    const body = Buffer.concat(chunks);
    // pdfkit draws PNG and JPEG; anything else is named, not drawn.
    const type = detectImageType(body);
    return type === 'image/png' || type === 'image/jpeg' ? body : null;
  } catch {
    return null;
  }
}

/** Images larger than this are named, not drawn, so one photo cannot make a huge PDF. */
const PDF_IMAGE_MAX_BYTES = 8 * 1_048_576;

/**
 * One filled form as a PDF: its name, company, protocol, version, who filled it and when, then
 * every question with its answer (images and signatures drawn), page numbers at the foot.
 */
export async function formPdf(storage: ObjectStore, form: FormView & { keys: Record<string, string> }, opts: { lang?: string; timeZone?: string }): Promise<Buffer> {
  const words: ExportWords = exportWords(opts.lang);
  const lang = opts.lang ?? 'en';
  const doc = new (pdfkit())({ size: 'A4', margin: 56, bufferPages: true, info: { Title: pdfText(form.name), Creator: 'Atende' } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const width = doc.page.width - doc.page.margins.left - doc.page.margins.right;

  doc.font('Helvetica-Bold').fontSize(18).fillColor('#111').text(pdfText(form.name), { width });
  doc.moveDown(0.3).font('Helvetica').fontSize(9).fillColor('#555');
  const status = form.status === 'submitted' ? words.submitted : form.filler === 'customer' ? words.sent : words.draft;
  const meta = [
    form.companyName,
    form.protocol ? `${words.conversation}: ${form.protocol}` : '',
    `${words.version}: ${form.version}`,
    `${words.status}: ${status}`,
    form.submittedByName ? `${words.filledBy}: ${form.submittedByName}` : '',
    form.submittedAt ? `${words.submittedAt}: ${formatDate(form.submittedAt, lang, opts.timeZone)}` : '',
  ].filter(Boolean);
  doc.text(pdfText(meta.join('  ·  ')), { width });
  doc.moveDown(0.8);

  for (const field of form.fields) await writeField(doc, storage, field, form, words, width);

  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const bottom = doc.page.height - doc.page.margins.bottom + 20;
    doc.font('Helvetica').fontSize(8).fillColor('#777').text(`${words.page} ${i + 1} / ${range.count}`, doc.page.margins.left, bottom, { width, align: 'right', lineBreak: false });
  }
  doc.end();
  return done;
}

async function writeField(doc: PDFKit.PDFDocument, storage: ObjectStore, field: FormField, form: FormView & { keys: Record<string, string> }, words: ExportWords, width: number) {
  if (field.type === 'heading') {
    doc.moveDown(0.6).font('Helvetica-Bold').fontSize(13).fillColor('#111').text(pdfText(field.label), { width });
    if (field.help) doc.font('Helvetica').fontSize(9).fillColor('#555').text(pdfText(field.help), { width });
    const y = doc.y + 3;
    doc.moveTo(doc.page.margins.left, y).lineTo(doc.page.margins.left + width, y).strokeColor('#bbb').lineWidth(0.5).stroke();
    doc.moveDown(0.6);
    return;
  }
  doc.font('Helvetica-Bold').fontSize(10).fillColor('#333').text(pdfText(field.label + (field.required ? ' *' : '')), { width });
  const value = form.values[field.id];
  const key = form.keys[field.id];
  if ((field.type === 'image' || field.type === 'signature') && key) {
    const image = await readImage(storage, key, PDF_IMAGE_MAX_BYTES);
    if (image) {
      const box: [number, number] = field.type === 'signature' ? [220, 90] : [width, 260];
      if (doc.y + box[1] > doc.page.height - doc.page.margins.bottom) doc.addPage();
      doc.moveDown(0.2);
      doc.image(image, { fit: box });
      doc.moveDown(0.8);
      return;
    }
  }
  const text = answerText(field, value as never, words) || '—';
  doc.font('Helvetica').fontSize(11).fillColor('#000').text(pdfText(text), { width });
  doc.moveDown(0.7);
}

/** What formPdf needs beyond the view: the storage keys of image answers (never sent to clients). */
export function imageKeys(fields: readonly FormField[], values: Record<string, unknown>): Record<string, string> {
  const keys: Record<string, string> = {};
  for (const f of fields) {
    const v = values[f.id];
    if ((f.type === 'image' || f.type === 'signature') && isFileValue(v)) keys[f.id] = v.key;
  }
  return keys;
}
