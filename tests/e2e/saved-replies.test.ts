/**
 * Saved replies in the browser: an admin keeps them in Settings (empty state, dialog, errors,
 * removal), an attendant inserts one in a conversation with "/" and the keyboard, its
 * placeholders filled. Real server, database, sockets and Chromium.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { addMember, createCompany, createUser, signIn } from '../helpers/fixtures';
import type { TestServer } from '../helpers/server';
import { e2eSuite } from '../helpers/suite';
import { callProcedure } from '../helpers/trpc';

let server: TestServer;
let browser: Browser;
const contexts = e2eSuite((started) => ({ server, browser } = started));

async function member(companyId: string, name: string, opts: { userId?: string } = {}) {
  const userId = opts.userId ?? (await createUser(server.db, { name })).id;
  if (!opts.userId) await addMember(server.db, companyId, userId);
  await server.db.user.update({ where: { id: userId }, data: { defaultCompanyId: companyId } });
  const cookie = await signIn(server.db, userId);
  const [cookieName, value] = cookie.split('=') as [string, string];
  const context = await browser.newContext({ locale: 'en-US' });
  contexts.push(context);
  await context.addCookies([{ name: cookieName, value, url: server.url }]);
  return { userId, name, cookie, page: await context.newPage() };
}

const composer = (page: Page) => page.getByRole('combobox', { name: 'Message' });

describe('saved replies', () => {
  it('an admin saves one in Settings; an attendant inserts it with "/" and Enter, filled in', async () => {
    const ana = await createUser(server.db, { name: 'Ana Souza' });
    const company = await createCompany(server.db, ana.id);
    const a = await member(company.id, 'Ana Souza', { userId: ana.id });
    const b = await member(company.id, 'Bruno Lima');

    await a.page.goto(`${server.url}/i/settings/replies`);
    await a.page.getByText('No saved replies yet').waitFor();
    await a.page.getByRole('button', { name: 'New saved reply' }).click();
    let dialog = a.page.getByRole('dialog', { name: 'New saved reply' });
    await dialog.getByRole('textbox', { name: 'Shortcut' }).fill('hello');
    await dialog.getByRole('textbox', { name: 'Title' }).fill('Greeting');
    await dialog.getByRole('textbox', { name: 'Text' }).fill('Hello {customer}, this is {me} from {company}.');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await a.page.getByText('Saved reply /hello saved.').waitFor();
    const table = a.page.getByRole('grid', { name: 'Saved replies' });
    await table.getByRole('rowheader', { name: '/hello' }).waitFor();

    // The same shortcut again: the server's refusal, in the dialog, nothing saved twice.
    await a.page.getByRole('button', { name: 'New saved reply' }).click();
    dialog = a.page.getByRole('dialog', { name: 'New saved reply' });
    await dialog.getByRole('textbox', { name: 'Shortcut' }).fill('/Hello');
    await dialog.getByRole('textbox', { name: 'Text' }).fill('Other');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'A saved reply with this shortcut already exists' }).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await server.db.savedReply.count({ where: { companyId: company.id } })).toBe(1);

    // A second one, then removed behind a confirmation.
    await a.page.getByRole('button', { name: 'New saved reply' }).click();
    dialog = a.page.getByRole('dialog', { name: 'New saved reply' });
    await dialog.getByRole('textbox', { name: 'Shortcut' }).fill('bye');
    await dialog.getByRole('textbox', { name: 'Text' }).fill('Bye!');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await table.getByRole('rowheader', { name: '/bye' }).waitFor();
    await table.getByRole('button', { name: 'Remove /bye' }).click();
    await a.page.getByRole('dialog', { name: 'Remove the saved reply /bye?' }).getByRole('button', { name: 'Remove' }).click();
    await a.page.getByText('Saved reply /bye removed.').waitFor();
    expect(await server.db.savedReply.count({ where: { companyId: company.id } })).toBe(1);

    // A member who is not an admin is told, not shown a broken screen.
    await b.page.goto(`${server.url}/i/settings/replies`);
    await b.page.getByText(`Only administrators of ${company.name} can manage its settings.`).waitFor();

    // In a conversation, Bruno types "/he": the reply is offered; Enter inserts it filled in
    // (a colleague chat has no customer: "{customer}" goes away with its space).
    const res = await callProcedure(server.url, 'chat.startTeam', { domain: company.domain, title: 'Plantão', userIds: [ana.id] }, { cookie: b.cookie, type: 'mutation' });
    const conversationId = (res.data as { conversationId: string }).conversationId;
    await b.page.goto(`${server.url}/i/recent/chat/${conversationId}`);
    await composer(b.page).pressSequentially('/he');
    const option = b.page.getByRole('listbox', { name: 'Saved replies' }).getByRole('option', { name: /\/hello/ });
    await option.waitFor();
    expect(await option.getAttribute('aria-selected')).toBe('true');
    await composer(b.page).press('Enter');
    expect(await composer(b.page).inputValue()).toBe(`Hello, this is Bruno Lima from ${company.name}.`);
    await composer(b.page).press('Enter');
    await a.page.goto(`${server.url}/i/recent/chat/${conversationId}`);
    await a.page.getByRole('log', { name: 'Messages' }).getByText(`Hello, this is Bruno Lima from ${company.name}.`).waitFor();

    // Escape closes the list and leaves the text as typed.
    await composer(b.page).pressSequentially('/zz');
    await composer(b.page).press('Backspace');
    await composer(b.page).press('Backspace');
    await b.page.getByRole('listbox', { name: 'Saved replies' }).waitFor();
    await composer(b.page).press('Escape');
    await b.page.getByRole('listbox', { name: 'Saved replies' }).waitFor({ state: 'detached' });
    expect(await composer(b.page).inputValue()).toBe('/');
  });
});
