import { i18n, type Messages } from '@lingui/core';

export const LOCALES = ['en', 'pt', 'es', 'it', 'de'] as const;
export type Locale = (typeof LOCALES)[number];
/** Spec: the default language is English (US). */
export const DEFAULT_LOCALE: Locale = 'en';
/** Each language named in itself, so someone who cannot read the current one still finds theirs. */
export const LOCALE_NAMES: Record<Locale, string> = {
  en: 'English',
  pt: 'Português',
  es: 'Español',
  it: 'Italiano',
  de: 'Deutsch',
};
const STORAGE_KEY = 'lang';

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** The user's earlier choice, else the browser's first language we offer, else English. */
export function detectLocale(): Locale {
  const stored = readStored();
  if (isLocale(stored)) return stored;
  const preferred = navigator.languages?.length ? navigator.languages : [navigator.language];
  for (const tag of preferred) {
    const language = tag?.toLowerCase().split('-')[0];
    if (isLocale(language)) return language;
  }
  return DEFAULT_LOCALE;
}

let latestRequest = 0;

/** Loads the catalog (its own small chunk per language) and switches the whole UI to it. */
export async function activateLocale(locale: Locale): Promise<void> {
  const request = ++latestRequest;
  const { messages } = (await import(`./locales/${locale}/messages.po`)) as { messages: Messages };
  // A slower catalog must not overwrite a language the user picked after it.
  if (request !== latestRequest) return;
  i18n.loadAndActivate({ locale, messages });
  document.documentElement.lang = locale;
}

/** The language picker's action: switch now and remember it for the next visit. */
export async function chooseLocale(locale: Locale): Promise<void> {
  await activateLocale(locale);
  try {
    localStorage.setItem(STORAGE_KEY, locale);
  } catch {
    // Private modes may refuse storage; the choice then lasts for this page only.
  }
}

function readStored(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}
