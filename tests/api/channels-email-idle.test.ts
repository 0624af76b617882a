/**
 * New mail arrives at once: each mailbox is watched with IMAP IDLE against a real Dovecot, while
 * the fallback poll (MAIL_POLL_MS) is set far beyond every budget here, so only IDLE can bring a
 * mail in. A TCP relay in front of Dovecot cuts the watcher's connection: it comes back with
 * backoff and imports, exactly once, what arrived while it was away; a mailbox whose server is
 * unreachable does not hold up another company's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailWatchState } from '../../src/server/modules/channels/mail-watch';
import { composeMail, hasDovecot, startImapServer, startTcpRelay, type ImapUser } from '../helpers/imap';
import { startTestServer, type TestServer } from '../helpers/server';
import { serviceCompany, until, type ClientSocket } from '../helpers/service';
import { startSmtpServer } from '../helpers/smtp';
import { budget } from '../helpers/time';

const SMTP_AUTH = { user: 'relay@acme.test', pass: 'smtp-secret' };
const boxes: ImapUser[] = Array.from({ length: 4 }, (_, i) => ({ user: `idle${i}@acme.test`, pass: `imap-secret-${i}` }));
/** Far beyond every wait below: only IDLE can bring the mail in time. */
const env = { MAIL_POLL_MS: '600000', CHANNEL_POLL_MS: '50', CHANNEL_RETRY_BASE_MS: '50', CHANNEL_MAX_ATTEMPTS: '3' };

let server: TestServer;
let imap: Awaited<ReturnType<typeof startImapServer>>;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
const relays: Awaited<ReturnType<typeof startTcpRelay>>[] = [];
const sockets: ClientSocket[] = [];

beforeAll(async () => {
  if (!hasDovecot()) throw new Error('dovecot is not installed: apt-get install -y dovecot-imapd (see .ci/run)');
  [imap, smtp] = await Promise.all([startImapServer(boxes), startSmtpServer({ auth: SMTP_AUTH })]);
  server = await startTestServer({ env });
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await server?.close();
  for (const r of relays) await r.close();
  await smtp?.close();
  await imap?.close();
});

let nextBox = 0;
/** A company whose mailbox is reached through its own relay; answers once its watcher is in IDLE. */
async function watched() {
  const box = boxes[nextBox++]!;
  const relay = await startTcpRelay(imap);
  relays.push(relay);
  const c = await serviceCompany(server, sockets, { plan: { intmail: 1 } });
  await c.admin.call('channels.saveEmail', {
    domain: c.domain,
    queueId: c.queue.id,
    address: box.user,
    imapHost: relay.host,
    imapPort: relay.port,
    imapSecure: false,
    imapUser: box.user,
    imapPassword: box.pass,
    smtpHost: '127.0.0.1',
    smtpPort: smtp.port,
    smtpSecure: false,
    smtpUser: SMTP_AUTH.user,
    smtpPassword: SMTP_AUTH.pass,
  });
  const setting = await server.db.channelSetting.findFirstOrThrow({ where: { companyId: c.company.id, channel: 'email' } });
  // In IDLE and done with the first pass: a mail from now on can only come in through IDLE.
  await until(() => !!mailWatchState(setting.id)?.idle && !mailWatchState(setting.id)!.importing);
  const texts = (text: string) => server.db.message.count({ where: { conversation: { companyId: c.company.id }, text } });
  return { c, box, relay, state: () => mailWatchState(setting.id)!, texts };
}

describe('E-mail arrives at once (IMAP IDLE)', () => {
  it('a mail appended while the watcher idles becomes a request within seconds, not at the next poll', async () => {
    const { box, texts } = await watched();
    await imap.deliver(box, await composeMail({ from: 'ana@cliente.test', to: box.user, subject: 'Pedido 12', text: 'Chegou quebrado.', messageId: 'idle.1@cliente.test' }));
    await until(async () => (await texts('Pedido 12\n\nChegou quebrado.')) === 1, budget(5_000));
  });

  it('a dropped connection comes back with backoff and imports, once, what arrived meanwhile; another mailbox is not held up', async () => {
    const a = await watched();
    const b = await watched();
    // A's server becomes unreachable: its connection is cut and new ones are refused.
    a.relay.refuse(true);
    a.relay.drop();
    await until(() => !a.state().idle);
    await imap.deliver(a.box, await composeMail({ from: 'rui@cliente.test', to: a.box.user, subject: 'Fora do ar', text: 'Enviado durante a queda.', messageId: 'down.1@cliente.test' }));
    // B's mail still arrives at once while A keeps retrying.
    await imap.deliver(b.box, await composeMail({ from: 'eva@cliente.test', to: b.box.user, subject: 'Outra empresa', text: 'Sem esperar.', messageId: 'other.1@cliente.test' }));
    await until(async () => (await b.texts('Outra empresa\n\nSem esperar.')) === 1, budget(5_000));
    expect(await a.texts('Fora do ar\n\nEnviado durante a queda.')).toBe(0);

    a.relay.refuse(false);
    await until(async () => (await a.texts('Fora do ar\n\nEnviado durante a queda.')) === 1, budget(15_000));
    await until(() => a.state().idle && !a.state().importing && a.state().connections >= 2);
    // Back in IDLE: the next mail comes at once too, and nothing was imported twice.
    await imap.deliver(a.box, await composeMail({ from: 'rui@cliente.test', to: a.box.user, subject: 'Re: Fora do ar', text: 'Voltou?', messageId: 'down.2@cliente.test', inReplyTo: 'down.1@cliente.test' }));
    await until(async () => (await a.texts('Voltou?')) === 1, budget(5_000));
    expect(await a.texts('Fora do ar\n\nEnviado durante a queda.')).toBe(1);
    expect(await server.db.conversation.count({ where: { companyId: a.c.company.id } })).toBe(1);
  });
});
