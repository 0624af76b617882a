/**
 * Forms in Chromium against the real server: an admin designs a template with five field types
 * (reordering by keyboard and by drag), an attendant fills it inside a customer's conversation,
 * the form message shows there and opens the form, the printable page shows the answers; and a
 * colleague's tab with the template open gets the spec's dialog when the creator makes it private.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../helpers/browser';
import { budget } from '../helpers/time';
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

async function pageFor(person: Person, locale = 'en-US'): Promise<Page> {
  const context = await browser.newContext({ locale });
  contexts.push(context);
  const [name, value] = person.cookie.split('=') as [string, string];
  await context.addCookies([{ name, value, url: server.url }]);
  return context.newPage();
}

const fieldNames = (page: Page) => page.locator('.builder-field .builder-field-name strong').allTextContents();

describe('forms', () => {
  it('design five field types, fill the form in a conversation, see its message, print it; a colleague is told when it becomes private', async () => {
    const c = await serviceCompany(server, sockets);
    const bia = await c.attendant('Bia Atendente', { groupIds: [c.group('member')] });
    const caio = await c.attendant('Caio Colega');
    for (const p of [c.admin, bia, caio]) await server.db.user.update({ where: { id: p.userId }, data: { defaultCompanyId: c.company.id } });
    const visitor = await anonymousVisitor(server, sockets);
    const { conversationId } = await visitor.call('customer.request', { domain: c.domain, queueKey: 'faleconosco', name: 'Vera Visitante', text: 'Preciso de uma visita' });
    await bia.call('service.take', { domain: c.domain, conversationId });

    // The admin designs the template: five field types.
    const admin = await pageFor(c.admin);
    await admin.goto(`${server.url}/i/settings/forms`);
    await admin.getByText('No forms yet. Create the first one.').waitFor();
    await admin.getByRole('link', { name: 'New form' }).click();
    await admin.getByLabel('Form name').fill('Ficha de visita');
    const add = async (type: string, label: string) => {
      await admin.getByLabel('New field').selectOption(type);
      await admin.getByRole('button', { name: 'Add field' }).click();
      const row = admin.locator('.builder-field').last();
      await row.getByLabel('Label', { exact: true }).fill(label);
      return row;
    };
    const nome = await add('shortText', 'Nome');
    await nome.getByLabel('Required').check();
    await add('date', 'Data da visita');
    const tipo = await add('singleChoice', 'Tipo');
    await tipo.getByLabel('Options (one per line)').fill('Instalação\nReparo');
    await add('checkbox', 'Cliente presente');
    await add('phone', 'Telefone');
    expect(await fieldNames(admin)).toEqual(['Nome', 'Data da visita', 'Tipo', 'Cliente presente', 'Telefone']);

    // Reorder by keyboard (the move button, and Alt+ArrowUp on a row) and by dragging a row.
    await admin.getByRole('button', { name: 'Move Telefone up' }).click();
    expect(await fieldNames(admin)).toEqual(['Nome', 'Data da visita', 'Tipo', 'Telefone', 'Cliente presente']);
    await admin.locator('.builder-field').nth(3).focus();
    await admin.keyboard.press('Alt+ArrowUp');
    expect(await fieldNames(admin)).toEqual(['Nome', 'Data da visita', 'Telefone', 'Tipo', 'Cliente presente']);
    // Dragging happens on the compact list: the editors closed.
    const closeButtons = admin.locator('.builder-field').getByRole('button', { name: 'Close' });
    while ((await closeButtons.count()) > 0) await closeButtons.first().click();
    await admin.locator('.builder-field-row').nth(4).dragTo(admin.locator('.builder-field-row').nth(0));
    expect(await fieldNames(admin)).toEqual(['Cliente presente', 'Nome', 'Data da visita', 'Telefone', 'Tipo']);
    await admin.locator('.builder-field-row').nth(0).dragTo(admin.locator('.builder-field-row').nth(4));
    expect(await fieldNames(admin)).toEqual(['Nome', 'Data da visita', 'Telefone', 'Tipo', 'Cliente presente']);
    // The preview shows the form as it will be filled.
    await admin.getByRole('region', { name: 'Preview' }).getByRole('radio', { name: 'Reparo' }).waitFor();

    await admin.getByRole('button', { name: 'Save form' }).click();
    await admin.waitForURL(/\/i\/forma\/[0-9a-f-]{36}$/);
    await admin.getByRole('heading', { name: 'Edit form' }).waitFor();
    await admin.getByText('Version 1 · created by Ana Admin · 0 submitted').waitFor();
    const templateId = admin.url().split('/').pop()!;

    // The attendant opens the form from the conversation and fills it in.
    const biaPage = await pageFor(bia);
    await biaPage.goto(`${server.url}/i/recent/chat/${conversationId}`);
    await biaPage.getByRole('button', { name: 'Forms' }).click();
    await biaPage.getByLabel('Form', { exact: true }).selectOption({ label: 'Ficha de visita' });
    await biaPage.getByRole('button', { name: 'Fill in' }).click();
    await biaPage.waitForURL(new RegExp(`/i/recent/chat/${conversationId}/form/${c.domain}/[0-9a-f-]{36}$`));
    const formUrl = biaPage.url();
    await biaPage.getByRole('button', { name: 'Submit form' }).click();
    // Nothing typed yet: the required name says why, next to itself.
    await biaPage.getByText('Fill in this field').waitFor();
    await biaPage.getByLabel('Nome').fill('Vera Visitante');
    await biaPage.getByLabel('Data da visita').fill('2026-11-24');
    await biaPage.getByLabel('Telefone').fill('11987654321');
    expect(await biaPage.getByLabel('Telefone').inputValue()).toBe('(11) 98765-4321');
    await biaPage.getByRole('radio', { name: 'Reparo' }).check();
    await biaPage.getByRole('group', { name: 'Cliente presente' }).getByRole('checkbox').check();
    await biaPage.getByText('Draft saved').waitFor();
    await biaPage.getByRole('button', { name: 'Submit form' }).click();
    await biaPage.getByText(/Submitted by Bia Atendente/).waitFor();

    // The form message is in the conversation and opens the form.
    await biaPage.getByRole('link', { name: 'Back to the conversation' }).click();
    const card = biaPage.locator('.form-message');
    await card.getByText('Form submitted').waitFor();
    await card.getByText('Ficha de visita').waitFor();
    await card.getByText('(11) 98765-4321').waitFor();
    await card.getByRole('link', { name: 'See the form' }).click();
    await biaPage.waitForURL(formUrl);
    await biaPage.getByRole('heading', { name: 'Ficha de visita' }).waitFor();

    // The printable page: the answers, with print CSS hiding the app around it.
    await biaPage.getByRole('link', { name: 'Printable version' }).click();
    await biaPage.waitForURL(`${formUrl}/print`);
    const sheet = biaPage.locator('.form-print');
    await sheet.getByText('Vera Visitante').waitFor();
    await sheet.getByText('24/11/2026').waitFor();
    await sheet.getByText('Reparo').waitFor();
    await biaPage.emulateMedia({ media: 'print' });
    expect(await biaPage.getByRole('button', { name: 'Print' }).isVisible()).toBe(false);
    expect(await sheet.getByText('(11) 98765-4321').isVisible()).toBe(true);
    await biaPage.emulateMedia({ media: 'screen' });
    const pdf = await biaPage.request.get(`${server.url}/forms/${formUrl.split('/').pop()}/pdf?lang=pt`);
    expect(pdf.headers()['content-type']).toBe('application/pdf');

    // A colleague has the template open in another tab (in Portuguese); its creator makes it private.
    const caioPage = await pageFor(caio, 'pt-BR');
    await caioPage.goto(`${server.url}/i/forma/${templateId}`);
    await caioPage.getByRole('heading', { name: 'Pré-visualização' }).waitFor();
    await admin.getByRole('button', { name: 'Make private' }).click();
    await admin.getByRole('button', { name: 'Make public' }).waitFor();
    const dialog = caioPage.getByRole('dialog', { name: 'O formulário que você estava acessando foi privado pelo criador!' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'OK' }).click();
    await caioPage.waitForURL(`${server.url}/i/recent`);
    // The creator keeps it.
    expect(await admin.getByText('Private', { exact: true }).first().isVisible()).toBe(true);
  }, budget(240_000));

  it('the creator picks who else may edit the template; the listing names them and they may edit, others only read', async () => {
    const c = await serviceCompany(server, sockets);
    const bia = await c.attendant('Bia Editora');
    const caio = await c.attendant('Caio Leitor');
    for (const p of [c.admin, bia, caio]) await server.db.user.update({ where: { id: p.userId }, data: { defaultCompanyId: c.company.id } });
    const admin = await pageFor(c.admin);
    await admin.goto(`${server.url}/i/forma/new`);
    await admin.getByLabel('Form name').fill('Checklist de instalação');
    await admin.getByLabel('New field').selectOption('checkbox');
    await admin.getByRole('button', { name: 'Add field' }).click();
    await admin.getByLabel('Bia Editora may edit it').check();
    await admin.getByRole('button', { name: 'Save form' }).click();
    await admin.waitForURL(/\/i\/forma\/[0-9a-f-]{36}$/);
    const templateId = admin.url().split('/').pop()!;
    expect((await server.db.formTemplate.findUniqueOrThrow({ where: { id: templateId } })).editorIds).toEqual([bia.userId]);

    await admin.goto(`${server.url}/i/settings/forms`);
    const row = admin.getByRole('row', { name: /Checklist de instalação/ });
    await row.getByRole('cell', { name: 'Bia Editora', exact: true }).waitFor();

    // The editor may change it but not who edits; a colleague only reads, and is told who edits.
    const biaPage = await pageFor(bia);
    await biaPage.goto(`${server.url}/i/forma/${templateId}`);
    await biaPage.getByRole('button', { name: 'Save form' }).waitFor();
    await biaPage.getByText('Who else may edit it: Bia Editora').waitFor();
    const caioPage = await pageFor(caio);
    await caioPage.goto(`${server.url}/i/forma/${templateId}`);
    await caioPage.getByText('Who else may edit it: Bia Editora').waitFor();
    expect(await caioPage.getByRole('button', { name: 'Save form' }).count()).toBe(0);
  }, budget(120_000));
});
