/**
 * The e-mail adapter: a company's own mailbox, read over IMAP (ImapFlow) and written through its
 * SMTP server (nodemailer). Like the other adapters it only speaks the protocols; threading,
 * routing and the outbox are the module's. Errors come back as ChannelSendError with `retry`
 * false only when the server's answer is permanent (5xx, a refused login).
 */
import type { Readable } from 'node:stream';
import type { ImapFlow } from 'imapflow';
import { lazyPackage } from '../../lazy-package';
import nodemailer from 'nodemailer';
import type { ChannelSetting } from '../../../generated/prisma/client';
import type { Config } from '../../config';
import { ChannelSendError } from './channel';
import { plainToHtml } from './mail-html';
import { openCredentials } from './secrets';

export interface MailServer {
  host: string;
  port: number;
  secure: boolean;
  user: string;
  pass: string;
}

export interface MailConnection {
  imap: MailServer;
  smtp: MailServer;
  /** The mailbox's address: the From of every reply. */
  address: string;
  /** The name shown beside it (the company's). */
  name: string;
}

/** Where the poller stopped: the folder's UIDVALIDITY and the last UID imported. */
export interface MailCursor {
  uidValidity: string;
  lastUid: number;
}

export interface OutboundMail {
  to: string;
  subject: string;
  text: string;
  messageId: string;
  inReplyTo?: string;
  references: string[];
  attachment?: { filename: string; contentType: string | null; content: Readable | Buffer };
}

/** Non-secret settings in ChannelSetting.info; the two passwords in its sealed credentials. */
export function mailConnectionOf(config: Pick<Config, 'appSecret'>, setting: Pick<ChannelSetting, 'credentials' | 'info'>, name: string): MailConnection {
  const creds = openCredentials(config.appSecret!, setting.credentials);
  const info = (setting.info ?? {}) as Record<string, string>;
  const server = (p: 'imap' | 'smtp', pass: string | undefined): MailServer => ({
    host: info[`${p}Host`] ?? '',
    port: Number(info[`${p}Port`] ?? 0),
    secure: info[`${p}Secure`] === 'true',
    user: info[`${p}User`] ?? '',
    pass: pass ?? '',
  });
  return { imap: server('imap', creds.imapPassword), smtp: server('smtp', creds.smtpPassword), address: info.address ?? '', name };
}

const imapflow = lazyPackage<typeof import('imapflow')>('imapflow');

/** An IMAP connection to the company's mailbox; the watcher passes its IDLE timings. */
export function imapClient(s: MailServer, timings: Partial<ConstructorParameters<typeof ImapFlow>[0]> = {}) {
  return new (imapflow().ImapFlow)({
    host: s.host,
    port: s.port,
    secure: s.secure,
    auth: { user: s.user, pass: s.pass },
    logger: false,
    // A mailbox on a private network may use its own certificate; the admin chose the host.
    tls: { rejectUnauthorized: false },
    connectionTimeout: 15_000,
    greetingTimeout: 10_000,
    socketTimeout: 60_000,
    ...timings,
  });
}

function smtpTransport(s: MailServer) {
  return nodemailer.createTransport({
    host: s.host,
    port: s.port,
    secure: s.secure,
    auth: s.user ? { user: s.user, pass: s.pass } : undefined,
    tls: { rejectUnauthorized: false },
    connectionTimeout: 15_000,
    greetingTimeout: 10_000,
    socketTimeout: 60_000,
  });
}

function imapError(err: unknown): ChannelSendError {
  const e = err as { authenticationFailed?: boolean; responseText?: string; message?: string; code?: string };
  if (e.authenticationFailed) return new ChannelSendError(`IMAP: ${e.responseText || 'authentication failed'}`, false);
  return new ChannelSendError(`IMAP: ${e.responseText || e.code || e.message || 'no answer'}`, true);
}

function smtpError(err: unknown): ChannelSendError {
  const e = err as { responseCode?: number; response?: string; code?: string; message?: string };
  const permanent = (e.responseCode ?? 0) >= 500 || e.code === 'EAUTH';
  return new ChannelSendError(`SMTP: ${e.response || e.message || e.code || 'no answer'}`, !permanent);
}

/** Checks both servers before the settings are saved: an IMAP login and an SMTP handshake with auth. */
export async function checkMailbox(conn: MailConnection): Promise<void> {
  const client = imapClient(conn.imap);
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.mailboxOpen('INBOX', { readOnly: true });
  } catch (err) {
    throw imapError(err);
  } finally {
    await client.logout().catch(() => undefined);
  }
  const transport = smtpTransport(conn.smtp);
  try {
    await transport.verify();
  } catch (err) {
    throw smtpError(err);
  } finally {
    transport.close();
  }
}

export async function sendMail(conn: MailConnection, mail: OutboundMail): Promise<{ externalId: string }> {
  const transport = smtpTransport(conn.smtp);
  try {
    await transport.sendMail({
      from: { name: conn.name, address: conn.address },
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: plainToHtml(mail.text),
      messageId: `<${mail.messageId}>`,
      inReplyTo: mail.inReplyTo ? `<${mail.inReplyTo}>` : undefined,
      references: mail.references.map((r) => `<${r}>`),
      attachments: mail.attachment ? [{ filename: mail.attachment.filename, contentType: mail.attachment.contentType ?? undefined, content: mail.attachment.content }] : [],
    });
    return { externalId: mail.messageId };
  } catch (err) {
    throw smtpError(err);
  } finally {
    transport.close();
  }
}

/**
 * Reads the INBOX past the cursor, oldest first, handing each raw message to `onMail`; the cursor
 * moves only past mails `onMail` accepted, so a failure is read again on the next poll. A changed
 * UIDVALIDITY (the folder was rebuilt) starts over; the Message-ID record keeps that from
 * importing anything twice.
 */
export async function fetchNewMail(conn: MailConnection, cursor: MailCursor | null, onMail: (raw: Buffer) => Promise<void>, max = 50): Promise<MailCursor> {
  const client = imapClient(conn.imap);
  client.on('error', () => undefined);
  try {
    await client.connect();
    const box = await client.mailboxOpen('INBOX');
    const uidValidity = String(box.uidValidity);
    let lastUid = cursor && cursor.uidValidity === uidValidity ? cursor.lastUid : 0;
    if (box.exists === 0 || (box.uidNext && box.uidNext <= lastUid + 1)) return { uidValidity, lastUid };
    const found: { uid: number; source: Buffer }[] = [];
    for await (const m of client.fetch(`${lastUid + 1}:*`, { uid: true, source: true }, { uid: true })) {
      // "n:*" always returns the highest message, even below n.
      if (m.uid > lastUid && m.source) found.push({ uid: m.uid, source: m.source });
    }
    found.sort((a, b) => a.uid - b.uid);
    for (const m of found.slice(0, max)) {
      await onMail(m.source);
      lastUid = m.uid;
    }
    return { uidValidity, lastUid };
  } catch (err) {
    if (err instanceof ChannelSendError) throw err;
    throw imapError(err);
  } finally {
    await client.logout().catch(() => undefined);
  }
}
