/**
 * Live subtitles and translation in calls (spec: Subtitles; Call legenda, priceTranslate;
 * participant legendaAtiva, traducaoAtiva, idioma; Transcript line). Pure rules: who may toggle,
 * who receives a line in which language, and what a translation costs.
 */
import { toUnits, fromUnits } from './billing';

/** Refusals and notices; English source texts, translated by the client (guard/serverMessages). */
export const SUBTITLE_MESSAGES = {
  /** Told to everyone when the call's subtitles are turned off ('Transcrição desativada'). */
  transcriptionOff: 'Transcription turned off',
  ownerOrAdmin: 'Only the owner of the call or an administrator can turn subtitles on or off',
  planNoTransc: 'Subtitles are not included in your plan. Ask an administrator to enable them.',
  planNoTranslate: 'Translation is not included in your plan. Ask an administrator to enable it.',
  subtitlesOff: 'Subtitles are off in this call',
  badLanguage: 'This language is not available for subtitles',
  invalidTranscript: 'This subtitle line could not be read',
} as const;

/** Languages a listener may pick (the product's selectable languages). */
export const SUBTITLE_LANGUAGES = ['en', 'pt', 'es', 'it', 'de'] as const;
export type SubtitleLanguage = (typeof SUBTITLE_LANGUAGES)[number];

/** A BCP 47 tag from the browser ('pt-BR', 'en_US', 'DE') as one of ours, or null. */
export function baseLanguage(tag: string | null | undefined): SubtitleLanguage | null {
  if (!tag) return null;
  const base = tag.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  return (SUBTITLE_LANGUAGES as readonly string[]).includes(base) ? (base as SubtitleLanguage) : null;
}

/** Turning the call's subtitles on or off: owner or admin, and the plan's transc. */
export function subtitlesToggleRefusal(input: { isOwner: boolean; isAdmin: boolean; planTransc: number }): string | null {
  if (!input.isOwner && !input.isAdmin) return SUBTITLE_MESSAGES.ownerOrAdmin;
  if (input.planTransc <= 0) return SUBTITLE_MESSAGES.planNoTransc;
  return null;
}

export interface Listener {
  userId: string;
  subtitlesOn: boolean;
  translationOn: boolean;
  /** Their chosen language, else their UI language, else null (no translation possible). */
  language: SubtitleLanguage | null;
}

/**
 * Who gets a line, and in which language: listeners with subtitles on; those with translation on
 * and another language than the speaker's get it translated (one translation per language, shared
 * by everyone who reads it). `translate` false (plan or translator missing) leaves all original.
 */
export function subtitleDeliveries(spoken: SubtitleLanguage | null, listeners: Listener[], translate: boolean) {
  const original: string[] = [];
  const byLanguage = new Map<SubtitleLanguage, string[]>();
  for (const l of listeners) {
    if (!l.subtitlesOn) continue;
    const target = translate && l.translationOn && l.language && spoken && l.language !== spoken ? l.language : null;
    if (!target) {
      original.push(l.userId);
      continue;
    }
    byLanguage.set(target, [...(byLanguage.get(target) ?? []), l.userId]);
  }
  return { original, byLanguage };
}

/** Characters as people count them (code points, so an accent or emoji is one). */
export const characterCount = (text: string) => [...text].length;

/**
 * A translation's charge: characters x price per character (priceTranslate, default 0.0005),
 * rounded half up to the 4 places a balance keeps.
 */
export function translationCharge(characters: number, pricePerChar: string): string {
  if (!Number.isInteger(characters) || characters < 0) throw new Error(`characters must be a whole number >= 0, got ${characters}`);
  // Price to 6 places (the column's scale), as millionths; the product back to 4 places.
  const m = /^(\d+)(?:\.(\d{1,6}))?$/.exec(pricePerChar.trim());
  if (!m) throw new Error(`not a price per character: ${pricePerChar}`);
  const micro = BigInt(m[1]!) * 1_000_000n + BigInt((m[2] ?? '').padEnd(6, '0'));
  const total = micro * BigInt(characters); // millionths
  const q = total / 100n;
  const rounded = (total % 100n) * 2n >= 100n ? q + 1n : q;
  return fromUnits(rounded);
}

export const isFree = (amount: string) => toUnits(amount) === 0n;
