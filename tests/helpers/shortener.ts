import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local link-shortening service speaking the spec's protocol (calls-errors-constants 7.2):
 * GET ?format=json&key=&login=&longUrl= answers { status_code: 200, data: { url } }. With the
 * wrong key it answers a refusal; `mode` makes it fail on purpose (down with 500, or an answer
 * without data.url).
 */
export async function startShortener(opts: { key?: string; login?: string } = {}) {
  const key = opts.key ?? 'short-key';
  const login = opts.login ?? 'atende';
  const requests: URLSearchParams[] = [];
  const state = { mode: 'ok' as 'ok' | 'down' | 'noUrl' };
  const short = new Map<string, string>();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://local');
    requests.push(url.searchParams);
    const p = url.searchParams;
    if (req.method !== 'GET' || state.mode === 'down') return void res.writeHead(500).end('down');
    if (p.get('format') !== 'json' || p.get('key') !== key || p.get('login') !== login || !p.get('longUrl')) {
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status_code: 500, status_txt: 'INVALID_APIKEY', data: [] }));
    }
    if (state.mode === 'noUrl') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status_code: 200, data: {} }));
    const long = p.get('longUrl')!;
    if (!short.has(long)) short.set(long, `https://sho.rt/${short.size + 1}`);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status_code: 200, status_txt: 'OK', data: { url: short.get(long), long_url: long } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v3/shorten`,
    key,
    login,
    requests,
    state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
