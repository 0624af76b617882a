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

export const companyInviteMail = (p: { to: string; companyName: string; inviterName: string; link: string }) =>
  linkMail(
    p.to,
    `Invitation to join ${p.companyName}`,
    [`${p.inviterName || 'An administrator'} invited you to join ${p.companyName} as a member.`, 'Open the link below to accept:'],
    p.link,
    'Accept invitation',
  );

export const clientInviteMail = (p: { to: string; companyName: string; clientDomain: string; link: string }) =>
  linkMail(
    p.to,
    `${p.companyName} invited ${p.clientDomain} to be a client company`,
    [`${p.companyName} invited the organization "${p.clientDomain}" to be its client company.`, 'An administrator of that organization can accept it at the link below:'],
    p.link,
    'See the invitation',
  );

export const unreadMessagesMail = (p: { to: string; name: string; companyName: string; title: string; protocol: string; unread: number; link: string }) =>
  linkMail(
    p.to,
    `${p.companyName}: ${p.unread === 1 ? '1 new message' : `${p.unread} new messages`}`,
    [
      `Hello ${p.name || ''},`.replace(' ,', ','),
      `You have ${p.unread === 1 ? 'a new message' : `${p.unread} new messages`} in "${p.title || p.protocol}" (${p.companyName}, protocol ${p.protocol.replace(/^(\d{5})(\d{5})(\d{5})$/, '$1-$2-$3')}).`,
      'Open the conversation to read and answer:',
    ],
    p.link,
    'Open the conversation',
  );
