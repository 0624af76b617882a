/**
 * A budget or a sale as a PDF (pdfkit, as the forms' PDF; docs/decisions.md, Commerce): the
 * company, the document's number and dates, a table of the lines, the totals. Portuguese only,
 * like the feature; dates in the time zone the browser names (São Paulo by default).
 */
import { pdfkit } from '../../pdfkit';
import { formatCents, STATUS_LABELS } from '../../../shared/domain/commerce';
import { pdfText } from '../forms/export';
import type { BudgetView, SaleView } from './service';

type Line = Omit<BudgetView['items'][number], 'productId'>;

const shortId = (id: string) => id.slice(0, 8).toUpperCase();

function formatDate(date: Date, timeZone: string, withTime = false): string {
  try {
    return new Intl.DateTimeFormat('pt-BR', { timeZone, dateStyle: 'short', ...(withTime && { timeStyle: 'short' }) }).format(date);
  } catch {
    return new Intl.DateTimeFormat('pt-BR', { timeZone: 'America/Sao_Paulo', dateStyle: 'short', ...(withTime && { timeStyle: 'short' }) }).format(date);
  }
}

interface Doc {
  title: string;
  companyName: string;
  meta: string[];
  items: Line[];
  subtotalCents: number;
  discountCents: number;
  totalCents: number;
  notes?: string;
}

function render(d: Doc): Promise<Buffer> {
  const doc = new (pdfkit())({ size: 'A4', margin: 48, bufferPages: true, info: { Title: pdfText(d.title), Creator: 'Atende' } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  doc.font('Helvetica-Bold').fontSize(11).fillColor('#555').text(pdfText(d.companyName), { width });
  doc.font('Helvetica-Bold').fontSize(20).fillColor('#111').text(pdfText(d.title), { width });
  doc.moveDown(0.3).font('Helvetica').fontSize(9).fillColor('#444');
  for (const line of d.meta) doc.text(pdfText(line), { width });
  doc.moveDown(1);

  // Columns: code, product, quantity, unit price, discount, total.
  const cols = [
    { label: 'Código', w: 0.14, align: 'left' as const },
    { label: 'Produto', w: 0.34, align: 'left' as const },
    { label: 'Qtd.', w: 0.08, align: 'right' as const },
    { label: 'Preço unit.', w: 0.16, align: 'right' as const },
    { label: 'Desc.', w: 0.1, align: 'right' as const },
    { label: 'Total', w: 0.18, align: 'right' as const },
  ];
  const row = (cells: string[], bold = false) => {
    if (doc.y > doc.page.height - doc.page.margins.bottom - 40) doc.addPage();
    const y = doc.y;
    let x = left;
    let bottom = y;
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(9).fillColor('#111');
    cells.forEach((text, i) => {
      const w = cols[i]!.w * width;
      doc.text(pdfText(text), x + 2, y, { width: w - 4, align: cols[i]!.align });
      bottom = Math.max(bottom, doc.y);
      x += w;
    });
    doc.moveTo(left, bottom + 3).lineTo(left + width, bottom + 3).strokeColor('#ddd').lineWidth(0.5).stroke();
    doc.x = left;
    doc.y = bottom + 6;
  };
  row(cols.map((c) => c.label), true);
  for (const i of d.items) row([i.code, i.name, String(i.quantity), formatCents(i.unitPriceCents), i.discountPercent ? `${i.discountPercent}%` : '—', formatCents(i.totalCents)]);

  doc.moveDown(0.5).font('Helvetica').fontSize(10).fillColor('#111');
  const total = (label: string, value: string, bold = false) => doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(bold ? 12 : 10).text(pdfText(`${label}: ${value}`), left, doc.y, { width, align: 'right' });
  total('Subtotal', formatCents(d.subtotalCents));
  if (d.discountCents) total('Desconto', `- ${formatCents(d.discountCents)}`);
  total('Total', formatCents(d.totalCents), true);
  if (d.notes) doc.moveDown(1).font('Helvetica').fontSize(9).fillColor('#444').text(pdfText(`Observações: ${d.notes}`), left, doc.y, { width });

  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const bottom = doc.page.height - doc.page.margins.bottom + 20;
    doc.font('Helvetica').fontSize(8).fillColor('#777').text(`Página ${i + 1} / ${range.count}`, left, bottom, { width, align: 'right', lineBreak: false });
  }
  doc.end();
  return done;
}

export function budgetPdf(b: BudgetView, timeZone: string): Promise<Buffer> {
  return render({
    title: `Orçamento ${shortId(b.id)}`,
    companyName: b.companyName,
    meta: [
      `Situação: ${STATUS_LABELS[b.status]}`,
      `Emitido em ${formatDate(b.sentAt ?? b.createdAt, timeZone, true)} por ${b.createdByName}`,
      `Válido até ${formatDate(b.validUntil, timeZone)}`,
      b.customerNames.length ? `Cliente: ${b.customerNames.join(', ')}` : '',
    ].filter(Boolean),
    items: b.items,
    subtotalCents: b.subtotalCents,
    discountCents: b.discountCents,
    totalCents: b.totalCents,
    notes: b.notes,
  });
}

export function salePdf(s: SaleView, timeZone: string): Promise<Buffer> {
  return render({
    title: `Venda ${shortId(s.id)}`,
    companyName: s.companyName,
    meta: [`Data: ${formatDate(s.createdAt, timeZone, true)}`, `Cliente: ${s.customerName}`, `Atendente: ${s.attendantName}`, `Orçamento ${shortId(s.budgetId)}`],
    items: s.items,
    subtotalCents: s.subtotalCents,
    discountCents: s.discountCents,
    totalCents: s.totalCents,
  });
}

export const pdfFileName = (kind: 'orcamento' | 'venda', id: string) => `${kind}-${shortId(id).toLowerCase()}.pdf`;
