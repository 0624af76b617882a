import { defineConfig } from '@lingui/cli';

/**
 * Interface languages (spec: en, es, pt, it, de; default English (US)). English is the source:
 * the texts in the code are English and pt/es/it/de are translations of them.
 * `npm run lingui:extract` refreshes the catalogs; the Vite plugin compiles them at build time.
 */
export default defineConfig({
  locales: ['en', 'pt', 'es', 'it', 'de'],
  sourceLocale: 'en',
  catalogs: [
    {
      path: '<rootDir>/src/client/locales/{locale}/messages',
      include: ['<rootDir>/src/client'],
      exclude: ['**/node_modules/**', '<rootDir>/src/client/locales/**'],
    },
  ],
  // .po files, ordered by message and with file names but no line numbers: editing a screen does
  // not reshuffle or rewrite every catalog, so parallel branches merge cleanly.
  formatOptions: { lineNumbers: false },
  orderBy: 'message',
});
