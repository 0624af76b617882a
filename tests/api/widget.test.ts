/**
 * The embeddable widget over real HTTP: the script and its caching, who may frame which page,
 * the widget's anonymous session carried in a Bearer header and the socket handshake (the
 * iframe gets no cookie on another site), and the visitor's estimated wait from recent takes.
 */
import { io as connect } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { personFor, serviceCompany, type ClientSocket, type Person } from '../helpers/service';
import { startTestServer, type TestServer } from '../helpers/server';
import { callProcedure } from '../helpers/trpc';

let server: TestServer;
const sockets: ClientSocket[] = [];
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await server?.close();
});

/** A widget visitor as the iframe holds one: a token, no cookie. */
async function widgetVisitor(): Promise<Person & { token: string }> {
  const res = await callProcedure(server.url, 'auth.embedSession', {}, { type: 'mutation' });
  expect(res.cookies).toEqual([]);
  const { token, me } = res.data as { token: string; me: { user: { id: string; anonymous: boolean } } };
  expect(me.user.anonymous).toBe(true);
  const person = personFor(server, me.user.id, '', sockets);
  const attempt: Person['attempt'] = async (path, input = {}, type = 'mutation') => {
    const r = await callProcedure(server.url, path, input, { type, headers: { authorization: `Bearer ${token}` } });
    return { data: r.data, error: r.error };
  };
  return {
    ...person,
    token,
    attempt,
    call: async (path, input = {}, type = 'mutation') => {
      const r = await attempt(path, input, type);
      if (r.error) throw Object.assign(new Error(r.error.message), { code: r.error.code });
      return r.data;
    },
  };
}

describe('the widget script and framing', () => {
  it('serves a cacheable script with the right type, revalidated by its ETag', async () => {
    const res = await fetch(`${server.url}/widget.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(await res.text()).toContain('data-domain');
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/);
    expect((await fetch(`${server.url}/widget.js`, { headers: { 'if-none-match': etag } })).status).toBe(304);
  });

  it('lets any site frame the widget page and no other page', async () => {
    const widget = await fetch(`${server.url}/acme/widget`);
    expect(widget.headers.get('content-security-policy')).toBe('frame-ancestors *');
    expect(widget.headers.get('x-frame-options')).toBeNull();
    for (const path of ['/', '/acme', '/acme/direct', '/i/login', '/acme/widget/x']) {
      const res = await fetch(`${server.url}${path}`);
      expect(res.headers.get('content-security-policy'), path).toBe("frame-ancestors 'self'");
      expect(res.headers.get('x-frame-options'), path).toBe('SAMEORIGIN');
    }
  });
});

describe("the widget's session", () => {
  it('works through the Bearer header and the socket handshake, and a bad token is nobody', async () => {
    const v = await widgetVisitor();
    expect(((await v.call('auth.me', {}, 'query')) as { user: { id: string } }).user.id).toBe(v.userId);
    const socket: ClientSocket = connect(server.url, { transports: ['websocket'], auth: { token: v.token }, reconnection: false });
    sockets.push(socket);
    await new Promise((resolve, reject) => {
      socket.once('session:ready', resolve);
      socket.once('connect_error', reject);
    });
    const nobody = await callProcedure(server.url, 'auth.me', {}, { type: 'query', headers: { authorization: 'Bearer not-a-session' } });
    expect((nobody.data as { user: unknown }).user).toBeNull();
  });
});

describe('the estimated wait', () => {
  it('is unknown without history, then the median time-to-take of recent requests', async () => {
    const c = await serviceCompany(server, sockets);
    const bia = await c.attendant('Bia Atendente', { groupIds: [c.group('member')] });
    const ask = async (name: string) => {
      const v = await widgetVisitor();
      const r = await v.call('customer.request', { domain: c.domain, queueKey: 'faleconosco', name });
      return { v, id: r.conversationId as string };
    };
    const first = await ask('Vera');
    expect(await first.v.call('customer.conversation', { conversationId: first.id }, 'query')).toMatchObject({ position: 1, estimatedWaitMinutes: null });

    // Three requests taken after waiting 2, 6 and 30 minutes (their queue times moved back).
    const waits = [2, 6, 30];
    for (const [i, minutes] of waits.entries()) {
      const { id } = await ask(`Cliente ${i}`);
      await bia.call('service.take', { domain: c.domain, conversationId: id });
      const { takenAt } = await server.db.conversation.findUniqueOrThrow({ where: { id } });
      await server.db.conversation.update({ where: { id }, data: { queuedAt: new Date(takenAt!.getTime() - minutes * 60_000) } });
    }
    const info = await first.v.call('customer.conversation', { conversationId: first.id }, 'query');
    expect(info).toMatchObject({ position: 1, estimatedWaitMinutes: 6 });

    // Another company's history says nothing about this one.
    const other = await serviceCompany(server, sockets);
    const v2 = await widgetVisitor();
    const r2 = await v2.call('customer.request', { domain: other.domain, queueKey: 'faleconosco', name: 'Rui' });
    expect(await v2.call('customer.conversation', { conversationId: r2.conversationId }, 'query')).toMatchObject({ estimatedWaitMinutes: null });

    // Once taken there is no wait to estimate.
    await bia.call('service.take', { domain: c.domain, conversationId: first.id });
    expect(await first.v.call('customer.conversation', { conversationId: first.id }, 'query')).toMatchObject({ estimatedWaitMinutes: null });
  });
});

describe("the company's widget settings", () => {
  it('are kept by admins only, per company, with a checked colour, and served to the script and the messenger', async () => {
    const c = await serviceCompany(server, sockets);
    const other = await serviceCompany(server, sockets);
    const bia = await c.attendant('Bia Atendente');

    // Defaults for a company that never configured its widget.
    expect(await c.admin.call('settings.widget', { domain: c.domain }, 'query')).toEqual({ color: '#1f5fbf', greeting: '', label: '', position: 'right' });
    const look = { color: '#0b7a53', greeting: 'Olá! Dúvidas?', label: 'Fale com a gente', position: 'left' };
    expect(await c.admin.call('settings.updateWidget', { domain: c.domain, ...look })).toEqual(look);
    expect(await c.admin.call('settings.widget', { domain: c.domain }, 'query')).toEqual(look);

    // A colour that is not hex is refused with its text, and nothing changes.
    for (const color of ['green', '#12345', 'url(x)', '#0b7a53;background:red']) {
      const bad = await c.admin.attempt('settings.updateWidget', { domain: c.domain, ...look, color });
      expect(bad.error?.code, color).toBe('BAD_REQUEST');
      expect(bad.error?.message, color).toContain('The colour must be a hex colour such as #1f5fbf');
    }
    expect((await c.admin.attempt('settings.updateWidget', { domain: c.domain, ...look, position: 'top' })).error?.code).toBe('BAD_REQUEST');
    expect((await c.admin.attempt('settings.updateWidget', { domain: c.domain, ...look, greeting: 'x'.repeat(201) })).error?.code).toBe('BAD_REQUEST');

    // A member who is not an admin may neither read nor change it; nor may another company's admin.
    expect((await bia.attempt('settings.widget', { domain: c.domain }, 'query')).error?.code).toBe('FORBIDDEN');
    expect((await bia.attempt('settings.updateWidget', { domain: c.domain, ...look, color: '#000000' })).error?.code).toBe('FORBIDDEN');
    expect((await other.admin.attempt('settings.updateWidget', { domain: c.domain, ...look, color: '#000000' })).error?.code).toBe('FORBIDDEN');
    expect(await c.admin.call('settings.widget', { domain: c.domain }, 'query')).toEqual(look);
    // The other company keeps its own (default) look.
    expect(await other.admin.call('settings.widget', { domain: other.domain }, 'query')).toMatchObject({ color: '#1f5fbf' });

    // The script reads it from any origin; the messenger page gets it with the company's page.
    const res = await fetch(`${server.url}/widget-config/${c.domain}`, { headers: { origin: 'https://shop.example' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(await res.json()).toEqual(look);
    expect((await fetch(`${server.url}/widget-config/nosuchcompany1`)).status).toBe(404);
    expect((await fetch(`${server.url}/widget-config/not%20a%20domain`)).status).toBe(404);
    const v = await widgetVisitor();
    expect(await v.call('customer.companyPage', { domain: c.domain }, 'query')).toMatchObject({ widget: look });
  });
});
