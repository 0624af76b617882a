/**
 * Commerce rules (products, budgets, sales), pure. Money is integer cents of the company's currency
 * (BRL); every figure here stays an integer, rounded once per line, half up.
 *
 * The feature is Portuguese only (spec 2, "products (Portuguese only)"), so its sentences are
 * Portuguese here and on its screens (docs/decisions.md, Commerce).
 */

export const PRICE_MAX_CENTS = 100_000_000; // R$ 1.000.000,00 per unit
export const QUANTITY_MAX = 100_000;
export const BUDGET_MAX_ITEMS = 100;
export const BUDGET_MAX_VALIDITY_DAYS = 365;
export const PRODUCT_CODE_MAX = 40;
export const PRODUCT_NAME_MAX = 120;
export const IMPORT_MAX_ROWS = 5_000;

export const BUDGET_STATUSES = ['draft', 'sent', 'accepted', 'declined', 'expired'] as const;
export type BudgetStatus = (typeof BUDGET_STATUSES)[number];

export const COMMERCE_MESSAGES = {
  productNotFound: 'Produto não encontrado',
  codeTaken: 'Já existe um produto com este código',
  budgetNotFound: 'Orçamento não encontrado',
  saleNotFound: 'Venda não encontrada',
  noItems: 'Inclua ao menos um produto no orçamento',
  tooManyItems: `Um orçamento tem no máximo ${BUDGET_MAX_ITEMS} itens`,
  discountTooHigh: 'O desconto não pode ser maior que o valor do orçamento',
  validityPast: 'A validade deve ser uma data futura',
  validityTooFar: `A validade deve ser de no máximo ${BUDGET_MAX_VALIDITY_DAYS} dias`,
  notDraft: 'Este orçamento já foi enviado',
  notSent: 'Este orçamento não está aguardando resposta',
  expired: 'Este orçamento expirou',
  alreadyAccepted: 'Este orçamento já foi aceito',
  alreadyDeclined: 'Este orçamento já foi recusado',
  noCustomer: 'Não há cliente nesta conversa para receber o orçamento',
  customerOnly: 'Somente o cliente pode aceitar ou recusar o orçamento',
  notCsv: 'O arquivo não é um CSV válido',
  emptyFile: 'O arquivo não tem produtos',
  tooManyRows: `O arquivo tem mais de ${IMPORT_MAX_ROWS} produtos`,
  missingColumns: 'O arquivo deve ter as colunas codigo, nome, quantidade e preco',
  invalidRows: 'O arquivo tem linhas inválidas; nada foi importado',
} as const;

/** The sentence for a sale refused because the stock ran out (the other buyer got there first). */
export function insufficientStockMessage(name: string, available: number): string {
  return available <= 0 ? `Estoque insuficiente: "${name}" esgotou` : `Estoque insuficiente: "${name}" tem apenas ${available} em estoque`;
}

// ---- money ------------------------------------------------------------------------------------

/** One line: quantity × unit price, less its discount in whole percent, rounded half up once. */
export function lineTotalCents(quantity: number, unitPriceCents: number, discountPercent: number): number {
  const gross = quantity * unitPriceCents; // ≤ QUANTITY_MAX × PRICE_MAX_CENTS: exact in a double
  return Math.floor((gross * (100 - discountPercent) + 50) / 100);
}

export interface LineInput {
  quantity: number;
  unitPriceCents: number;
  discountPercent: number;
}

export interface BudgetTotals {
  lines: number[];
  /** Sum of the lines after their own discounts. */
  subtotalCents: number;
  discountCents: number;
  totalCents: number;
}

export type TotalsResult = { ok: true; totals: BudgetTotals } | { ok: false; message: string };

/** The budget's figures, or why it cannot be made (no items, discount above the subtotal). */
export function budgetTotals(items: readonly LineInput[], discountCents: number): TotalsResult {
  if (items.length === 0) return { ok: false, message: COMMERCE_MESSAGES.noItems };
  if (items.length > BUDGET_MAX_ITEMS) return { ok: false, message: COMMERCE_MESSAGES.tooManyItems };
  const lines = items.map((i) => lineTotalCents(i.quantity, i.unitPriceCents, i.discountPercent));
  const subtotalCents = lines.reduce((a, b) => a + b, 0);
  if (discountCents < 0 || discountCents > subtotalCents) return { ok: false, message: COMMERCE_MESSAGES.discountTooHigh };
  return { ok: true, totals: { lines, subtotalCents, discountCents, totalCents: subtotalCents - discountCents } };
}

/** 'R$ 1.234,56' (pt-BR), without floats. */
export function formatCents(cents: number): string {
  const negative = cents < 0;
  const abs = Math.abs(Math.trunc(cents));
  const reais = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `${negative ? '-' : ''}R$ ${reais},${String(abs % 100).padStart(2, '0')}`;
}

/**
 * A price as people type it ("12,50", "1.234,56", "12.5", "R$ 3") into cents; null when it is
 * not one. The last ',' or '.' followed by one or two digits is the decimal separator.
 */
export function parsePriceCents(text: string): number | null {
  const clean = text.trim().replace(/^R\$\s*/i, '');
  const m = /^(\d{1,3}(?:[.,\s]\d{3})*|\d+)(?:[.,](\d{1,2}))?$/.exec(clean);
  if (!m) return null;
  const cents = Number(m[1]!.replace(/[.,\s]/g, '')) * 100 + Number((m[2] ?? '0').padEnd(2, '0'));
  return Number.isSafeInteger(cents) && cents <= PRICE_MAX_CENTS ? cents : null;
}

/** Cents as a CSV/plain decimal with a comma ("1234,56"), what Brazilian spreadsheets read. */
export function centsToDecimal(cents: number): string {
  return `${Math.floor(cents / 100)},${String(cents % 100).padStart(2, '0')}`;
}

// ---- validity and status ----------------------------------------------------------------------

/** Why a validity date cannot be set now, or null. */
export function validityProblem(validUntil: Date, now: Date): string | null {
  if (validUntil.getTime() <= now.getTime()) return COMMERCE_MESSAGES.validityPast;
  if (validUntil.getTime() - now.getTime() > BUDGET_MAX_VALIDITY_DAYS * 86_400_000) return COMMERCE_MESSAGES.validityTooFar;
  return null;
}

/** A sent budget past its validity is expired, whether or not a write has recorded it yet. */
export function effectiveStatus(budget: { status: string; validUntil: Date }, now: Date): BudgetStatus {
  const status = (BUDGET_STATUSES as readonly string[]).includes(budget.status) ? (budget.status as BudgetStatus) : 'draft';
  return status === 'sent' && now.getTime() > budget.validUntil.getTime() ? 'expired' : status;
}

const TRANSITIONS: Readonly<Record<BudgetStatus, readonly BudgetStatus[]>> = {
  draft: ['sent'],
  sent: ['accepted', 'declined', 'expired'],
  accepted: [],
  declined: [],
  expired: [],
};

export function canTransition(from: BudgetStatus, to: BudgetStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

/** Why a budget (as it is now) cannot move to `to`, or null. */
export function transitionRefusal(budget: { status: string; validUntil: Date }, to: BudgetStatus, now: Date): string | null {
  const from = effectiveStatus(budget, now);
  if (canTransition(from, to)) return null;
  switch (from) {
    case 'draft':
      return COMMERCE_MESSAGES.notSent;
    case 'accepted':
      return COMMERCE_MESSAGES.alreadyAccepted;
    case 'declined':
      return COMMERCE_MESSAGES.alreadyDeclined;
    case 'expired':
      return COMMERCE_MESSAGES.expired;
    case 'sent':
      return COMMERCE_MESSAGES.notDraft;
  }
}

export const STATUS_LABELS: Readonly<Record<BudgetStatus, string>> = {
  draft: 'Rascunho',
  sent: 'Aguardando resposta',
  accepted: 'Aceito',
  declined: 'Recusado',
  expired: 'Expirado',
};

// ---- stock ------------------------------------------------------------------------------------

/**
 * The first line the stock cannot serve, adding up lines of the same product; null when every
 * line fits. `stock` maps a product id to its quantity now (a product gone from the catalogue
 * counts as none left).
 */
export function stockShortage(
  lines: readonly { productId: string | null; name: string; quantity: number }[],
  stock: ReadonlyMap<string, number>,
): { name: string; available: number } | null {
  const wanted = new Map<string, number>();
  for (const line of lines) {
    const available = line.productId ? (stock.get(line.productId) ?? 0) : 0;
    const total = (line.productId ? (wanted.get(line.productId) ?? 0) : 0) + line.quantity;
    if (line.productId) wanted.set(line.productId, total);
    if (total > available) return { name: line.name, available };
  }
  return null;
}

// ---- CSV --------------------------------------------------------------------------------------

export const CSV_HEADER = ['codigo', 'nome', 'quantidade', 'preco'] as const;

const normalizeHeader = (h: string) =>
  h
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .trim()
    .toLowerCase();

export interface ProductRow {
  code: string;
  name: string;
  quantity: number;
  priceCents: number;
}

export type RowCheck = { ok: true; product: ProductRow } | { ok: false; error: string };

/** Column index of each of the four fields in a header, or null when one is missing. */
export function productColumns(header: readonly string[]): Record<(typeof CSV_HEADER)[number], number> | null {
  const names = header.map(normalizeHeader);
  const alias: Record<string, (typeof CSV_HEADER)[number]> = { codigo: 'codigo', code: 'codigo', nome: 'nome', name: 'nome', quantidade: 'quantidade', quantity: 'quantidade', preco: 'preco', price: 'preco' };
  const out: Partial<Record<(typeof CSV_HEADER)[number], number>> = {};
  names.forEach((n, i) => {
    const key = alias[n];
    if (key && out[key] === undefined) out[key] = i;
  });
  return CSV_HEADER.every((k) => out[k] !== undefined) ? (out as Record<(typeof CSV_HEADER)[number], number>) : null;
}

/** One product as a person would type it (form or CSV row): trimmed, checked. */
export function checkProduct(input: { code: string; name: string; quantity: string | number; price: string | number }): RowCheck {
  const code = input.code.trim();
  const name = input.name.trim().replace(/\s+/g, ' ');
  if (!code) return { ok: false, error: 'Informe o código' };
  if (code.length > PRODUCT_CODE_MAX) return { ok: false, error: `O código tem no máximo ${PRODUCT_CODE_MAX} caracteres` };
  if (!name) return { ok: false, error: 'Informe o nome' };
  if (name.length > PRODUCT_NAME_MAX) return { ok: false, error: `O nome tem no máximo ${PRODUCT_NAME_MAX} caracteres` };
  const quantity = typeof input.quantity === 'number' ? input.quantity : /^\s*\d+\s*$/.test(input.quantity) ? Number(input.quantity) : NaN;
  if (!Number.isSafeInteger(quantity) || quantity < 0 || quantity > QUANTITY_MAX) return { ok: false, error: `Quantidade inválida (de 0 a ${QUANTITY_MAX})` };
  const priceCents = typeof input.price === 'number' ? input.price : parsePriceCents(input.price);
  if (priceCents === null || !Number.isSafeInteger(priceCents) || priceCents < 0 || priceCents > PRICE_MAX_CENTS) return { ok: false, error: 'Preço inválido' };
  return { ok: true, product: { code, name, quantity, priceCents } };
}

// ---- in the conversation ----------------------------------------------------------------------

/**
 * What an 'orcamento' message carries: a budget sent to the customer ('sent'), or the customer's
 * answer ('accepted' with the sale it became, 'declined'). Screens read the budget's live status
 * by id; these figures are what it said when the message was written.
 */
export interface BudgetMessageData {
  budgetId: string;
  state: 'sent' | 'accepted' | 'declined';
  totalCents: number;
  validUntil: string;
  items: number;
  saleId?: string;
}
