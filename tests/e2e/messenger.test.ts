/**
 * The visitor's messenger in Chromium at phone size (390×844) against the real server: the
 * visitor asks for service and an attendant (through the API and a real socket) takes it. Own
 * bubbles sit right, the attendant's left with their name; her image shows; her typing shows;
 * ticks turn to "Read"; the composer stays on screen however long the conversation; a transfer does not
 * bring the queue box back; the rating card is in view when the service ends.
 */
import { seriousViolations } from '../helpers/axe';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../helpers/browser';
import { serviceCompany, type ClientSocket } from '../helpers/service';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
let browser: Browser;
const sockets: ClientSocket[] = [];
const contexts: BrowserContext[] = [];
const PHONE = { width: 390, height: 844 };

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  for (const c of contexts) await c.close();
  await browser?.close();
  await server?.close();
});

async function phonePage(): Promise<Page> {
  const context = await browser.newContext({ locale: 'en-US', viewport: PHONE });
  contexts.push(context);
  return context.newPage();
}

/** The element's box, entirely inside the 390×844 viewport. */
async function expectInViewport(locator: Locator) {
  const box = await locator.boundingBox();
  expect(box).not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.y).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width + 0.5);
  expect(box!.y + box!.height).toBeLessThanOrEqual(PHONE.height + 0.5);
}

describe('the visitor messenger', () => {
  it('bubbles by author, typing, ticks, composer and rating in view at phone size, no queue box after a transfer', async () => {
    const c = await serviceCompany(server, sockets);
    const bia = await c.attendant('Bia Atendente', { groupIds: [c.group('member')] });
    const caio = await c.attendant('Caio Atendente', { groupIds: [c.group('member')] });
    for (const p of [bia, caio]) await server.db.user.update({ where: { id: p.userId }, data: { defaultCompanyId: c.company.id } });

    const visitor = await phonePage();
    await visitor.goto(`${server.url}/${c.domain}/direct/queue/faleconosco`);
    await visitor.getByLabel('To start, tell us your name:').fill('Vera Visitante');
    await visitor.getByRole('button', { name: 'Send request' }).click();
    await visitor.getByText('Your position in the queue:').waitFor();
    const { id: conversationId } = await server.db.conversation.findFirstOrThrow({ where: { companyId: c.company.id } });
    const log = visitor.getByRole('log', { name: 'Messages' });

    await bia.call('service.take', { domain: c.domain, conversationId });
    await visitor.getByText('Bia Atendente is serving you.').waitFor();
    await bia.call('chat.send', { domain: c.domain, conversationId, clientId: 'b1', text: 'Olá Vera! Vou verificar.' });
    await visitor.getByLabel('Your message').fill('Obrigada!');
    await visitor.keyboard.press('Enter');

    // Mine on the right, the attendant's on the left, with her name.
    const mine = log.getByRole('listitem').filter({ hasText: 'Obrigada!' });
    const theirs = log.getByRole('listitem').filter({ hasText: 'Olá Vera! Vou verificar.' });
    await mine.waitFor();
    await theirs.waitFor();
    const list = (await log.getByRole('list').boundingBox())!;
    const mineBox = (await mine.boundingBox())!;
    const theirsBox = (await theirs.boundingBox())!;
    expect(list.x + list.width - (mineBox.x + mineBox.width)).toBeLessThan(4);
    expect(mineBox.x - list.x).toBeGreaterThan(40);
    expect(theirsBox.x - list.x).toBeLessThan(4);
    expect(list.x + list.width - (theirsBox.x + theirsBox.width)).toBeGreaterThan(40);
    expect(await theirs.getByText('Bia Atendente', { exact: true }).isVisible()).toBe(true);
    expect(await mine.getByText('Bia Atendente', { exact: true }).count()).toBe(0);

    // My message is marked read once Bia has read it.
    const seq = (await server.db.message.findFirstOrThrow({ where: { conversationId, text: 'Obrigada!' } })).seq;
    await mine.getByRole('img', { name: 'Sent' }).waitFor();
    await bia.call('chat.markRead', { domain: c.domain, conversationId, uptoSeq: seq });
    await mine.getByRole('img', { name: 'Read' }).waitFor();

    // An image from Bia shows as in the member chat: its preview in her bubble.
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
    const res = await fetch(`${server.url}/uploads/chat/${c.domain}/${conversationId}?clientId=img1&name=print.png`, {
      method: 'PUT',
      headers: { cookie: bia.cookie, 'content-type': 'image/png' },
      body: new Blob([new Uint8Array(png)]),
    });
    expect(res.status).toBe(200);
    const imageItem = log.getByRole('listitem').filter({ has: visitor.getByRole('button', { name: 'Open image print.png' }) });
    await imageItem.locator('img[src]').waitFor();
    // Really loaded from the storage through the visitor's link, not a broken image.
    await imageItem.locator('img').evaluate((img: HTMLImageElement) => (img.complete && img.naturalWidth > 0) || new Promise((ok, no) => ((img.onload = ok), (img.onerror = no))));
    expect(await imageItem.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
    expect(await imageItem.evaluate((li) => li.classList.contains('theirs'))).toBe(true);

    // Readable and labelled for everyone (contrast of both bubble kinds, ticks, the composer).
    expect(await seriousViolations(visitor)).toEqual([]);

    // Bia types: the visitor sees it (typing comes every 1.5 s while she writes).
    const biaSocket = await bia.open();
    const typing = visitor.getByText('Bia Atendente is typing…');
    const keepTyping = setInterval(() => biaSocket.emit('typing', { conversationId }), 1000);
    try {
      biaSocket.emit('typing', { conversationId });
      await typing.waitFor();
    } finally {
      clearInterval(keepTyping);
    }
    await typing.waitFor({ state: 'detached' });

    // A long conversation scrolls inside the list; the composer stays on screen.
    for (let i = 1; i <= 25; i++) await bia.call('chat.send', { domain: c.domain, conversationId, clientId: `long-${i}`, text: `Mensagem número ${i} da Bia` });
    await log.getByText('Mensagem número 25 da Bia').waitFor();
    await expectInViewport(visitor.getByLabel('Your message'));
    await expectInViewport(visitor.getByRole('button', { name: 'Send' }));
    expect(await visitor.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

    // Transferred to Caio: the visitor is told, and the queue box does not come back.
    await bia.call('service.transfer', { domain: c.domain, conversationId, target: { kind: 'attendant', userId: caio.userId } });
    await visitor.getByText('You are being transferred to another attendant.', { exact: false }).waitFor();
    expect(await visitor.getByText('Your position in the queue:').count()).toBe(0);
    await caio.call('service.take', { domain: c.domain, conversationId });
    await visitor.getByText('Caio Atendente is serving you.').waitFor();
    expect(await visitor.getByText('Your position in the queue:').count()).toBe(0);

    // Concluded: the rating card replaces the composer, in view.
    await caio.call('service.conclude', { domain: c.domain, conversationId });
    const question = visitor.getByText('How was the service?');
    await question.waitFor();
    await expectInViewport(question);
    const star = visitor.getByRole('button', { name: '5 of 5 stars' });
    await expectInViewport(star);
    await star.click();
    await visitor.getByText('Thank you for your rating (5 of 5).').waitFor();
    await expectInViewport(visitor.getByRole('button', { name: 'Start a new service' }));
  }, 120_000);
});
