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
  site = http.createServer((_req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
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
  }, 120_000);

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
});
