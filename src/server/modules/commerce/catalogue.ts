/**
 * The product catalogue (admins edit it; every member reads it to build budgets) and its CSV:
 * export as the spreadsheet columns codigo, nome, quantidade, preco; import checks every row
 * first and writes all or nothing, in one statement (a product whose code exists is updated).
 */
import { parse } from 'csv-parse/sync';
import { Prisma } from '../../../generated/prisma/client';
import { centsToDecimal, checkProduct, COMMERCE_MESSAGES as M, CSV_HEADER, IMPORT_MAX_ROWS, productColumns, type ProductRow } from '../../../shared/domain/commerce';
import { toCsv } from '../../../shared/domain/forms-export';
import { fail, WRITE_TX, type CommerceContext } from './context';

const view = (p: { id: string; code: string; name: string; quantity: number; priceCents: number; updatedAt: Date }) => ({
  id: p.id,
  code: p.code,
  name: p.name,
  quantity: p.quantity,
  priceCents: p.priceCents,
  updatedAt: p.updatedAt,
});
export type ProductView = ReturnType<typeof view>;

export async function listProducts(ctx: CommerceContext, search?: string) {
  const q = search?.trim();
  const rows = await ctx.db.product.findMany({
    where: {
      companyId: ctx.company.id,
      ...(q && { OR: [{ code: { contains: q, mode: 'insensitive' } }, { name: { contains: q, mode: 'insensitive' } }] }),
    },
    orderBy: [{ name: 'asc' }, { code: 'asc' }],
    take: 1000,
  });
  return rows.map(view);
}

const isUniqueViolation = (err: unknown) => err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002';

/** Creates a product, or changes one of this company's (productId). */
export async function saveProduct(ctx: CommerceContext, input: { productId?: string; code: string; name: string; quantity: number; priceCents: number }) {
  const checked = checkProduct({ code: input.code, name: input.name, quantity: input.quantity, price: input.priceCents });
  if (!checked.ok) throw fail('BAD_REQUEST', checked.error);
  const data = { ...checked.product, updatedAt: ctx.clock.now() };
  try {
    if (!input.productId) return view(await ctx.db.product.create({ data: { ...data, companyId: ctx.company.id, createdAt: data.updatedAt } }));
    const { count } = await ctx.db.product.updateMany({ where: { id: input.productId, companyId: ctx.company.id }, data });
    if (count === 0) throw fail('NOT_FOUND', M.productNotFound);
    return view(await ctx.db.product.findUniqueOrThrow({ where: { id: input.productId } }));
  } catch (err) {
    if (isUniqueViolation(err)) throw fail('CONFLICT', M.codeTaken);
    throw err;
  }
}

/** Budgets and sales keep their own copy of each line, so a product can go at any time. */
export async function removeProduct(ctx: CommerceContext, productId: string) {
  const { count } = await ctx.db.product.deleteMany({ where: { id: productId, companyId: ctx.company.id } });
  if (count === 0) throw fail('NOT_FOUND', M.productNotFound);
  return { removed: true };
}

export async function exportCsv(ctx: CommerceContext) {
  const rows = await ctx.db.product.findMany({ where: { companyId: ctx.company.id }, orderBy: [{ code: 'asc' }] });
  const csv = toCsv([[...CSV_HEADER], ...rows.map((p) => [p.code, p.name, String(p.quantity), centsToDecimal(p.priceCents)])]);
  return { fileName: 'produtos.csv', csv, count: rows.length };
}

/** Cells of a CSV: ',' or ';' as the header uses (a price "12,50" forces ';' in Brazilian sheets). */
function readCsv(text: string): string[][] {
  const firstLine = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  const delimiter = (firstLine.match(/;/g)?.length ?? 0) > (firstLine.match(/,/g)?.length ?? 0) ? ';' : ',';
  try {
    return parse(text, { bom: true, delimiter, relax_column_count: true, skip_empty_lines: true }) as string[][];
  } catch {
    throw fail('BAD_REQUEST', M.notCsv);
  }
}

export async function importCsv(ctx: CommerceContext, text: string) {
  const [header, ...data] = readCsv(text);
  const columns = header ? productColumns(header) : null;
  if (!columns) throw fail('BAD_REQUEST', header ? M.missingColumns : M.emptyFile);
  const products: ProductRow[] = [];
  const errors: { row: number; error: string }[] = [];
  const seen = new Map<string, number>();
  data.forEach((cells, i) => {
    const row = i + 2; // as a spreadsheet numbers it: the header is row 1
    if (!cells.some((c) => c.trim())) return;
    const checked = checkProduct({ code: cells[columns.codigo] ?? '', name: cells[columns.nome] ?? '', quantity: cells[columns.quantidade] ?? '', price: cells[columns.preco] ?? '' });
    if (!checked.ok) return void errors.push({ row, error: checked.error });
    const key = checked.product.code.toLowerCase();
    if (seen.has(key)) return void errors.push({ row, error: `Código repetido (linha ${seen.get(key)})` });
    seen.set(key, row);
    products.push(checked.product);
  });
  if (products.length + errors.length === 0) throw fail('BAD_REQUEST', M.emptyFile);
  if (products.length + errors.length > IMPORT_MAX_ROWS) throw fail('BAD_REQUEST', M.tooManyRows);
  if (errors.length) {
    const first = errors.slice(0, 5).map((e) => `linha ${e.row}: ${e.error}`);
    throw fail('BAD_REQUEST', `${M.invalidRows} (${first.join('; ')}${errors.length > 5 ? '; …' : ''})`);
  }
  const now = ctx.clock.now();
  // One statement for the whole file: created and updated rows are told apart by xmax.
  const rows = await ctx.db.$transaction(
    (tx) => tx.$queryRaw<{ inserted: boolean }[]>`
      INSERT INTO "Product" ("id", "companyId", "code", "name", "quantity", "priceCents", "createdAt", "updatedAt")
      SELECT gen_random_uuid(), ${ctx.company.id}::uuid, t.code, t.name, t.quantity, t.price, ${now}, ${now}
      FROM unnest(${products.map((p) => p.code)}::text[], ${products.map((p) => p.name)}::text[],
                  ${products.map((p) => p.quantity)}::int[], ${products.map((p) => p.priceCents)}::int[]) AS t(code, name, quantity, price)
      ON CONFLICT ("companyId", "code") DO UPDATE SET "name" = EXCLUDED."name", "quantity" = EXCLUDED."quantity",
        "priceCents" = EXCLUDED."priceCents", "updatedAt" = EXCLUDED."updatedAt"
      RETURNING (xmax = 0) AS inserted`,
    WRITE_TX,
  );
  const created = rows.filter((r) => r.inserted).length;
  return { created, updated: rows.length - created };
}
