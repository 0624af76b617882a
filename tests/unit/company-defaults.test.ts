import { describe, expect, it } from 'vitest';
import { DEFAULT_GREETING, LOCALES } from '../../src/shared/constants';
import { COMPANY_DEFAULTS, companyDefaults } from '../../src/shared/domain/company-defaults';
import { defaultContactUs } from '../../src/shared/domain/contact-us';
import { fillGreeting } from '../../src/shared/domain/greeting';

describe("a new company's starting texts", () => {
  it('exist in every language of the interface, complete, with both greeting placeholders', () => {
    expect(Object.keys(COMPANY_DEFAULTS).sort()).toEqual([...LOCALES].sort());
    for (const language of LOCALES) {
      const d = COMPANY_DEFAULTS[language];
      const texts = [d.greeting, d.queueName, ...Object.values(d.profileNames), ...Object.values(d.contactUsLabels)];
      expect(texts.every((text) => text.trim().length > 0), language).toBe(true);
      expect(d.greeting, language).toContain('[nomecliente]');
      expect(d.greeting, language).toContain('[nomeempresa]');
    }
    // Real translations, not copies of the Portuguese.
    const queues = new Set(LOCALES.map((l) => COMPANY_DEFAULTS[l].queueName));
    expect(queues.size).toBe(LOCALES.length);
  });

  it("are the spec's texts in Portuguese", () => {
    expect(COMPANY_DEFAULTS.pt.greeting).toBe(DEFAULT_GREETING);
    expect(COMPANY_DEFAULTS.pt.queueName).toBe('Fale Conosco');
    expect(defaultContactUs('Acme', COMPANY_DEFAULTS.pt).fields.map((f) => f.label)).toEqual(['Nome', 'E-mail', 'Telefone', 'Mensagem']);
  });

  it('follow a language tag, and fall back to English', () => {
    expect(companyDefaults('pt-BR')).toBe(COMPANY_DEFAULTS.pt);
    expect(companyDefaults('DE')).toBe(COMPANY_DEFAULTS.de);
    expect(companyDefaults('fr')).toBe(COMPANY_DEFAULTS.en);
    expect(companyDefaults(null)).toBe(COMPANY_DEFAULTS.en);
  });

  it('fill the greeting in the same way in every language', () => {
    expect(fillGreeting(COMPANY_DEFAULTS.es.greeting, { customerName: 'Maria', companyName: 'Acme' })).toMatch(/^Hola Maria, .*empresa Acme\./);
  });
});
