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

type Catalog = { messages: Messages };
// At start only the messages of the first download (the shell, the recent list, the chat shell):
// a build-time subset of the catalogue (vite.config.ts, shellCatalog). The whole catalogue of the
// language loads before any other chunk runs: the build makes every dynamic import wait for
// `globalThis.__fullCatalog` (issue 22, target 6).
const SHELL_CATALOGS: Record<Locale, () => Promise<Catalog>> = {
  en: () => import('virtual:shell-catalog/en') as Promise<Catalog>,
  pt: () => import('virtual:shell-catalog/pt') as Promise<Catalog>,
  es: () => import('virtual:shell-catalog/es') as Promise<Catalog>,
  it: () => import('virtual:shell-catalog/it') as Promise<Catalog>,
  de: () => import('virtual:shell-catalog/de') as Promise<Catalog>,
};
const fullCatalog = (locale: Locale) => import(`./locales/${locale}/messages.po`) as Promise<Catalog>;
/** Set once some screen beyond the first download was asked for: languages switch to whole catalogues. */
let wholeWanted = false;
const whole = new Map<Locale, Promise<void>>();

/** Loads the whole catalogue of `locale` into Lingui (once); the screens re-render with it. */
function loadWhole(locale: Locale): Promise<void> {
  let done = whole.get(locale);
  if (!done) {
    done = fullCatalog(locale).then(({ messages }) => i18n.load(locale, messages));
    // A failed fetch may be retried by the next screen.
    done.catch(() => whole.delete(locale));
    whole.set(locale, done);
  }
  return done;
}

(globalThis as { __fullCatalog?: () => Promise<void> }).__fullCatalog = () => {
  wholeWanted = true;
  return isLocale(i18n.locale) ? loadWhole(i18n.locale) : Promise.resolve();
};

/** Loads the catalog (its own small chunk per language) and switches the whole UI to it. */
export async function activateLocale(locale: Locale): Promise<void> {
  const request = ++latestRequest;
  if (!wholeWanted) {
    const { messages } = await SHELL_CATALOGS[locale]();
    // A slower catalog must not overwrite a language the user picked after it.
    if (request !== latestRequest) return;
    // Merged into what is loaded (the whole catalogue may have arrived first).
    i18n.load(locale, messages);
  }
  // Checked again after the wait: a screen beyond the first download may have been asked for
  // while the subset loaded, and __fullCatalog then fetched the whole catalogue of the language
  // active at that moment, not of this one. Activating on the subset alone showed that screen's
  // texts as message ids (seen as an intermittent failure of the picker's e2e test).
  if (wholeWanted) {
    await loadWhole(locale);
    if (request !== latestRequest) return;
  }
  i18n.activate(locale);
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
