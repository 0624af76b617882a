import nodemailer from 'nodemailer';
import type { Db } from '../db/client';
import type { Logger } from '../logger';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Files sent with the mail, e.g. an appointment's .ics invitation (text/calendar). */
  attachments?: { filename: string; content: string; contentType: string }[];
}

/** The one way the app sends e-mail. */
export interface Mailer {
  readonly kind: 'smtp' | 'outbox';
  send(mail: Mail): Promise<void>;
}

/**
 * SMTP through nodemailer when SMTP_URL is set. Otherwise nothing leaves the machine: the mail is
 * logged and kept in the dev outbox (/dev/outbox), so a fresh install can still sign people up.
 */
export function createMailer(opts: { smtpUrl?: string; from: string; db: Db; logger: Logger }): Mailer {
  if (opts.smtpUrl) {
    const transport = nodemailer.createTransport(opts.smtpUrl);
    return {
      kind: 'smtp',
      send: async (mail) => {
        await transport.sendMail({ from: opts.from, ...mail });
      },
    };
  }
  return {
    kind: 'outbox',
    send: async (mail) => {
      opts.logger.info({ to: mail.to, subject: mail.subject, text: mail.text }, 'mail (no SMTP configured: kept in the dev outbox)');
      await opts.db.outboxMessage.create({ data: { channel: 'mail', to: mail.to, subject: mail.subject, body: mail.text } });
    },
  };
}
