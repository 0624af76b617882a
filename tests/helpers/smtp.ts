import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { budget } from './time';

export interface ReceivedMail {
  to: string;
  subject: string;
  text: string;
  /** The HTML alternative, when the mail has one. */
  html?: string;
  from?: string;
  messageId?: string;
  inReplyTo?: string;
  references?: string[];
  /** Attached files (an .ics invitation, a reply's file): `content` as text, `bytes` as sent. */
  attachments: { filename: string; contentType: string; content: string; bytes: Buffer }[];
}

/**
 * A real SMTP server on loopback that keeps what it receives, for tests to read and follow.
 * Recipients matching `reject` are refused with 550, as a real server refuses an unknown mailbox.
 */
export async function startSmtpServer(opts: { reject?: RegExp; auth?: { user: string; pass: string } } = {}) {
  const inbox: ReceivedMail[] = [];
  const waiters: (() => void)[] = [];
  const server = new SMTPServer({
    // With `auth`, a login is required and checked, as a mailbox provider's submission port does.
    authOptional: !opts.auth,
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      if (opts.auth && auth.username === opts.auth.user && auth.password === opts.auth.pass) return callback(null, { user: auth.username });
      callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
    },
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (opts.reject?.test(address.address)) return callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
      callback();
    },
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          const to = Array.isArray(mail.to) ? mail.to[0] : mail.to;
          inbox.push({
            to: to?.value[0]?.address ?? '',
            subject: mail.subject ?? '',
            text: mail.text ?? '',
            html: typeof mail.html === 'string' ? mail.html : undefined,
            from: mail.from?.value[0]?.address,
            messageId: mail.messageId,
            inReplyTo: mail.inReplyTo,
            references: typeof mail.references === 'string' ? [mail.references] : mail.references,
            attachments: mail.attachments.map((a) => ({ filename: a.filename ?? '', contentType: a.contentType, content: a.content.toString('utf8'), bytes: a.content })),
          });
          waiters.splice(0).forEach((w) => w());
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    inbox,
    /** The next mail to `to` (waits for it), and the first link in it. */
    async next(to: string, timeoutMs = budget(5000)): Promise<ReceivedMail & { link: string }> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const i = inbox.findIndex((m) => m.to === to);
        if (i >= 0) {
          const [mail] = inbox.splice(i, 1);
          const link = mail!.text.match(/https?:\/\/\S+/)?.[0] ?? '';
          return { ...mail!, link };
        }
        if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
