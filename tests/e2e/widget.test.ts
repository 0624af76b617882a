/**
 * The embeddable widget in Chromium, on a page of ANOTHER site: a tiny HTTP server on localhost
 * serves a page with the script tag, while the app runs on 127.0.0.1 (a different site, so the
 * iframe is a third-party context and gets none of our SameSite=Lax cookies). The launcher shows
 * with the company's colour and greeting, opens the messenger in an iframe on our origin, the
 * visitor asks for service, an attendant (API) answers, and the visitor sees it; the arrival
 * sound plays while the tab is hidden unless muted; the close button closes the panel.
 */
import { seriousViolations } from '../helpers/axe';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../helpers/browser';
import { serviceCompany, type ClientSocket } from '../helpers/service';
import { signIn } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
let browser: Browser;
let site: http.Server;
let siteUrl = '';
let domain = '';
const sockets: ClientSocket[] = [];
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  // The company's own site: one page with the tag, nothing else of ours.
  site = http.createServer((req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    // /plain?d=DOMAIN: the tag as the settings screen gives it, the domain alone.
    const plain = new URL(req.url!, 'http://x').searchParams.get('d');
    if (plain) {
      return void res.end(`<!doctype html><html lang="en"><head><title>Plain store</title></head><body><h1>Plain store</h1>
<script src="${server.url}/widget.js" data-domain="${plain}" async></script></body></html>`);
    }
    res.end(`<!doctype html><html lang="en"><head><title>Acme store</title></head><body><h1>Acme store</h1>
<script src="${server.url}/widget.js" data-domain="${domain}" data-color="#0b7a53" data-greeting="Hi! Questions about your order?" async></script></body></html>`);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://localhost:${(site.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  for (const c of contexts) await c.close();
  await browser?.close();
  await new Promise((resolve) => site?.close(resolve));
  await server?.close();
});

describe('the embeddable widget', () => {
  it('opens the messenger from another site, the visitor asks and sees the answer, with sound and close', async () => {
    const c = await serviceCompany(server, sockets);
    domain = c.domain;
    const bia = await c.attendant('Bia Atendente', { groupIds: [c.group('member')] });
    expect(new URL(siteUrl).hostname).not.toBe(new URL(server.url).hostname);

    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 } });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(siteUrl);

    const launcher = page.getByRole('button', { name: 'Chat with us' });
    await launcher.waitFor();
    expect(await launcher.evaluate((b) => getComputedStyle(b).backgroundColor)).toBe('rgb(11, 122, 83)');
    await page.getByText('Hi! Questions about your order?').waitFor();
    expect(await launcher.getAttribute('aria-expanded')).toBe('false');

    await launcher.click();
    expect(await launcher.getAttribute('aria-expanded')).toBe('true');
    const iframe = page.locator('iframe[title="Chat with us"]');
    expect(await iframe.getAttribute('src')).toMatch(new RegExp(`^${server.url}/${domain}/widget\\?`));
    const chat = page.frameLocator('iframe[title="Chat with us"]');
    await chat.getByRole('heading', { name: c.company.name }).waitFor();
    await chat.getByText('Hi! Questions about your order?').waitFor();

    // Readable and labelled, the launcher's shadow root and the iframe's page included.
    expect(await seriousViolations(page)).toEqual([]);

    await chat.getByLabel('To start, tell us your name:').fill('Vera Visitante');
    await chat.getByRole('button', { name: 'Send request' }).click();
    await chat.getByText('Your position in the queue:').waitFor();
    const { id: conversationId, creatorId } = await server.db.conversation.findFirstOrThrow({ where: { companyId: c.company.id } });
    // The iframe's session is a token, never a cookie of ours (the browser would not send it here).
    expect((await context.cookies(server.url)).filter((k) => k.name === 'atende_sid')).toEqual([]);
    expect((await server.db.user.findUniqueOrThrow({ where: { id: creatorId! } })).name).toBe('Vera Visitante');

    await bia.call('service.take', { domain, conversationId });
    await chat.getByText('Bia Atendente is serving you.').waitFor();
    await bia.call('chat.send', { domain, conversationId, clientId: 'b1', text: 'Olá Vera! Como posso ajudar?' });
    const log = chat.getByRole('log', { name: 'Messages' });
    await log.getByText('Olá Vera! Como posso ajudar?').waitFor();

    await chat.getByLabel('Your message').fill('Meu pedido não chegou');
    await chat.getByLabel('Your message').press('Enter');
    await log.getByText('Meu pedido não chegou').waitFor();
    await expect.poll(() => server.db.message.count({ where: { conversationId, text: 'Meu pedido não chegou' } })).toBe(1);

    // The tab hidden (as when the visitor is on another tab): an attendant's message plays the sound, unless muted.
    const frame = page.frames().find((f) => f.url().startsWith(`${server.url}/${domain}/widget`))!;
    await frame.evaluate(() => {
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
      const w = window as unknown as { played: number };
      w.played = 0;
      HTMLMediaElement.prototype.play = function () {
        w.played++;
        return Promise.resolve();
      };
    });
    await bia.call('chat.send', { domain, conversationId, clientId: 'b2', text: 'Vou verificar agora.' });
    await log.getByText('Vou verificar agora.').waitFor();
    await expect.poll(() => frame.evaluate(() => (window as unknown as { played: number }).played)).toBe(1);
    await chat.getByRole('button', { name: 'Mute the message sound' }).click();
    expect(await chat.getByRole('button', { name: 'Mute the message sound' }).getAttribute('aria-pressed')).toBe('true');
    await bia.call('chat.send', { domain, conversationId, clientId: 'b3', text: 'Já localizei.' });
    await log.getByText('Já localizei.').waitFor();
    expect(await frame.evaluate(() => (window as unknown as { played: number }).played)).toBe(1);

    // Closed with the close button; opened again, the same conversation is there.
    await page.getByRole('button', { name: 'Close chat' }).click();
    await iframe.waitFor({ state: 'hidden' });
    expect(await launcher.getAttribute('aria-expanded')).toBe('false');
    await launcher.click();
    await log.getByText('Já localizei.').waitFor();

    // Moving inside the iframe (its router, as a link would) to the conversation's own page and
    // back keeps the token session: the messages still load, and no second visitor is made.
    const visitors = () => server.db.user.count({ where: { anonymous: true, name: 'Vera Visitante' } });
    const navigate = (to: string) =>
      frame.evaluate((url) => {
        history.pushState(null, '', url);
        dispatchEvent(new PopStateEvent('popstate'));
      }, to);
    await navigate(`/${domain}/chat/${conversationId}`);
    await chat.getByRole('heading', { name: 'Your request' }).waitFor();
    await log.getByText('Já localizei.').waitFor();
    await bia.call('chat.send', { domain, conversationId, clientId: 'b4', text: 'Chega amanhã.' });
    await log.getByText('Chega amanhã.').waitFor();
    await frame.evaluate(() => history.back());
    await expect.poll(() => frame.url()).toMatch(new RegExp(`/${domain}/widget\\?`));
    await log.getByText('Chega amanhã.').waitFor();
    expect(await visitors()).toBe(1);
    expect((await context.cookies(server.url)).filter((k) => k.name === 'atende_sid')).toEqual([]);
  }, 120_000);

  it("updates the visitor's place and estimated wait live as the line moves", async () => {
    const c = await serviceCompany(server, sockets);
    const bia = await c.attendant('Bia Atendente', { groupIds: [c.group('member')] });
    // History for an estimate: two requests taken after 4 and 10 minutes, and one waiting ahead.
    const ask = async (name: string) => {
      const v = await c.attendant(name);
      return (await v.call('customer.request', { domain: c.domain, queueKey: 'faleconosco', name })).conversationId as string;
    };
    for (const minutes of [4, 10]) {
      const id = await ask(`Antes ${minutes}`);
      await bia.call('service.take', { domain: c.domain, conversationId: id });
      const { takenAt } = await server.db.conversation.findUniqueOrThrow({ where: { id } });
      await server.db.conversation.update({ where: { id }, data: { queuedAt: new Date(takenAt!.getTime() - minutes * 60_000) } });
    }
    const ahead = await ask('Primeiro');

    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 } });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(`${siteUrl}/plain?d=${c.domain}`);
    await page.getByRole('button', { name: 'Chat with us' }).click();
    const chat = page.frameLocator('iframe[title="Chat with us"]');
    await chat.getByLabel('To start, tell us your name:').fill('Vera Visitante');
    await chat.getByRole('button', { name: 'Send request' }).click();
    const place = chat.getByRole('status').filter({ hasText: 'Your position in the queue:' });
    await place.getByText('2', { exact: true }).waitFor();
    expect(await place.getByText('Estimated wait').count()).toBe(0);

    // The one ahead is taken: a third sample (about 0 min), so the median of 0, 4, 10 is 4.
    await bia.call('service.take', { domain: c.domain, conversationId: ahead });
    await place.getByText('1', { exact: true }).waitFor();
    await place.getByText('Estimated wait: about 4 min').waitFor();
  }, 90_000);

  it('fills a phone screen when open, its close button in reach', async () => {
    const context = await browser.newContext({ locale: 'pt-BR', viewport: { width: 390, height: 844 } });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(siteUrl);
    // The launcher's own words follow the visitor's language.
    await page.getByRole('button', { name: 'Fale conosco' }).click();
    const panel = page.getByRole('dialog', { name: 'Fale conosco' });
    await page.frameLocator('iframe').getByRole('button', { name: 'Enviar solicitação' }).waitFor();
    expect(await panel.boundingBox()).toEqual({ x: 0, y: 0, width: 390, height: 844 });
    const close = (await page.getByRole('button', { name: 'Fechar conversa' }).boundingBox())!;
    expect(close.y).toBeGreaterThanOrEqual(0);
    expect(close.x + close.width).toBeLessThanOrEqual(390);
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'hidden' });
  }, 60_000);

  it("shows the colour, greeting, label and side an admin set in the app on another site whose tag names only the domain", async () => {
    const c = await serviceCompany(server, sockets);
    const adminContext = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 } });
    contexts.push(adminContext);
    const [name, value] = (await signIn(server.db, c.admin.userId)).split('=') as [string, string];
    await adminContext.addCookies([{ name, value, url: server.url }]);
    const admin = await adminContext.newPage();
    await admin.goto(`${server.url}/i/settings`);
    await admin.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Website widget' }).click();
    await admin.getByRole('heading', { name: 'Website widget' }).waitFor();
    const tag = admin.getByLabel('Code for your website');
    expect(await tag.inputValue()).toBe(`<script src="${server.url}/widget.js" data-domain="${c.domain}" async></script>`);

    // A colour that is not hex is refused on the screen, before any request.
    await admin.getByLabel('Colour', { exact: true }).fill('green');
    await admin.getByText('The colour must be a hex colour such as #1f5fbf').waitFor();
    await admin.getByLabel('Colour', { exact: true }).fill('#aa3300');
    await admin.getByLabel('Greeting').fill('Boa tarde! Posso ajudar?');
    await admin.getByLabel('Button label').fill('Suporte Acme');
    await admin.getByRole('radio', { name: 'Bottom left' }).check();
    await admin.getByRole('button', { name: 'Save' }).click();
    await admin.getByText('Changes saved successfully!').waitFor();
    expect(await server.db.company.findUniqueOrThrow({ where: { id: c.company.id }, select: { widget: true } })).toEqual({
      widget: { color: '#aa3300', greeting: 'Boa tarde! Posso ajudar?', label: 'Suporte Acme', position: 'left' },
    });
    expect(await seriousViolations(admin)).toEqual([]);

    // The company's site, on another origin, with the tag as copied.
    const visitor = await (async () => {
      const ctx = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 } });
      contexts.push(ctx);
      return ctx.newPage();
    })();
    await visitor.goto(`${siteUrl}/plain?d=${c.domain}`);
    const launcher = visitor.getByRole('button', { name: 'Suporte Acme' });
    await launcher.waitFor();
    expect(await launcher.evaluate((b) => getComputedStyle(b).backgroundColor)).toBe('rgb(170, 51, 0)');
    await visitor.getByText('Boa tarde! Posso ajudar?').waitFor();
    // On the left: the launcher starts near the page's left edge.
    expect((await launcher.boundingBox())!.x).toBeLessThan(100);
    await launcher.click();
    const chat = visitor.frameLocator('iframe[title="Suporte Acme"]');
    await chat.getByRole('heading', { name: c.company.name }).waitFor();
    await chat.getByText('Boa tarde! Posso ajudar?').waitFor();
  }, 90_000);
});
