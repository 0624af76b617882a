/**
 * The e-mail integration end to end against real servers: Dovecot (Debian's dovecot-imapd, run by
 * tests/helpers/imap.ts) holds the company's mailbox, smtp-server receives the replies. A mail
 * opens a request in the queue its Integration routes to, with its attachment; replies go out in
 * the thread; the customer's answer lands in the same conversation; a restart imports nothing
 * twice; one company never sees another's mail.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeMail, hasDovecot, startImapServer, type ImapUser } from '../helpers/imap';
import { startTestServer, type TestServer } from '../helpers/server';
import { serviceCompany, until, type ClientSocket } from '../helpers/service';
import { startSmtpServer, type ReceivedMail } from '../helpers/smtp';

const { Client } = pg;
const SMTP_AUTH = { user: 'relay@acme.test', pass: 'smtp-secret' };
const boxes: ImapUser[] = Array.from({ length: 8 }, (_, i) => ({ user: `support${i}@acme.test`, pass: `imap-secret-${i}` }));

let server: TestServer;
let imap: Awaited<ReturnType<typeof startImapServer>>;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
const sockets: ClientSocket[] = [];
const env = { MAIL_POLL_MS: '100', CHANNEL_POLL_MS: '50', CHANNEL_RETRY_BASE_MS: '50', CHANNEL_MAX_ATTEMPTS: '3' };

beforeAll(async () => {
  if (!hasDovecot()) throw new Error('dovecot is not installed: apt-get install -y dovecot-imapd (see .ci/run)');
  [imap, smtp] = await Promise.all([startImapServer(boxes), startSmtpServer({ auth: SMTP_AUTH })]);
  server = await startTestServer({ env });
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await server?.close();
  await smtp?.close();
  await imap?.close();
});

let nextBox = 0;
async function connected(opts: { plan?: Record<string, number> } = {}) {
  const box = boxes[nextBox++]!;
  const c = await serviceCompany(server, sockets, { plan: { intmail: 1, ...opts.plan } });
  const bia = await c.attendant('Bia Atendente', { groupIds: [c.group('member')] });
  const settings = await c.admin.call('channels.saveEmail', mailboxInput(c.domain, c.queue.id, box));
  return { c, bia, box, settings };
}

function mailboxInput(domain: string, queueId: string | null, box: ImapUser, over: Record<string, unknown> = {}) {
  return {
    domain,
    queueId,
    address: box.user,
    imapHost: imap.host,
    imapPort: imap.port,
    imapSecure: false,
    imapUser: box.user,
    imapPassword: box.pass,
    smtpHost: '127.0.0.1',
    smtpPort: smtp.port,
    smtpSecure: false,
    smtpUser: SMTP_AUTH.user,
    smtpPassword: SMTP_AUTH.pass,
    ...over,
  };
}

const mailsTo = (to: string) => smtp.inbox.filter((m) => m.to === to);
async function mailTo(to: string, match: (m: ReceivedMail) => boolean): Promise<ReceivedMail> {
  await until(() => mailsTo(to).some(match));
  return mailsTo(to).find(match)!;
}
const bare = (id?: string) => id?.replace(/^<|>$/g, '');

describe('E-mail integration', () => {
  it('settings check both servers, keep the passwords sealed, and are for admins on plans with intmail', async () => {
    const { c, bia, box, settings } = await connected();
    expect(settings).toMatchObject({ configured: true, enabled: true, hasImapPassword: true, hasSmtpPassword: true, mailbox: { address: box.user, imapPort: imap.port } });
    expect(JSON.stringify(settings)).not.toContain(box.pass);
    const row = await server.db.channelSetting.findFirstOrThrow({ where: { companyId: c.company.id, channel: 'email' } });
    expect(row.credentials).not.toContain(box.pass);
    expect(row.credentials).not.toContain(SMTP_AUTH.pass);
    // Blank passwords keep the stored ones.
    const again = await c.admin.call('channels.saveEmail', mailboxInput(c.domain, c.queue.id, box, { imapPassword: '', smtpPassword: undefined }));
    expect(again).toMatchObject({ hasImapPassword: true });
    const wrongImap = await c.admin.attempt('channels.saveEmail', mailboxInput(c.domain, null, box, { imapPassword: 'wrong' }));
    expect(wrongImap.error).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringMatching(/^The provider refused the connection: IMAP: /) });
    const wrongSmtp = await c.admin.attempt('channels.saveEmail', mailboxInput(c.domain, null, box, { smtpPassword: 'wrong' }));
    expect(wrongSmtp.error).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringMatching(/^The provider refused the connection: SMTP: /) });
    expect((await bia.attempt('channels.emailSettings', { domain: c.domain }, 'query')).error).toMatchObject({ code: 'FORBIDDEN' });
    const unknown = await c.admin.attempt('channels.removeIntegration', { domain: c.domain, id: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.error).toMatchObject({ code: 'NOT_FOUND', message: 'integration URL not found' });
    // A plan without intmail: refused, and its mailbox is not read.
    const off = await serviceCompany(server, sockets, { plan: { intmail: 0 } });
    expect((await off.admin.attempt('channels.emailSettings', { domain: off.domain }, 'query')).error).toMatchObject({ code: 'FORBIDDEN' });
  });

  it('a mail opens a request in the queue its title TAG routes to, with its attachment; replies go out in the thread and the answer comes back to the same conversation', async () => {
    const { c, bia, box } = await connected();
    const vendas = await c.admin.call('queues.create', { domain: c.domain, name: 'Vendas', groupIds: [c.group('member'), c.group('admin')] });
    await c.admin.call('channels.saveIntegration', { domain: c.domain, email: box.user, tags: ['[VENDAS]', ' '], queueId: vendas.id });
    const pdf = Buffer.from('%PDF-1.4 orcamento de teste');
    await imap.deliver(
      box,
      await composeMail({
        from: 'Tiago Cliente <tiago@cliente.test>',
        to: box.user,
        subject: '[VENDAS] Orçamento de 10 cadeiras',
        text: 'Bom dia, segue o pedido.',
        messageId: 'first.1@cliente.test',
        attachments: [{ filename: 'pedido.pdf', content: pdf, contentType: 'application/pdf' }],
      }),
    );
    await until(async () => (await server.db.message.count({ where: { conversation: { companyId: c.company.id }, type: 'arquivo' } })) === 1);
    const conv = await server.db.conversation.findFirstOrThrow({ where: { companyId: c.company.id }, include: { participants: true } });
    expect(conv).toMatchObject({ queueId: vendas.id, inQueue: true, title: 'Tiago Cliente' });
    const customer = conv.participants.find((p) => p.userId === conv.creatorId)!;
    expect(customer.email).toBe(true);
    const first = await server.db.message.findFirstOrThrow({ where: { conversationId: conv.id, authorId: customer.userId, type: 'texto' } });
    expect(first.text).toBe('[VENDAS] Orçamento de 10 cadeiras\n\nBom dia, segue o pedido.');
    const file = await server.db.message.findFirstOrThrow({ where: { conversationId: conv.id, type: 'arquivo' } });
    expect(file).toMatchObject({ fileName: 'pedido.pdf', fileSize: BigInt(pdf.length), authorId: customer.userId });
    const stored = await server.server.deps.storage.get(file.fileKey!);
    const chunks: Buffer[] = [];
    for await (const chunk of stored) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(pdf)).toBe(true);

    // The greeting answers the customer's mail, in its thread, with the protocol tag.
    const greeting = await mailTo('tiago@cliente.test', () => true);
    expect(greeting.from).toBe(box.user);
    expect(greeting.subject).toBe(`Re: [VENDAS] Orçamento de 10 cadeiras [#${conv.protocol}]`);
    expect(bare(greeting.inReplyTo)).toBe('first.1@cliente.test');

    await bia.call('service.take', { domain: c.domain, conversationId: conv.id });
    // The desk is told the customer came by e-mail (service panel and the list).
    expect(await bia.call('service.details', { domain: c.domain, conversationId: conv.id }, 'query')).toMatchObject({ customerChannel: 'email' });
    const recents = await bia.call('chat.recents', { domain: c.domain, q: '', timeZone: 'UTC', limit: 50, filter: 'all' }, 'query');
    expect(recents.items.find((r: { conversationId: string }) => r.conversationId === conv.id)!.others).toContainEqual(expect.objectContaining({ userId: customer.userId, channel: 'email' }));
    await bia.call('chat.send', { domain: c.domain, conversationId: conv.id, clientId: 'e1', text: 'Olá Tiago, já preparo o orçamento.' });
    const reply = await mailTo('tiago@cliente.test', (m) => m.text.includes('já preparo o orçamento'));
    expect(reply.subject).toBe(greeting.subject);
    expect(bare(reply.inReplyTo)).toBeTruthy();
    expect(reply.references?.map(bare)).toContain('first.1@cliente.test');

    // A file from the attendant goes out as an attachment.
    const png = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(300, 7)]);
    const up = await fetch(`${server.url}/uploads/chat/${c.domain}/${conv.id}?clientId=f1&name=tabela.png`, {
      method: 'PUT',
      headers: { cookie: bia.cookie, 'content-type': 'image/png' },
      body: new Blob([new Uint8Array(png)]),
    });
    expect(up.status).toBe(200);
    const withFile = await mailTo('tiago@cliente.test', (m) => m.attachments.length > 0);
    expect(withFile.attachments[0]).toMatchObject({ filename: 'tabela.png' });
    expect(withFile.attachments[0]!.bytes.equals(png)).toBe(true);

    // The customer answers the reply (headers) and later writes with only the tag in the subject.
    await imap.deliver(
      box,
      await composeMail({
        from: 'tiago@cliente.test',
        to: box.user,
        subject: reply.subject,
        text: `Perfeito, obrigado!\n\nOn Mon, 1 Dec 2026 at 10:00, Service wrote:\n> Olá Tiago, já preparo o orçamento.`,
        messageId: 'second.2@cliente.test',
        inReplyTo: bare(reply.messageId),
        references: ['first.1@cliente.test', bare(reply.messageId)!],
      }),
    );
    await imap.deliver(
      box,
      await composeMail({ from: 'tiago@cliente.test', to: box.user, subject: `Mais uma coisa [#${conv.protocol}]`, text: 'Entregam sábado?', messageId: 'third.3@cliente.test' }),
    );
    await until(async () => (await server.db.message.count({ where: { conversationId: conv.id, text: 'Entregam sábado?' } })) === 1);
    expect(await server.db.message.count({ where: { conversationId: conv.id, text: 'Perfeito, obrigado!' } })).toBe(1);
    expect(await server.db.conversation.count({ where: { companyId: c.company.id } })).toBe(1);
    // The customer's own words are not mailed back to them.
    expect(mailsTo('tiago@cliente.test').some((m) => m.text.includes('Perfeito, obrigado!'))).toBe(false);
  });

  it('a restart imports nothing twice, even when the mailbox is read again from the start', async () => {
    const { c, box } = await connected();
    await imap.deliver(box, await composeMail({ from: 'rita@cliente.test', to: box.user, subject: 'Nota fiscal', text: 'Preciso da nota.', messageId: 'nf.1@cliente.test' }));
    await until(async () => (await server.db.message.count({ where: { conversation: { companyId: c.company.id }, text: 'Nota fiscal\n\nPreciso da nota.' } })) === 1);
    await mailTo('rita@cliente.test', () => true); // the greeting went out before the restart
    const setting = await server.db.channelSetting.findFirstOrThrow({ where: { companyId: c.company.id, channel: 'email' } });
    await server.close();
    // While no poller runs, forget where it stopped: the whole INBOX is read again after the start.
    const pg = new Client({ connectionString: server.databaseUrl });
    await pg.connect();
    await pg.query(`UPDATE "ChannelSetting" SET "info" = "info" - 'uidValidity' - 'lastUid' WHERE "id" = $1`, [setting.id]);
    await pg.end();
    server = await startTestServer({ env, databaseUrl: server.databaseUrl });
    await imap.deliver(box, await composeMail({ from: 'rita@cliente.test', to: box.user, subject: 'Re: Nota fiscal', text: 'Pode ser PDF.', messageId: 'nf.2@cliente.test', inReplyTo: 'nf.1@cliente.test' }));
    await until(async () => (await server.db.message.count({ where: { conversation: { companyId: c.company.id }, text: 'Pode ser PDF.' } })) === 1);
    await until(async () => !!((await server.db.channelSetting.findUniqueOrThrow({ where: { id: setting.id } })).info as Record<string, string>).lastUid);
    expect(await server.db.conversation.count({ where: { companyId: c.company.id } })).toBe(1);
    expect(await server.db.message.count({ where: { conversation: { companyId: c.company.id }, text: 'Nota fiscal\n\nPreciso da nota.' } })).toBe(1);
    expect(await server.db.channelOutbox.count({ where: { companyId: c.company.id, channel: 'email', status: 'pending' } })).toBe(0);
    expect(mailsTo('rita@cliente.test')).toHaveLength(1); // the greeting, once
  });

  it("one company's mailbox and integrations are its own", async () => {
    const a = await connected();
    const b = await connected();
    // B cannot route its mail into A's queue, nor touch A's integration.
    const refused = await b.c.admin.attempt('channels.saveIntegration', { domain: b.c.domain, email: '', tags: ['X'], queueId: a.c.queue.id });
    expect(refused.error).toMatchObject({ code: 'BAD_REQUEST', message: 'Queue not found' });
    const aSettings = await a.c.admin.call('channels.saveIntegration', { domain: a.c.domain, email: '', tags: ['SUPORTE'], queueId: a.c.queue.id });
    const aIntegration = aSettings.integrations[0]!;
    const removeA = await b.c.admin.attempt('channels.removeIntegration', { domain: b.c.domain, id: aIntegration.id });
    expect(removeA.error).toMatchObject({ code: 'NOT_FOUND', message: 'integration URL not found' });
    expect((await b.c.admin.attempt('channels.emailSettings', { domain: a.c.domain }, 'query')).error).toMatchObject({ code: 'FORBIDDEN' });
    // The same customer and the same Message-ID at both companies: each imports its own copy.
    for (const x of [a, b]) {
      await imap.deliver(x.box, await composeMail({ from: 'joao@cliente.test', to: x.box.user, subject: 'SUPORTE: impressora', text: `Para ${x.c.domain}`, messageId: 'same.1@cliente.test' }));
    }
    for (const x of [a, b]) {
      await until(async () => (await server.db.message.count({ where: { conversation: { companyId: x.c.company.id }, authorId: { not: null }, type: 'texto' } })) === 1);
      const convs = await server.db.conversation.findMany({ where: { companyId: x.c.company.id }, include: { messages: true } });
      expect(convs).toHaveLength(1);
      expect(convs[0]!.messages.some((m) => m.text === `SUPORTE: impressora\n\nPara ${x.c.domain}`)).toBe(true);
    }
  });

  it('integrate single service: an outside address joins a single conversation by e-mail and answers into it (permission integrateSingleService)', async () => {
    const { c, bia } = await connected();
    const { conversationId } = await c.admin.call('chat.startDirect', { domain: c.domain, userId: bia.userId });
    const input = { domain: c.domain, conversationId, email: 'Compras@Fornecedor.test', name: 'Fornecedor' };
    // The built-in member profile lacks the permission.
    expect((await bia.attempt('channels.integrateEmail', input)).error).toMatchObject({ code: 'FORBIDDEN' });
    expect(await c.admin.call('channels.integrateEmail', input)).toEqual({ added: true, email: 'compras@fornecedor.test' });
    const conv = await server.db.conversation.findUniqueOrThrow({ where: { id: conversationId }, include: { participants: true } });
    expect(conv.participants.filter((p) => p.email)).toHaveLength(1);
    const intro = await mailTo('compras@fornecedor.test', () => true);
    expect(intro.subject).toContain(`[#${conv.protocol}]`);
    expect(intro.subject.startsWith('Re:')).toBe(false);
    await c.admin.call('chat.send', { domain: c.domain, conversationId, clientId: 'x1', text: 'Podem entregar amanhã?' });
    const ask = await mailTo('compras@fornecedor.test', (m) => m.text.includes('Podem entregar amanhã?'));
    expect(ask.subject).toBe(`Re: ${intro.subject}`);
    expect(bare(ask.inReplyTo)).toBe(bare(intro.messageId));
    const box = (await server.db.channelSetting.findFirstOrThrow({ where: { companyId: c.company.id, channel: 'email' } })).info as Record<string, string>;
    const account = boxes.find((b) => b.user === box.address)!;
    await imap.deliver(
      account,
      await composeMail({ from: 'compras@fornecedor.test', to: account.user, subject: ask.subject, text: 'Sim, até as 10h.', messageId: 'forn.1@fornecedor.test', inReplyTo: bare(ask.messageId), references: [bare(intro.messageId)!, bare(ask.messageId)!] }),
    );
    await until(async () => (await server.db.message.count({ where: { conversationId, text: 'Sim, até as 10h.' } })) === 1);
    // Nothing opened a request: the answer went into the colleagues' conversation.
    expect(await server.db.conversation.count({ where: { companyId: c.company.id } })).toBe(1);
  });

  it('an HTML-only mail is imported as text (never as HTML), and replies carry an HTML alternative', async () => {
    const { c, bia, box } = await connected();
    await imap.deliver(
      box,
      await composeMail({
        from: 'Lia <lia@cliente.test>',
        to: box.user,
        subject: 'Pedido em HTML',
        html: '<html><head><style>p{color:red}</style></head><body><p>Ol&aacute; <b>equipe</b>,</p><p>Segue o <a href="https://loja.test/p/7">pedido</a>.</p><img src="cid:logo"><script>alert(1)</script></body></html>',
        messageId: 'html.1@cliente.test',
        // With a file beside it the HTML is not the root part: the case mail parsers leave without text.
        attachments: [{ filename: 'nota.txt', content: Buffer.from('nota'), contentType: 'text/plain' }],
      }),
    );
    await until(async () => (await server.db.message.count({ where: { conversation: { companyId: c.company.id }, type: 'arquivo' } })) === 1);
    const conv = await server.db.conversation.findFirstOrThrow({ where: { companyId: c.company.id } });
    const first = await server.db.message.findFirstOrThrow({ where: { conversationId: conv.id, authorId: conv.creatorId, type: 'texto' } });
    expect(first.text).toBe('Pedido em HTML\n\nOlá equipe,\n\nSegue o pedido [https://loja.test/p/7].');
    await bia.call('service.take', { domain: c.domain, conversationId: conv.id });
    await bia.call('chat.send', { domain: c.domain, conversationId: conv.id, clientId: 'h1', text: 'Oi Lia <3\nVeja https://loja.test/p/7' });
    const reply = await mailTo('lia@cliente.test', (m) => m.text.includes('Oi Lia'));
    expect(reply.text.trim()).toBe('Oi Lia <3\nVeja https://loja.test/p/7');
    expect(reply.html).toContain('Oi Lia &lt;3<br>Veja <a href="https://loja.test/p/7">https://loja.test/p/7</a>');
  });

  it('answering the conclusion with a number rates the service (not a new request)', async () => {
    const { c, bia, box } = await connected();
    await imap.deliver(box, await composeMail({ from: 'davi@cliente.test', to: box.user, subject: 'Senha', text: 'Esqueci a senha.', messageId: 'rate.1@cliente.test' }));
    await until(async () => (await server.db.conversation.count({ where: { companyId: c.company.id } })) === 1);
    const conv = await server.db.conversation.findFirstOrThrow({ where: { companyId: c.company.id } });
    await bia.call('service.take', { domain: c.domain, conversationId: conv.id });
    await bia.call('service.conclude', { domain: c.domain, conversationId: conv.id });
    const ask = await mailTo('davi@cliente.test', (m) => m.text.includes('How would you rate this service?'));
    await imap.deliver(
      box,
      await composeMail({ from: 'davi@cliente.test', to: box.user, subject: ask.subject, text: `4\n\nOn Mon, 1 Dec 2026, Loja wrote:\n> ${ask.text.split('\n')[0]}`, messageId: 'rate.2@cliente.test', inReplyTo: bare(ask.messageId) }),
    );
    await until(async () => (await server.db.conversation.findUniqueOrThrow({ where: { id: conv.id } })).rating === 4);
    expect(await server.db.conversation.count({ where: { companyId: c.company.id } })).toBe(1);
  });
});
