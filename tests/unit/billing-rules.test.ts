import { describe, expect, it } from 'vitest';
import { toCsv } from '../../src/client/features/reports/csv';
import { ConfigError, loadConfig } from '../../src/server/config';
import { twoPlaces } from '../../src/server/modules/billing/providers/pagseguro';
import { topUpAmount } from '../../src/shared/schemas/billing';
import { adjustCreditsInput, pricesInput } from '../../src/shared/schemas/operator';
import { reportInput } from '../../src/shared/schemas/reports';
import { parseForm } from '../helpers/stripe-server';

describe('payment settings', () => {
  it('need both Stripe keys or neither, and name the missing one', () => {
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'sk_test_1' })).toThrow(ConfigError);
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'sk_test_1' })).toThrow('STRIPE_WEBHOOK_SECRET');
    expect(() => loadConfig({ STRIPE_WEBHOOK_SECRET: 'whsec_1' })).toThrow('STRIPE_SECRET_KEY');
    expect(loadConfig({}).payments).toEqual({ currency: 'brl', graceDays: 3 });
    expect(loadConfig({ STRIPE_SECRET_KEY: 'sk', STRIPE_WEBHOOK_SECRET: 'wh', OPERATOR_EMAILS: ' A@b.c , d@e.f' })).toMatchObject({
      payments: { stripe: { secretKey: 'sk', webhookSecret: 'wh' } },
      operatorEmails: ['a@b.c', 'd@e.f'],
    });
  });

  it('need both PagSeguro settings or neither, and never PagSeguro and Stripe together', () => {
    expect(() => loadConfig({ PAGSEGURO_EMAIL: 'a@b.c' })).toThrow('PAGSEGURO_TOKEN');
    expect(() => loadConfig({ PAGSEGURO_TOKEN: 'T' })).toThrow('PAGSEGURO_EMAIL');
    expect(() => loadConfig({ PAGSEGURO_EMAIL: 'a@b.c', PAGSEGURO_TOKEN: 'T', STRIPE_SECRET_KEY: 'sk', STRIPE_WEBHOOK_SECRET: 'wh' })).toThrow('not both');
    expect(loadConfig({ PAGSEGURO_EMAIL: 'a@b.c', PAGSEGURO_TOKEN: 'T', PUBLIC_URL: 'https://app.example.com' }).payments.pagseguro).toEqual({
      email: 'a@b.c',
      token: 'T',
      apiUrl: 'https://ws.pagseguro.uol.com.br',
      checkoutUrl: 'https://pagseguro.uol.com.br',
      staticUrl: 'https://stc.pagseguro.uol.com.br',
      notificationUrl: 'https://app.example.com/webhooks/payments/pagseguro',
    });
  });

  it('PagSeguro amounts carry exactly two decimals', () => {
    expect(['1', '20.5', '0099.99', '100000'].map(twoPlaces)).toEqual(['1.00', '20.50', '99.99', '100000.00']);
    expect(() => twoPlaces('1.234')).toThrow();
  });
});

describe('money inputs', () => {
  it('take decimal strings with at most two decimals, never floats or exponents', () => {
    for (const ok of ['1', '20.5', '100000', '0099.99']) expect(topUpAmount.safeParse(ok).success, ok).toBe(true);
    for (const bad of ['0', '0.99', '100000.01', '1.234', '1e3', '-1', ' ', 'NaN']) expect(topUpAmount.safeParse(bad).success, bad).toBe(false);
    expect(adjustCreditsInput.safeParse({ companyDomain: 'acme', amount: '-12.50', note: 'x' }).success).toBe(true);
    expect(pricesInput.safeParse({ voice: '0.0001', video: '1', share: '0', recording: '2.5', translatePerChar: '0.000001' }).success).toBe(true);
  });

  it('report periods run forwards and at most a year, in a known time zone', () => {
    const base = { domain: 'acme', from: '2026-01-01', to: '2026-01-31' };
    expect(reportInput.safeParse(base).success).toBe(true);
    expect(reportInput.safeParse({ ...base, to: '2025-12-31' }).success).toBe(false);
    expect(reportInput.safeParse({ ...base, to: '2027-06-01' }).success).toBe(false);
    expect(reportInput.safeParse({ ...base, timeZone: 'America/Sao_Paulo' }).success).toBe(true);
    expect(reportInput.safeParse({ ...base, timeZone: "UTC'; DROP TABLE x" }).success).toBe(false);
  });
});

describe('CSV and Stripe form encoding', () => {
  it('quotes what needs quoting', () => {
    expect(toCsv(['a', 'b'], [['x,y', 'say "hi"'], [1, null]])).toBe('a,b\r\n"x,y","say ""hi"""\r\n1,\r\n');
  });
  it('parses nested keys the way Stripe encodes them', () => {
    expect(parseForm('line_items[0][price_data][unit_amount]=500&metadata[paymentId]=p1&expand[0]=payment_intent&mode=payment')).toEqual({
      line_items: [{ price_data: { unit_amount: '500' } }],
      metadata: { paymentId: 'p1' },
      expand: ['payment_intent'],
      mode: 'payment',
    });
  });
});
