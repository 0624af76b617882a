import { useLingui } from '@lingui/react/macro';
import { chooseLocale, isLocale, LOCALE_NAMES, LOCALES } from '../i18n';

export function LanguagePicker() {
  const { i18n, t } = useLingui();
  return (
    <select
      className="language-picker"
      aria-label={t`Language`}
      value={i18n.locale}
      onChange={(event) => {
        if (isLocale(event.target.value)) void chooseLocale(event.target.value);
      }}
    >
      {LOCALES.map((locale) => (
        <option key={locale} value={locale} lang={locale}>
          {LOCALE_NAMES[locale]}
        </option>
      ))}
    </select>
  );
}
