import type { RequestHandler } from 'express';
import type { Db } from '../db/client';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The dev outbox: mail and SMS that had no provider to go through, newest first. Served only
 * outside production and only while no SMTP server is configured (they hold sign-in links).
 */
export function outboxPage(db: Db): RequestHandler {
  return async (_req, res) => {
    const messages = await db.outboxMessage.findMany({ orderBy: { createdAt: 'desc' }, take: 100 });
    const rows = messages
      .map(
        (m) => `<article><header><b>${esc(m.channel.toUpperCase())}</b> to ${esc(m.to)} · ${m.createdAt.toISOString()}${
          m.subject ? ` · ${esc(m.subject)}` : ''
        }</header><pre>${esc(m.body).replace(/(https?:\/\/[^\s<]+)/g, '<a href="$1">$1</a>')}</pre></article>`,
      )
      .join('');
    res.type('html').send(
      `<!doctype html><meta charset="utf-8"><title>Dev outbox</title><style>body{font:14px system-ui;margin:2rem;max-width:60rem}article{border:1px solid #ddd;border-radius:6px;padding:.5rem 1rem;margin:.5rem 0}pre{white-space:pre-wrap}</style><h1>Dev outbox</h1><p>Mail and SMS kept because no SMTP server or SMS gateway is configured.</p>${rows || '<p>Nothing yet.</p>'}`,
    );
  };
}
