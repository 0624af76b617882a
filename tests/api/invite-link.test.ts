/**
 * The company's invitation link: shortened through the link shortener speaking the spec's
 * protocol (GET with format, key, login and the long URL; data.url), against a local server; on
 * any failure, and with none configured, the long link. A QR code of the link comes with it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import QRCode from 'qrcode';
import { createLogger } from '../../src/server/logger';
import { httpShortener } from '../../src/server/shortener';
import { startTestServer, type TestServer } from '../helpers/server';
import { serviceCompany, type ClientSocket } from '../helpers/service';
import { startShortener } from '../helpers/shortener';

let shortener: Awaited<ReturnType<typeof startShortener>>;
let server: TestServer;
let plain: TestServer;
const sockets: ClientSocket[] = [];
beforeAll(async () => {
  shortener = await startShortener();
  server = await startTestServer({ env: { LINK_SHORTENER_URL: shortener.url, LINK_SHORTENER_KEY: shortener.key, LINK_SHORTENER_LOGIN: shortener.login } });
  plain = await startTestServer();
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await server?.close();
  await plain?.close();
  await shortener?.close();
});

describe('the invitation link', () => {
  it('is shortened by the configured service, with a QR code of the short link', async () => {
    const c = await serviceCompany(server, sockets);
    const bia = await c.attendant('Bia');
    const member = await server.db.member.findFirstOrThrow({ where: { companyId: c.company.id, userId: bia.userId } });
    const link = await bia.call('inviteLink.get', { domain: c.domain }, 'query');
    const longUrl = `${server.url}/${c.domain}/newc/${member.id}`;
    expect(link).toMatchObject({ url: 'https://sho.rt/1', longUrl, shortened: true, companyName: c.company.name });
    const asked = shortener.requests.at(-1)!;
    expect(Object.fromEntries(asked)).toEqual({ format: 'json', key: shortener.key, login: shortener.login, longUrl });
    expect(link.qrDataUrl).toBe(await QRCode.toDataURL('https://sho.rt/1', { errorCorrectionLevel: 'M', margin: 2, width: 256 }));
    // Outsiders get no link to a company they are not in.
    const other = await serviceCompany(server, sockets);
    expect((await other.admin.attempt('inviteLink.get', { domain: c.domain }, 'query')).error?.code).toBe('FORBIDDEN');
  });

  it('falls back to the long link when the service is down, refuses or answers without data.url; and with none configured', async () => {
    const logger = createLogger('silent');
    const long = 'http://localhost:3000/acme/newc/123';
    for (const mode of ['down', 'noUrl'] as const) {
      shortener.state.mode = mode;
      expect(await httpShortener({ url: shortener.url, key: shortener.key, login: shortener.login, logger }).shorten(long)).toBe(long);
    }
    shortener.state.mode = 'ok';
    expect(await httpShortener({ url: shortener.url, key: 'wrong', login: shortener.login, logger }).shorten(long)).toBe(long);
    expect(await httpShortener({ url: 'http://127.0.0.1:9/unreachable', logger }).shorten(long)).toBe(long);
    expect(await httpShortener({ url: shortener.url, key: shortener.key, login: shortener.login, logger }).shorten(long)).toMatch(/^https:\/\/sho\.rt\/\d+$/);

    const c = await serviceCompany(plain, sockets);
    const link = await c.admin.call('inviteLink.get', { domain: c.domain }, 'query');
    expect(link.shortened).toBe(false);
    expect(link.url).toBe(link.longUrl);
    expect(link.url).toMatch(new RegExp(`^${plain.url}/${c.domain}/newc/[0-9a-f-]{36}$`));
  });
});
