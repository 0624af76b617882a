/**
 * Link shortening behind one interface (ARCHITECTURE: third-party services). The HTTP driver
 * speaks the spec's protocol (calls-errors-constants 7.2): GET {url}?format=json&key={key}
 * &login={login}&longUrl={long link}, the short link read from the answer's data.url. Any failure
 * (down, slow, refusal, unexpected body) gives the long link back, and so does having no
 * service configured: a link always works, it is only longer.
 */
import type { Logger } from '../logger';

export interface LinkShortener {
  readonly kind: 'http' | 'none';
  /** The short link, or the long one when shortening is off or fails. */
  shorten(longUrl: string): Promise<string>;
}

export const noShortener: LinkShortener = { kind: 'none', shorten: async (longUrl) => longUrl };

const TIMEOUT_MS = 5_000;
/** Links already shortened: the same long link is asked for on every visit of the invitation page. */
const CACHE_MAX = 1000;

export function httpShortener(opts: { url: string; key?: string; login?: string; logger: Logger; fetch?: typeof fetch }): LinkShortener {
  const doFetch = opts.fetch ?? fetch;
  const cache = new Map<string, string>();
  return {
    kind: 'http',
    async shorten(longUrl) {
      const known = cache.get(longUrl);
      if (known) return known;
      const url = new URL(opts.url);
      url.searchParams.set('format', 'json');
      if (opts.key) url.searchParams.set('key', opts.key);
      if (opts.login) url.searchParams.set('login', opts.login);
      url.searchParams.set('longUrl', longUrl);
      try {
        const res = await doFetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
        if (!res.ok) throw new Error(`link shortener answered ${res.status}`);
        const body = (await res.json()) as { data?: { url?: unknown } };
        const short = body?.data?.url;
        if (typeof short !== 'string' || !/^https?:\/\//i.test(short)) throw new Error('link shortener answered without data.url');
        if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
        cache.set(longUrl, short);
        return short;
      } catch (err) {
        opts.logger.warn({ err }, 'link shortening failed; the long link is used');
        return longUrl;
      }
    },
  };
}

export function createShortener(config: { url?: string; key?: string; login?: string }, logger: Logger): LinkShortener {
  return config.url ? httpShortener({ url: config.url, key: config.key, login: config.login, logger }) : noShortener;
}
