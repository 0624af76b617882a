import { describe, expect, it } from 'vitest';
import {
  budgetTotals,
  canTransition,
  checkProduct,
  COMMERCE_MESSAGES as M,
  effectiveStatus,
  formatCents,
  insufficientStockMessage,
  lineTotalCents,
  parsePriceCents,
  PRICE_MAX_CENTS,
  productColumns,
  QUANTITY_MAX,
  stockShortage,
  transitionRefusal,
  validityProblem,
} from '../../src/shared/domain/commerce';

describe('commerce money', () => {
  it('rounds each line once, half up, in integer cents', () => {
    expect(lineTotalCents(3, 333, 0)).toBe(999);
    expect(lineTotalCents(1, 999, 10)).toBe(899); // 899.1
    expect(lineTotalCents(1, 995, 10)).toBe(896); // 895.5 → 896
    expect(lineTotalCents(2, 1, 50)).toBe(1);
    expect(lineTotalCents(5, 1000, 100)).toBe(0);
    // The largest line stays exact.
    expect(lineTotalCents(QUANTITY_MAX, PRICE_MAX_CENTS, 1)).toBe(QUANTITY_MAX * PRICE_MAX_CENTS * 0.99);
  });

  it('totals a budget, and refuses no items or a discount above the subtotal', () => {
    const r = budgetTotals(
      [
        { quantity: 2, unitPriceCents: 1050, discountPercent: 0 },
        { quantity: 1, unitPriceCents: 2000, discountPercent: 25 },
      ],
      100,
    );
    expect(r).toEqual({ ok: true, totals: { lines: [2100, 1500], subtotalCents: 3600, discountCents: 100, totalCents: 3500 } });
    expect(budgetTotals([], 0)).toEqual({ ok: false, message: M.noItems });
    expect(budgetTotals([{ quantity: 1, unitPriceCents: 100, discountPercent: 0 }], 101)).toEqual({ ok: false, message: M.discountTooHigh });
    expect(budgetTotals([{ quantity: 1, unitPriceCents: 100, discountPercent: 0 }], 100)).toMatchObject({ ok: true, totals: { totalCents: 0 } });
  });

  it('formats and parses Brazilian prices without floats', () => {
    expect(formatCents(123456)).toBe('R$ 1.234,56');
    expect(formatCents(5)).toBe('R$ 0,05');
    expect(parsePriceCents('12,50')).toBe(1250);
    expect(parsePriceCents('1.234,56')).toBe(123456);
    expect(parsePriceCents('12.5')).toBe(1250);
    expect(parsePriceCents('R$ 3')).toBe(300);
    expect(parsePriceCents('0,1')).toBe(10);
    expect(parsePriceCents('abc')).toBeNull();
    expect(parsePriceCents('-1')).toBeNull();
    expect(parsePriceCents('1,234')).toBe(123400); // a thousands separator, not decimals
    expect(parsePriceCents('99999999999')).toBeNull();
  });
});

describe('budget validity and status', () => {
  const now = new Date('2026-11-27T12:00:00Z');
  it('needs a future validity within a year', () => {
    expect(validityProblem(new Date('2026-11-27T11:00:00Z'), now)).toBe(M.validityPast);
    expect(validityProblem(new Date('2026-12-27T11:00:00Z'), now)).toBeNull();
    expect(validityProblem(new Date('2028-01-01T00:00:00Z'), now)).toBe(M.validityTooFar);
  });

  it('a sent budget past its validity is expired; the others keep their status', () => {
    const past = new Date('2026-11-26T00:00:00Z');
    expect(effectiveStatus({ status: 'sent', validUntil: past }, now)).toBe('expired');
    expect(effectiveStatus({ status: 'accepted', validUntil: past }, now)).toBe('accepted');
    expect(effectiveStatus({ status: 'sent', validUntil: new Date('2026-12-01') }, now)).toBe('sent');
  });

  it('moves draft → sent → accepted | declined | expired, never back', () => {
    expect(canTransition('draft', 'sent')).toBe(true);
    expect(canTransition('sent', 'accepted')).toBe(true);
    expect(canTransition('sent', 'declined')).toBe(true);
    expect(canTransition('draft', 'accepted')).toBe(false);
    expect(canTransition('accepted', 'declined')).toBe(false);
    expect(canTransition('declined', 'sent')).toBe(false);
    const future = new Date('2026-12-01');
    expect(transitionRefusal({ status: 'sent', validUntil: future }, 'accepted', now)).toBeNull();
    expect(transitionRefusal({ status: 'sent', validUntil: new Date('2026-11-01') }, 'accepted', now)).toBe(M.expired);
    expect(transitionRefusal({ status: 'accepted', validUntil: future }, 'declined', now)).toBe(M.alreadyAccepted);
    expect(transitionRefusal({ status: 'draft', validUntil: future }, 'accepted', now)).toBe(M.notSent);
  });
});

describe('stock', () => {
  it('adds lines of the same product and names the first that does not fit', () => {
    const stock = new Map([
      ['a', 3],
      ['b', 1],
    ]);
    expect(stockShortage([{ productId: 'a', name: 'A', quantity: 3 }], stock)).toBeNull();
    expect(
      stockShortage(
        [
          { productId: 'a', name: 'A', quantity: 2 },
          { productId: 'a', name: 'A', quantity: 2 },
        ],
        stock,
      ),
    ).toEqual({ name: 'A', available: 3 });
    expect(stockShortage([{ productId: null, name: 'Gone', quantity: 1 }], stock)).toEqual({ name: 'Gone', available: 0 });
    expect(insufficientStockMessage('Cabo', 0)).toBe('Estoque insuficiente: "Cabo" esgotou');
    expect(insufficientStockMessage('Cabo', 2)).toBe('Estoque insuficiente: "Cabo" tem apenas 2 em estoque');
  });
});

describe('product rows', () => {
  it('finds the columns by name, accents and case aside', () => {
    expect(productColumns(['Código', 'Nome', 'Quantidade', 'Preço'])).toEqual({ codigo: 0, nome: 1, quantidade: 2, preco: 3 });
    expect(productColumns(['price', 'code', 'name', 'quantity'])).toEqual({ codigo: 1, nome: 2, quantidade: 3, preco: 0 });
    expect(productColumns(['codigo', 'nome'])).toBeNull();
  });

  it('checks a product as typed', () => {
    expect(checkProduct({ code: ' P1 ', name: ' Cabo   USB ', quantity: '10', price: '12,90' })).toEqual({
      ok: true,
      product: { code: 'P1', name: 'Cabo USB', quantity: 10, priceCents: 1290 },
    });
    expect(checkProduct({ code: '', name: 'x', quantity: 1, price: 1 })).toMatchObject({ ok: false });
    expect(checkProduct({ code: 'a', name: 'x', quantity: '-1', price: '1' })).toMatchObject({ ok: false });
    expect(checkProduct({ code: 'a', name: 'x', quantity: '1.5', price: '1' })).toMatchObject({ ok: false });
    expect(checkProduct({ code: 'a', name: 'x', quantity: '1', price: 'grátis' })).toEqual({ ok: false, error: 'Preço inválido' });
  });
});
