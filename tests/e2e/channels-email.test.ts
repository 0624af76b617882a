/**
 * E-mail in Chromium: the admin sets the company's mailbox on /i/settings/integrations (checked
 * against a real Dovecot and smtp-server); a customer's mail arrives in the queue; the attendant
 * takes it, sees the attachment, and answers from the browser; the answer leaves by SMTP in the
 * customer's thread, and the customer's reply shows up live in the same conversation.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../helpers/browser';
import { composeMail, hasDovecot, startImapServer } from '../helpers/imap';
import { serviceCompany, type ClientSocket, type Person } from '../helpers/service';
import { startTestServer, type TestServer } from '../helpers/server';
import { startSmtpServer } from '../helpers/smtp';

const BOX = { user: 'atendimento@loja.test', pass: 'imap-e2e-secret' };
const BOX2 = { user: 'compras@loja2.test', pass: 'imap-e2e-secret-2' };

let server: TestServer;
let browser: Browser;
let imap: Awaited<ReturnType<typeof startImapServer>>;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
const sockets: ClientSocket[] = [];
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  if (!hasDovecot()) throw new Error('dovecot is not installed: apt-get install -y dovecot-imapd (see .ci/run)');
  [imap, smtp] = await Promise.all([startImapServer([BOX, BOX2]), startSmtpServer()]);
  [server, browser] = await Promise.all([startTestServer({ env: { MAIL_POLL_MS: '150', CHANNEL_POLL_MS: '50' } }), launchBrowser()]);
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  for (const c of contexts) await c.close();
  await browser?.close();
  await server?.close();
  await smtp?.close();
  await imap?.close();
});

async function pageFor(person: Person): Promise<Page> {
  const context = await browser.newContext({ locale: 'en-US' });
  contexts.push(context);
  const [name, value] = person.cookie.split('=') as [string, string];
  await context.addCookies([{ name, value, url: server.url }]);
  return context.newPage();
}

const messages = (page: Page) => page.getByRole('log', { name: 'Messages' });
const composer = (page: Page) => page.getByRole('combobox', { name: 'Message' });

describe('E-mail', () => {
  it('the admin sets the mailbox; an attendant answers a mail from the browser, in its thread', async () => {
    const c = await serviceCompany(server, sockets, { plan: { intmail: 1 } });
    const bia = await c.attendant('Bia Atendente', { groupIds: [c.group('member')] });
    for (const p of [c.admin, bia]) await server.db.user.update({ where: { id: p.userId }, data: { defaultCompanyId: c.company.id } });

    const admin = await pageFor(c.admin);
    await admin.goto(`${server.url}/i/settings/integrations`);
    await admin.getByLabel('E-mail address').fill(BOX.user);
    const imapBox = admin.getByRole('group', { name: 'Incoming mail (IMAP)' });
    await imapBox.getByLabel('Server').fill(imap.host);
    await imapBox.getByLabel('Port').fill(String(imap.port));
    await imapBox.getByLabel('Encrypted connection (TLS)').uncheck();
    await imapBox.getByLabel('User').fill(BOX.user);
    await imapBox.getByLabel('Password').fill(BOX.pass);
    const smtpBox = admin.getByRole('group', { name: 'Outgoing mail (SMTP)' });
    await smtpBox.getByLabel('Server').fill('127.0.0.1');
    await smtpBox.getByLabel('Port').fill(String(smtp.port));
    await smtpBox.getByLabel('Encrypted connection (TLS)').uncheck();
    await admin.getByRole('button', { name: 'Save' }).click();
    await admin.getByText('No integrations yet').waitFor();
    await expect.poll(async () => (await server.db.channelSetting.count({ where: { companyId: c.company.id, channel: 'email' } })) === 1).toBe(true);
    // At phone width the screen fits: nothing scrolls sideways.
    await admin.setViewportSize({ width: 390, height: 844 });
    expect(await admin.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    if (process.env.E2E_SCREENSHOTS) await admin.screenshot({ path: `${process.env.E2E_SCREENSHOTS}/email-settings-phone.png`, fullPage: true });

    const biaPage = await pageFor(bia);
    await biaPage.goto(`${server.url}/i/recent/queue/all`);
    await biaPage.getByText('Nobody is waiting.').waitFor();
    await imap.deliver(
      BOX,
      await composeMail({
        from: 'Carla Cliente <carla@cliente.test>',
        to: BOX.user,
        subject: 'Pedido 123 atrasado',
        text: 'Meu pedido ainda não chegou.',
        messageId: 'carla.1@cliente.test',
        attachments: [{ filename: 'comprovante.pdf', content: Buffer.from('%PDF-1.4 comprovante'), contentType: 'application/pdf' }],
      }),
    );
    await biaPage.getByText(/Pedido 123 atrasado/).first().waitFor();
    await biaPage.getByRole('button', { name: 'Take the request of Carla Cliente' }).click();
    const conversation = await server.db.conversation.findFirstOrThrow({ where: { companyId: c.company.id } });
    await biaPage.waitForURL(`**/i/recent/chat/${conversation.id}`);
    await messages(biaPage).getByText('comprovante.pdf').first().waitFor();

    await composer(biaPage).fill('Olá Carla, vou verificar agora.');
    await composer(biaPage).press('Enter');
    await expect.poll(() => smtp.inbox.some((m) => m.to === 'carla@cliente.test' && m.text.includes('Olá Carla, vou verificar agora.'))).toBe(true);
    const sent = smtp.inbox.find((m) => m.text.includes('Olá Carla, vou verificar agora.'))!;
    expect(sent.subject).toBe(`Re: Pedido 123 atrasado [#${conversation.protocol}]`);
    expect(sent.references?.map((r) => r.replace(/^<|>$/g, ''))).toContain('carla.1@cliente.test');
    await messages(biaPage).getByRole('listitem').filter({ hasText: 'Olá Carla, vou verificar agora.' }).getByRole('img', { name: 'Delivered' }).waitFor();

    await imap.deliver(
      BOX,
      await composeMail({ from: 'carla@cliente.test', to: BOX.user, subject: sent.subject, text: 'Obrigada!', messageId: 'carla.2@cliente.test', inReplyTo: sent.messageId?.replace(/^<|>$/g, '') }),
    );
    await messages(biaPage).getByText('Obrigada!').waitFor();
    // The desk says the customer came by e-mail: in the list and in the service panel.
    await biaPage.getByRole('list', { name: 'Conversations' }).getByRole('listitem').filter({ hasText: 'Carla Cliente' }).getByText('by e-mail').waitFor();
    await biaPage.goto(`${server.url}/i/recent/chat/${conversation.id}/concluir`);
    await biaPage.locator('.service-panel').getByText('by e-mail').waitFor();
  });

  it('an admin brings an outside address into a single conversation by e-mail from the add-participants panel', async () => {
    const c = await serviceCompany(server, sockets, { plan: { intmail: 1 } });
    const bia = await c.attendant('Bia Atendente', { groupIds: [c.group('member')] });
    await server.db.user.update({ where: { id: c.admin.userId }, data: { defaultCompanyId: c.company.id } });
    await c.admin.call('channels.saveEmail', {
      domain: c.domain, queueId: null, address: BOX2.user, imapHost: imap.host, imapPort: imap.port, imapSecure: false, imapUser: BOX2.user, imapPassword: BOX2.pass,
      smtpHost: '127.0.0.1', smtpPort: smtp.port, smtpSecure: false, smtpUser: '',
    });
    const { conversationId } = await c.admin.call('chat.startDirect', { domain: c.domain, userId: bia.userId });
    const admin = await pageFor(c.admin);
    await admin.goto(`${server.url}/i/recent/chat/${conversationId}/addParticipants`);
    await admin.getByLabel('E-mail address').fill('compras@fornecedor.test');
    await admin.getByRole('button', { name: 'Add by e-mail' }).click();
    await admin.getByText('compras@fornecedor.test was added by e-mail').waitFor();
    await expect.poll(() => smtp.inbox.some((m) => m.to === 'compras@fornecedor.test')).toBe(true);
  });
});
