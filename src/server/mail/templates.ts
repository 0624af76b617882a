import type { Mail } from './index';

/** Plain-text first: every client shows it, and links survive forwarding. */
function linkMail(to: string, subject: string, lines: string[], link: string, action: string): Mail {
  const text = [...lines, '', link, '', 'If you did not ask for this, ignore this e-mail.'].join('\n');
  const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const html = `${lines.map((l) => `<p>${esc(l)}</p>`).join('')}<p><a href="${esc(link)}">${esc(action)}</a></p><p style="color:#666">If you did not ask for this, ignore this e-mail.</p>`;
  return { to, subject, text, html };
}

export const verificationMail = (p: { to: string; name: string; link: string }) =>
  linkMail(p.to, 'Confirm your e-mail', [`Hello ${p.name || ''},`.replace(' ,', ','), 'Open the link below to confirm your e-mail address:'], p.link, 'Confirm e-mail');

export const passwordResetMail = (p: { to: string; name: string; link: string }) =>
  linkMail(p.to, 'Reset your password', [`Hello ${p.name || ''},`.replace(' ,', ','), 'Open the link below within one hour to choose a new password. It works once.'], p.link, 'Choose a new password');
