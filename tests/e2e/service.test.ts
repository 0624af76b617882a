/**
 * Customer service in Chromium against the real server: an anonymous visitor asks for service on
 * the company page and follows its place in line; an attendant sees it arrive, takes it, answers
 * in the conversation view and transfers it from its service panel to a second attendant, who
 * takes, answers and concludes it there; the visitor chats and rates. The panel's own Take.
 * And the queues and groups admin screens with the spec's Portuguese texts.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../helpers/browser';
import { anonymousVisitor, serviceCompany, type ClientSocket, type Person } from '../helpers/service';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
let browser: Browser;
const sockets: ClientSocket[] = [];
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  for (const c of contexts) await c.close();
  await browser?.close();
  await server?.close();
});

async function pageFor(person: Person | null, locale = 'en-US'): Promise<Page> {
  const context = await browser.newContext({ locale });
  contexts.push(context);
  if (person) {
    const [name, value] = person.cookie.split('=') as [string, string];
    await context.addCookies([{ name, value, url: server.url }]);
  }
  return context.newPage();
}

/** Attendants work in their default (selected) company. */
async function select(companyId: string, ...people: Person[]) {
  for (const p of people) await server.db.user.update({ where: { id: p.userId }, data: { defaultCompanyId: companyId } });
}

describe('serving a visitor', () => {
  it('request on the company page, live position, take, transfer, conclude, rating', async () => {
    const c = await serviceCompany(server, sockets);
    const bia = await c.attendant('Bia Atendente', { groupIds: [c.group('member')] });
    const caio = await c.attendant('Caio Atendente', { groupIds: [c.group('member')] });
    await select(c.company.id, bia, caio);

    // The attendant's queue screen is open before anyone asks.
    const biaPage = await pageFor(bia);
    // A connected desk takes over its socket (service:take), not through service.take over HTTP.
    const httpTakes: string[] = [];
    biaPage.on('request', (r) => void (r.url().includes('/trpc/service.take') && httpTakes.push(r.url())));
    await biaPage.goto(`${server.url}/i/recent/queue/all`);
    await biaPage.getByText('Nobody is waiting.').waitFor();

    // The visitor: company page, request service, give a name, send.
    const visitor = await pageFor(null);
    await visitor.goto(`${server.url}/${c.domain}`);
    await visitor.getByRole('heading', { name: c.company.name }).waitFor();
    await visitor.getByRole('link', { name: 'Request service' }).click();
    await visitor.getByRole('link', { name: 'Fale Conosco' }).click();
    await visitor.getByLabel('To start, tell us your name:').fill('Vera Visitante');
    await visitor.getByLabel('How can we help? (optional)').fill('Minha senha não funciona');
    await visitor.getByRole('button', { name: 'Send request' }).click();
    await visitor.getByText('Your position in the queue:').waitFor();
    expect(await visitor.locator('.position-number').textContent()).toBe('1');
    await visitor.getByText(`Olá Vera Visitante, bem vindo (a) ao canal de atendimento da empresa ${c.company.name}.`, { exact: false }).waitFor();
    const conversation = await server.db.conversation.findFirstOrThrow({ where: { companyId: c.company.id } });
    expect(conversation).toMatchObject({ state: 0, inQueue: true, title: 'Vera Visitante' });

    // It appears on the attendant's screen without a reload; Bia takes it.
    await biaPage.getByText('Minha senha não funciona').waitFor();
    await biaPage.getByRole('button', { name: 'Take the request of Vera Visitante' }).click();
    await biaPage.waitForURL(`**/i/recent/chat/${conversation.id}`);
    await visitor.getByText('Bia Atendente is serving you.').waitFor();
    await visitor.getByText('Bia Atendente took the service').waitFor();
    expect(httpTakes).toEqual([]);

    // The conversation view is the attendant's desk: state in the header, the service panel beside.
    const biaService = biaPage.getByRole('complementary', { name: 'Service' });
    await biaService.getByText('Being served').waitFor();
    await biaPage.getByRole('log', { name: 'Messages' }).getByText('Bia Atendente took the service').waitFor();

    // They chat: Bia types in the composer, her words arrive live, the visitor answers from the page.
    await biaPage.getByRole('combobox', { name: 'Message' }).fill('Olá Vera! Vou verificar.');
    await biaPage.keyboard.press('Enter');
    await visitor.getByText('Olá Vera! Vou verificar.').waitFor();
    await visitor.getByLabel('Your message').fill('Obrigada!');
    await visitor.keyboard.press('Enter');
    await biaPage.getByRole('log', { name: 'Messages' }).getByText('Obrigada!').waitFor();

    // Bia transfers to Caio from the panel, with a comment for the team.
    await biaService.getByRole('link', { name: 'Transfer' }).click();
    await biaPage.waitForURL(`**/i/recent/chat/${conversation.id}/transfer`);
    await biaPage.getByLabel('An attendant').check();
    await biaPage.getByLabel('Attendant', { exact: true }).selectOption({ label: 'Caio Atendente' });
    await biaPage.getByLabel('Comment for the team (optional)').fill('Cliente com senha bloqueada');
    await biaPage.getByRole('button', { name: 'Transfer' }).click();
    await biaPage.getByText('The service was transferred successfully!').waitFor();
    // The visitor never sees the comment, and waits again (for Caio), told of the transfer rather than queued again.
    await visitor.getByText('You are being transferred to another attendant.', { exact: false }).waitFor();
    expect(await visitor.getByText('Cliente com senha bloqueada').count()).toBe(0);

    // Caio sees it in his queue, marked for him, takes it, answers and concludes it from the panel.
    const caioPage = await pageFor(caio);
    await caioPage.goto(`${server.url}/i/recent/queue/all`);
    await caioPage.getByText('Transferred to you').waitFor();
    await caioPage.getByRole('button', { name: 'Take the request of Vera Visitante' }).click();
    await caioPage.waitForURL(`**/i/recent/chat/${conversation.id}`);
    await caioPage.getByRole('log', { name: 'Messages' }).getByText('Bia Atendente transferred the service to Caio Atendente').waitFor();
    await caioPage.getByRole('combobox', { name: 'Message' }).fill('Senha desbloqueada, Vera.');
    await caioPage.getByRole('button', { name: 'Send' }).click();
    await visitor.getByText('Senha desbloqueada, Vera.').waitFor();
    const caioService = caioPage.getByRole('complementary', { name: 'Service' });
    await caioService.getByRole('button', { name: 'Conclude service' }).click();
    await caioPage.getByRole('dialog').getByRole('button', { name: 'Conclude' }).click();
    await caioService.getByText('Service concluded.').waitFor();
    await caioPage.getByRole('log', { name: 'Messages' }).getByText('Service concluded by Caio Atendente').waitFor();
    expect(await server.db.conversation.findUniqueOrThrow({ where: { id: conversation.id } })).toMatchObject({ state: 9999, responsibleId: caio.userId });

    // The visitor rates it; the company's rating follows.
    await visitor.getByText('This service is concluded.').waitFor();
    await visitor.getByRole('button', { name: '4 of 5 stars' }).click();
    await visitor.getByText('Thank you for your rating (4 of 5).').waitFor();
    expect(await server.db.company.findUniqueOrThrow({ where: { id: c.company.id } })).toMatchObject({ ratingTotal: 4.5, ratingCount: 2 });
    // ... and can start a new service.
    await visitor.getByRole('button', { name: 'Start a new service' }).click();
    await visitor.getByRole('button', { name: 'Send request' }).waitFor();
  }, 90_000);

  it("an attendant who loses the race gets the spec's text, and the request leaves the screen", async () => {
    const c = await serviceCompany(server, sockets);
    const bia = await c.attendant('Bia', { groupIds: [c.group('member')] });
    const dani = await c.attendant('Dani', { groupIds: [c.group('member')] });
    await select(c.company.id, bia, dani);
    const visitor = await anonymousVisitor(server, sockets);
    const { conversationId } = await visitor.call('customer.request', { domain: c.domain, queueKey: 'faleconosco', name: 'Rui' });
    // Bia's screen gets no pushes (its socket can connect neither by WebSocket nor by polling), so
    // it still shows the request when Dani has already taken it.
    const biaPage = await pageFor(bia);
    const socketIo = (url: URL) => url.pathname.startsWith('/socket.io/');
    await biaPage.routeWebSocket(socketIo, (ws) => ws.close());
    await biaPage.route(socketIo, (route) => route.abort());
    await biaPage.goto(`${server.url}/i/recent/queue/all`);
    const take = biaPage.getByRole('button', { name: 'Take the request of Rui' });
    await take.waitFor();
    await dani.call('service.take', { domain: c.domain, conversationId });
    // Without a socket the desk takes through service.take over HTTP.
    const overHttp = biaPage.waitForRequest((r) => r.url().includes('/trpc/service.take'));
    await take.click();
    await overHttp;
    await biaPage.getByRole('alert').filter({ hasText: 'This request has already been taken' }).waitFor();
    await take.waitFor({ state: 'detached' });
    await biaPage.getByText('Nobody is waiting.').waitFor();
    expect(await server.db.conversation.findUniqueOrThrow({ where: { id: conversationId } })).toMatchObject({ responsibleId: dani.userId });
  }, 60_000);
});

describe('the service panel', () => {
  it('offers Take for a waiting request the attendant may take; after taking it shows state 1', async () => {
    const c = await serviceCompany(server, sockets);
    const bia = await c.attendant('Bia', { groupIds: [c.group('member')] });
    await select(c.company.id, bia);
    const visitor = await anonymousVisitor(server, sockets);
    const { conversationId } = await visitor.call('customer.request', { domain: c.domain, queueKey: 'faleconosco', name: 'Rui' });
    // Bia served it and sent it back to the queue: she is still in the conversation, it waits again.
    await bia.call('service.take', { domain: c.domain, conversationId });
    await bia.call('service.transfer', { domain: c.domain, conversationId, target: { kind: 'queue', queueId: c.queue.id } });
    const page = await pageFor(bia);
    await page.goto(`${server.url}/i/recent/chat/${conversationId}/concluir`);
    const panel = page.locator('.service-panel');
    await panel.getByText('Waiting for service').waitFor();
    await panel.getByRole('button', { name: 'Take', exact: true }).click();
    await panel.getByText('Being served').waitFor();
    expect(await panel.getByRole('button', { name: 'Take', exact: true }).count()).toBe(0);
    expect(await panel.getByRole('button', { name: 'Conclude service' }).isVisible()).toBe(true);
    expect(await server.db.conversation.findUniqueOrThrow({ where: { id: conversationId } })).toMatchObject({ state: 1, inQueue: false, takenById: bia.userId });
  }, 60_000);
});

describe('Contact Us and notifications', () => {
  it('validates the configured fields, opens a ticket the visitor follows, and notifies the attendants', async () => {
    const c = await serviceCompany(server, sockets);
    await c.admin.call('additionalFields.create', { domain: c.domain, name: 'Plano', tag: 'plano', multipleChoice: true, options: ['Básico', 'Pro'] });
    const bia = await c.attendant('Bia', { groupIds: [c.group('member')] });
    await select(c.company.id, bia);

    const visitor = await pageFor(null);
    await visitor.goto(`${server.url}/${c.domain}`);
    await visitor.getByRole('link', { name: 'Fale Conosco' }).click();
    await visitor.getByRole('heading', { name: 'Fale Conosco' }).waitFor();
    await visitor.getByLabel('Nome *').fill('M');
    await visitor.getByLabel('E-mail *').fill('not-an-email');
    await visitor.getByRole('button', { name: 'Send' }).click();
    await visitor.getByText('At least 2 characters').waitFor();
    await visitor.getByText('Invalid email').waitFor();
    await visitor.getByText('Fill in all fields').waitFor();
    expect(await server.db.conversation.count({ where: { companyId: c.company.id } })).toBe(0);

    await visitor.getByLabel('Nome *').fill('Marta');
    await visitor.getByLabel('E-mail *').fill('marta@example.com');
    await visitor.getByLabel('Mensagem *').fill('Quero um orçamento');
    await visitor.getByLabel('Plano').selectOption('Pro');
    await visitor.getByRole('button', { name: 'Send' }).click();
    await visitor.waitForURL(`**/${c.domain}/ticket/*`);
    await visitor.getByText('Mensagem: Quero um orçamento', { exact: false }).waitFor();
    await visitor.getByText('Your position in the queue:').waitFor();

    const biaPage = await pageFor(bia);
    await biaPage.goto(`${server.url}/i/notifications`);
    await biaPage.getByText('New request in the queue').waitFor();
    await biaPage.getByText('Marta · Fale Conosco').waitFor();
    await biaPage.getByText('1 unread', { exact: true }).waitFor();
    await biaPage.getByRole('button', { name: 'Mark all as read' }).click();
    await biaPage.getByText('0 unread', { exact: true }).waitFor();
    expect(await server.db.notification.count({ where: { userId: bia.userId, read: false } })).toBe(0);
  }, 60_000);
});

describe('queues and groups admin, in Portuguese', () => {
  it("asks for a group with the spec's dialog, and refuses to remove a group with members", async () => {
    const c = await serviceCompany(server, sockets);
    await select(c.company.id, c.admin);
    const page = await pageFor(c.admin, 'pt-BR');
    await page.goto(`${server.url}/i/settings/queues`);
    await page.getByRole('link', { name: 'Nova fila' }).click();
    await page.getByLabel('Nome').fill('Vendas');
    await page.getByRole('button', { name: 'Criar fila' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Definir Grupo' }).waitFor();
    await dialog.getByText('Você precisa definir pelo menos um grupo de atendimento para este canal').waitFor();
    await dialog.getByRole('button', { name: 'OK' }).click();
    expect(await server.db.queue.count({ where: { companyId: c.company.id } })).toBe(1);
    await page.getByLabel('member').check();
    await page.getByRole('button', { name: 'Criar fila' }).click();
    await page.getByText('/vendas', { exact: false }).first().waitFor();
    const queue = await server.db.queue.findFirstOrThrow({ where: { companyId: c.company.id, key: 'vendas' }, include: { groups: true } });
    expect(queue.groups.map((g) => g.groupId)).toEqual([c.group('member')]);

    await page.goto(`${server.url}/i/settings/groups`);
    await page.getByRole('button', { name: 'Excluir member' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remover' }).click();
    await page.getByRole('alert').filter({ hasText: 'Este grupo está vinculado a um ou mais membros. Por favor desvincule todos para continuar.' }).waitFor();
    expect(await server.db.group.count({ where: { id: c.group('member') } })).toBe(1);
  }, 60_000);
});
