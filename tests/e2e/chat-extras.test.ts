/**
 * The chat's extras in the browser: starting chats (one person, 'continuar' / 'criar outro',
 * not with oneself, team chats), mentions, reply, edit, delete, message details, participants
 * (add, remove, leave), notes, pins and deleting a conversation with REMOVER.
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

interface Person {
  userId: string;
  name: string;
  cookie: string;
  page: Page;
}

async function member(companyId: string, name: string, opts: { isAdmin?: boolean; userId?: string } = {}): Promise<Person> {
  const userId = opts.userId ?? (await createUser(server.db, { name })).id;
  if (!opts.userId) await addMember(server.db, companyId, userId, { isAdmin: opts.isAdmin });
  await server.db.user.update({ where: { id: userId }, data: { defaultCompanyId: companyId } });
  const cookie = await signIn(server.db, userId);
  const [cookieName, value] = cookie.split('=') as [string, string];
  const context = await browser.newContext({ locale: 'en-US' });
  contexts.push(context);
  await context.addCookies([{ name: cookieName, value, url: server.url }]);
  return { userId, name, cookie, page: await context.newPage() };
}

/** Ana (admin, creator), Bruno and Carla (members). */
async function team() {
  const ana = await createUser(server.db, { name: 'Ana Souza' });
  const company = await createCompany(server.db, ana.id);
  return {
    company,
    a: await member(company.id, 'Ana Souza', { userId: ana.id }),
    b: await member(company.id, 'Bruno Lima'),
    c: await member(company.id, 'Carla Dias'),
  };
}

async function call<T>(who: Person, path: string, input: Record<string, unknown>, domain: string) {
  const res = await callProcedure(server.url, path, { domain, ...input }, { cookie: who.cookie, type: 'mutation' });
  if (res.error) throw new Error(res.error.message);
  return res.data as T;
}

const log = (page: Page) => page.getByRole('log', { name: 'Messages' });
const composer = (page: Page) => page.getByRole('combobox', { name: 'Message' });
const conversationIdOf = (page: Page) => new URL(page.url()).pathname.split('/')[4]!;
/** A message by its own text (not the quote of it a reply carries). */
const bubble = (page: Page, text: string | RegExp) => log(page).getByRole('listitem').filter({ has: page.locator('.message-text', { hasText: text }) });

async function messageAction(page: Page, text: string, action: string) {
  const item = bubble(page, text);
  await item.hover();
  await item.getByRole('button', { name: 'Message actions' }).first().click();
  await item.getByRole('button', { name: action }).click();
}

describe('starting chats', () => {
  it('one person: not oneself; an open chat offers continue or create another; team chat with a title', async () => {
    const { a, b, c } = await team();
    await a.page.goto(`${server.url}/i/optionsList`);
    await a.page.getByRole('link', { name: /New chat/ }).click();
    await a.page.getByRole('heading', { name: 'New chat' }).waitFor();

    await a.page.getByRole('button', { name: 'Ana Souza (you)' }).click();
    await a.page.getByRole('alert').filter({ hasText: 'You cannot start an event with yourself' }).waitFor();

    await a.page.getByLabel('Search contacts').fill('brun');
    expect(await a.page.getByRole('button', { name: /Carla Dias/ }).count()).toBe(0);
    await a.page.getByRole('button', { name: /Bruno Lima/ }).click();
    await a.page.waitForURL(/\/i\/recent\/chat\//);
    const first = conversationIdOf(a.page);
    await composer(a.page).waitFor();

    await a.page.goto(`${server.url}/i/optionsList/newChat`);
    await a.page.getByRole('button', { name: /Bruno Lima/ }).click();
    const dialog = a.page.getByRole('dialog', { name: 'You already have a conversation with Bruno Lima' });
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await a.page.waitForURL(`**/i/recent/chat/${first}`);

    await a.page.goto(`${server.url}/i/optionsList/newChat`);
    await a.page.getByRole('button', { name: /Bruno Lima/ }).click();
    await dialog.getByRole('button', { name: 'Create another' }).click();
    await a.page.waitForURL((url) => url.pathname.startsWith('/i/recent/chat/') && !url.pathname.endsWith(first));
    expect(await server.db.conversation.count({ where: { participants: { some: { userId: b.userId } } } })).toBe(2);

    // A plain member (not an admin) with no conversation yet finds a colleague by name (chat.contacts).
    await c.page.goto(`${server.url}/i/optionsList/newChat`);
    await c.page.getByLabel('Search contacts').fill('bru');
    await c.page.getByRole('button', { name: /Bruno Lima/ }).click();
    await c.page.waitForURL(/\/i\/recent\/chat\//);
    await c.page.getByRole('heading', { name: 'Bruno Lima' }).waitFor();

    await a.page.goto(`${server.url}/i/optionsList/newChat?team=1`);
    await a.page.getByRole('button', { name: 'Create team chat' }).click();
    await a.page.getByRole('alert').filter({ hasText: 'Give the team chat a title' }).waitFor();
    await a.page.getByLabel('Title').fill('Suporte N2');
    await a.page.getByLabel('Bruno Lima').check();
    await a.page.getByLabel('Carla Dias').check();
    await a.page.getByRole('button', { name: 'Create team chat' }).click();
    await a.page.getByRole('heading', { name: 'Suporte N2' }).waitFor();
    const created = await server.db.conversation.findUniqueOrThrow({ where: { id: conversationIdOf(a.page) }, include: { participants: true } });
    expect(created.participants.map((p) => p.userId).sort()).toEqual([a.userId, b.userId, c.userId].sort());
  });
});

describe('in a team chat', () => {
  it('mention, reply, edit, delete, message details, pin, notes', async () => {
    const { company, a, b, c } = await team();
    const { conversationId } = await call<{ conversationId: string }>(a, 'chat.startTeam', { title: 'Plantão', userIds: [b.userId, c.userId] }, company.domain);
    await a.page.goto(`${server.url}/i/recent/chat/${conversationId}`);
    await b.page.goto(`${server.url}/i/recent/chat/${conversationId}`);
    await c.page.goto(`${server.url}/i/recent`);

    // @ offers the participants; Enter picks; the message mentions Carla, whose list flags it.
    await composer(a.page).pressSequentially('Bom dia @Car');
    await a.page.getByRole('option', { name: 'Carla Dias' }).waitFor();
    await composer(a.page).press('Enter');
    expect(await composer(a.page).inputValue()).toBe('Bom dia @Carla Dias ');
    await composer(a.page).press('Enter');
    await bubble(b.page, 'Bom dia @Carla Dias').waitFor();
    const sent = await server.db.message.findFirstOrThrow({ where: { conversationId, text: 'Bom dia @Carla Dias' } });
    expect(sent.mentions).toEqual([c.userId]);
    await c.page.getByRole('link', { name: /Plantão/ }).getByRole('img', { name: 'You were mentioned' }).waitFor();

    // Bruno replies with a quote.
    await messageAction(b.page, 'Bom dia @Carla Dias', 'Reply');
    await b.page.getByText('Replying to Ana Souza').waitFor();
    await composer(b.page).fill('Bom dia!');
    await composer(b.page).press('Enter');
    const reply = bubble(a.page, 'Bom dia!');
    await reply.getByRole('button', { name: 'Go to the message this replies to' }).filter({ hasText: 'Ana Souza' }).waitFor();

    // Ana edits her message; the others see the new text, marked edited.
    await messageAction(a.page, 'Bom dia @Carla Dias', 'Edit');
    await a.page.getByText('Editing message').waitFor();
    await composer(a.page).fill('Bom dia, equipe @Carla Dias');
    await composer(a.page).press('Enter');
    await bubble(b.page, 'Bom dia, equipe').getByText('edited').waitFor();

    // Bruno removes his reply: everyone sees it removed.
    await messageAction(b.page, 'Bom dia!', 'Delete');
    await b.page.getByRole('dialog', { name: 'Delete this message for everyone?' }).getByRole('button', { name: 'Delete' }).click();
    await log(a.page).getByText('Message removed').waitFor();
    expect((await server.db.message.findFirstOrThrow({ where: { conversationId, seq: 2 } })).removed).toBe(true);

    // Who received and read Ana's message.
    await messageAction(a.page, 'Bom dia, equipe', 'Message details');
    await a.page.getByRole('heading', { name: 'Message details' }).waitFor();
    const brunoRow = a.page.getByRole('row').filter({ hasText: 'Bruno Lima' });
    await expect.poll(async () => (await brunoRow.locator('td').allTextContents()).every((t) => t !== 'Not yet')).toBe(true);
    await a.page.getByRole('link', { name: 'Back to the conversation' }).click();

    // Pin: the conversation goes to the top of Carla's list and stays marked.
    await call(a, 'chat.startDirect', { userId: c.userId }, company.domain).then(({ conversationId: other }: any) =>
      call(a, 'chat.send', { conversationId: other, clientId: 'later', text: 'newer one' }, company.domain),
    );
    const links = c.page.getByRole('list', { name: 'Conversations' }).getByRole('link');
    await expect.poll(async () => (await links.first().textContent()) ?? '').toContain('newer one');
    await c.page.getByRole('button', { name: 'Pin Plantão on top' }).click();
    await expect.poll(async () => (await links.first().textContent()) ?? '').toContain('Plantão');
    expect((await server.db.participant.findFirstOrThrow({ where: { conversationId, userId: c.userId } })).fixed).toBe(true);

    // Notes: members only, live for the others.
    await a.page.getByRole('link', { name: 'Annotations' }).click();
    await a.page.getByLabel('New note').fill('Cliente prefere contato à tarde');
    await a.page.getByRole('button', { name: 'Add note' }).click();
    await b.page.getByRole('link', { name: 'Annotations' }).click();
    await b.page.getByText('Cliente prefere contato à tarde').waitFor();
  });

  it('participants: add, remove with confirmation, leave; delete the conversation typing REMOVER', async () => {
    const { company, a, b, c } = await team();
    const { conversationId } = await call<{ conversationId: string }>(a, 'chat.startTeam', { title: 'Projeto X', userIds: [b.userId] }, company.domain);
    await a.page.goto(`${server.url}/i/recent/chat/${conversationId}/addParticipants`);
    await a.page.getByLabel('Carla Dias').check();
    await a.page.getByRole('button', { name: 'Add', exact: true }).click();
    await a.page.getByText('New participants were added', { exact: true }).waitFor();
    await log(a.page).getByText('New participants were added: Carla Dias').waitFor();

    await a.page.getByRole('link', { name: 'Details' }).click();
    await a.page.getByRole('button', { name: 'Remove Carla Dias' }).click();
    await a.page.getByRole('dialog', { name: 'Do you want to remove Carla Dias?' }).getByRole('button', { name: 'Remove' }).click();
    await a.page.getByText('The participant was removed!').waitFor();
    await log(a.page).getByText('Carla Dias was removed').waitFor();
    await c.page.goto(`${server.url}/i/recent/chat/${conversationId}`);
    await c.page.getByRole('alert').filter({ hasText: 'You have been removed from Attendance' }).waitFor();

    await b.page.goto(`${server.url}/i/recent/chat/${conversationId}/details`);
    await b.page.getByRole('button', { name: 'Leave' }).click();
    await b.page.getByRole('dialog', { name: 'Do you want to leave?' }).getByRole('button', { name: 'Leave' }).click();
    await b.page.getByText('You left the conversation').waitFor();
    await log(a.page).getByText('Bruno Lima left the conversation').waitFor();

    const dialog = a.page.getByRole('dialog', { name: 'Delete this conversation?' });
    await a.page.getByRole('button', { name: 'Delete conversation' }).click();
    await dialog.getByLabel('Type REMOVER to confirm').fill('remove');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'Type REMOVER to confirm' }).waitFor();
    await dialog.getByLabel('Type REMOVER to confirm').fill('  remover ');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await a.page.getByText('The conversation was deleted').waitFor();
    expect(await server.db.conversation.count({ where: { id: conversationId } })).toBe(0);
  });
});
