/** Subtitle rules: who toggles, who gets which language, and what a translation costs. */
import { describe, expect, it } from 'vitest';
import {
  baseLanguage,
  characterCount,
  SUBTITLE_MESSAGES as S,
  subtitleDeliveries,
  subtitlesToggleRefusal,
  translationCharge,
} from '../../src/shared/domain/subtitles';

describe('translationCharge', () => {
  it('is characters x price per character, to 4 places', () => {
    expect(translationCharge(11, '0.0005')).toBe('0.0055');
    expect(translationCharge(0, '0.0005')).toBe('0.0000');
    expect(translationCharge(1000, '0.0005')).toBe('0.5000');
    expect(translationCharge(3, '0.000125')).toBe('0.0004'); // 0.000375 rounds half up
    expect(translationCharge(1, '0.00005')).toBe('0.0001'); // 0.00005 -> half up
    expect(translationCharge(1, '0.000049')).toBe('0.0000');
    expect(translationCharge(7, '2')).toBe('14.0000');
  });
  it('refuses what is not a count or a price', () => {
    expect(() => translationCharge(-1, '0.0005')).toThrow();
    expect(() => translationCharge(1.5, '0.0005')).toThrow();
    expect(() => translationCharge(1, '-0.0005')).toThrow();
    expect(() => translationCharge(1, 'abc')).toThrow();
  });
  it('counts characters as people do', () => {
    expect(characterCount('Olá')).toBe(3);
    expect(characterCount('👋 oi')).toBe(4);
  });
});

describe('subtitle deliveries', () => {
  const l = (userId: string, subtitlesOn: boolean, translationOn: boolean, language: 'en' | 'pt' | 'de' | null) => ({ userId, subtitlesOn, translationOn, language });
  it('sends to listeners with subtitles on; translation per language for those who asked and speak another', () => {
    const d = subtitleDeliveries('pt', [l('a', true, false, 'en'), l('b', true, true, 'en'), l('c', true, true, 'de'), l('d', true, true, 'en'), l('e', false, true, 'de'), l('f', true, true, 'pt')], true);
    expect(d.original.sort()).toEqual(['a', 'f']);
    expect(Object.fromEntries(d.byLanguage)).toEqual({ en: ['b', 'd'], de: ['c'] });
  });
  it('without translation (plan or translator missing) or an unknown spoken language, everyone reads the original', () => {
    expect(subtitleDeliveries('pt', [l('b', true, true, 'en')], false)).toEqual({ original: ['b'], byLanguage: new Map() });
    expect(subtitleDeliveries(null, [l('b', true, true, 'en')], true)).toEqual({ original: ['b'], byLanguage: new Map() });
  });
});

describe('subtitles toggle and languages', () => {
  it('owner or admin, with plan transc', () => {
    expect(subtitlesToggleRefusal({ isOwner: true, isAdmin: false, planTransc: 1 })).toBeNull();
    expect(subtitlesToggleRefusal({ isOwner: false, isAdmin: true, planTransc: 1 })).toBeNull();
    expect(subtitlesToggleRefusal({ isOwner: false, isAdmin: false, planTransc: 1 })).toBe(S.ownerOrAdmin);
    expect(subtitlesToggleRefusal({ isOwner: true, isAdmin: true, planTransc: 0 })).toBe(S.planNoTransc);
  });
  it('reads the recogniser tags as our languages', () => {
    expect(baseLanguage('pt-BR')).toBe('pt');
    expect(baseLanguage('en_US')).toBe('en');
    expect(baseLanguage('DE')).toBe('de');
    expect(baseLanguage('fr-FR')).toBeNull();
    expect(baseLanguage(null)).toBeNull();
  });
});
