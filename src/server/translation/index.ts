/**
 * Machine translation behind one interface (ARCHITECTURE: third-party services). The HTTP driver
 * speaks the spec's protocol, the shape of Azure Translator v3: POST {url}?api-version=3.0&from=&to=
 * with a body [{ Text }], the text read from the first item's translations[0].text. Any failure
 * (down, slow, unexpected body) is null: subtitles then show the original text, and nothing is billed.
 */
import type { Logger } from '../logger';

export interface Translator {
  /** "none" when nothing is configured: the caller skips translating (and billing) altogether. */
  readonly kind: 'http' | 'none';
  translate(text: string, from: string, to: string): Promise<string | null>;
}

export const noTranslator: Translator = { kind: 'none', translate: async () => null };

const TIMEOUT_MS = 5_000;

export function httpTranslator(opts: { url: string; key?: string; logger: Logger; fetch?: typeof fetch }): Translator {
  const doFetch = opts.fetch ?? fetch;
  return {
    kind: 'http',
    async translate(text, from, to) {
      const url = new URL(opts.url);
      url.searchParams.set('api-version', '3.0');
      url.searchParams.set('from', from);
      url.searchParams.set('to', to);
      try {
        const res = await doFetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(opts.key && { 'Ocp-Apim-Subscription-Key': opts.key }) },
          body: JSON.stringify([{ Text: text }]),
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
        if (!res.ok) throw new Error(`translator answered ${res.status}`);
        const body = (await res.json()) as Array<{ translations?: Array<{ text?: unknown }> }>;
        const translated = body?.[0]?.translations?.[0]?.text;
        if (typeof translated !== 'string') throw new Error('translator answered without a translation');
        return translated;
      } catch (err) {
        opts.logger.warn({ err, from, to }, 'translation failed');
        return null;
      }
    },
  };
}

export function createTranslator(config: { url?: string; key?: string }, logger: Logger): Translator {
  return config.url ? httpTranslator({ url: config.url, key: config.key, logger }) : noTranslator;
}
