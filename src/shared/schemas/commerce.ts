import { z } from 'zod';
import { BUDGET_MAX_ITEMS, PRICE_MAX_CENTS, PRODUCT_CODE_MAX, PRODUCT_NAME_MAX, QUANTITY_MAX } from '../domain/commerce';
import { domainSchema } from './company';

const id = z.uuid();
const inCompany = { domain: domainSchema };
const cents = z.number().int().min(0).max(PRICE_MAX_CENTS);

export const commerceCompanyInput = z.object(inCompany);

export const productsInput = z.object({ ...inCompany, search: z.string().trim().max(PRODUCT_NAME_MAX).optional() });

export const saveProductInput = z.object({
  ...inCompany,
  productId: id.optional(),
  code: z.string().trim().min(1, 'Informe o código').max(PRODUCT_CODE_MAX),
  name: z.string().trim().min(1, 'Informe o nome').max(PRODUCT_NAME_MAX),
  quantity: z.number().int().min(0).max(QUANTITY_MAX),
  priceCents: cents,
});

export const productInput = z.object({ ...inCompany, productId: id });

/** A CSV as text (the screen reads the file); about 5,000 rows fit. */
export const importCsvInput = z.object({ ...inCompany, csv: z.string().min(1).max(1_000_000) });

export const conversationBudgetsInput = z.object({ ...inCompany, conversationId: id });

export const budgetItemInput = z.object({
  productId: id,
  quantity: z.number().int().min(1).max(QUANTITY_MAX),
  discountPercent: z.number().int().min(0).max(100).default(0),
});

export const createBudgetInput = z.object({
  ...inCompany,
  conversationId: id,
  items: z.array(budgetItemInput).min(1, 'Inclua ao menos um produto no orçamento').max(BUDGET_MAX_ITEMS),
  discountCents: cents.default(0),
  validUntil: z.coerce.date(),
  notes: z.string().max(1000).default(''),
  /** Send to the customer at once (else it stays a draft the attendant sends later). */
  send: z.boolean().default(false),
});

export const updateBudgetInput = z.object({
  ...inCompany,
  budgetId: id,
  items: createBudgetInput.shape.items,
  discountCents: cents.default(0),
  validUntil: z.coerce.date(),
  notes: z.string().max(1000).default(''),
});

export const budgetInMemberInput = z.object({ ...inCompany, budgetId: id });

export const salesInput = z.object({ ...inCompany, limit: z.number().int().min(1).max(200).default(50) });

/** Either side, by id: the service decides who may read it (participants and the company's members). */
export const budgetInput = z.object({ budgetId: id });
export const saleInput = z.object({ saleId: id });
