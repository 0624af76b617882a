/**
 * The e-mail integration (plan `intmail`): each company's mailbox is watched on every instance
 * (mail-watch.ts: IDLE, with a poll as fallback); a new mail opens a request in the queue its Integration routes it to, or continues
 * the conversation its In-Reply-To / References / subject tag points at. Each mail is recorded by
 * its Message-ID first (ChannelInbound), so a restart, a second instance or a rebuilt folder
 * never imports it twice. Replies go out through the channel outbox like any relay, as mails in
 * the same thread.
 */
import { createHash } from 'node:crypto';
import type { AddressObject, ParsedMail } from 'mailparser';
import { lazyPackage } from '../../lazy-package';
import type { ChannelOutbox, ChannelSetting, Company, Conversation, Message, Prisma, User } from '../../../generated/prisma/client';
import { CONVERSATION_STATE } from '../../../shared/constants';
import { planIncludes } from '../../../shared/domain/company';
import { isServiceRequest } from '../../../shared/domain/conversations';
import { bareMessageId, protocolInSubject, replySubject, routeMail, stripQuoted, subjectTag, threadIds } from '../../../shared/domain/email';
import type { AppDeps } from '../../deps';
import { appendMessage, emitMessage, storeRelayedFile, UploadRefused } from '../chat/service';
import { customerSend, rateService, requestService } from '../service/customer';
import { fetchNewMail, mailConnectionOf, sendMail, type MailCursor, type OutboundMail } from './email';
import { contactUser, markRelayParticipant } from './inbound';
import { htmlToPlain } from './mail-html';

const mailparser = lazyPackage<typeof import('mailparser')>('mailparser');

type Deps = Pick<AppDeps, 'db' | 'clock' | 'realtime' | 'storage' | 'config' | 'logger'>;
type Tx = Prisma.TransactionClient;

const isUniqueViolation = (err: unknown) => (err as { code?: string }).code === 'P2002';
/** Mail messages reach at most this many characters of a chat message. */
const MAX_TEXT = 4000;

function addresses(...fields: (AddressObject | AddressObject[] | undefined)[]): string[] {
  return fields
    .flatMap((f) => (Array.isArray(f) ? f : f ? [f] : []))
    .flatMap((a) => a.value)
    .map((v) => v.address?.toLowerCase() ?? '')
    .filter(Boolean);
}

/**
 * Reads one mailbox past its cursor (read fresh from the row: the previous pass moved it); returns
 * how many mails were imported. Nothing when the mailbox was switched off or the plan lost `intmail`.
 */
export async function pollMailbox(deps: Deps, settingId: string): Promise<number> {
  const found = await deps.db.channelSetting.findUnique({ where: { id: settingId }, include: { company: true } });
  if (!found || !found.enabled || found.channel !== 'email' || !planIncludes(found.company.plan, 'intmail')) return 0;
  const { company, ...setting } = found;
  const info = setting.info as Record<string, string>;
  const cursor: MailCursor | null = info.uidValidity ? { uidValidity: info.uidValidity, lastUid: Number(info.lastUid ?? 0) } : null;
  let imported = 0;
  const conn = mailConnectionOf(deps.config, setting, company.name);
  const next = await fetchNewMail(conn, cursor, async (raw) => {
    if (await importMail(deps, setting, company, conn.address, raw)) imported++;
  });
  if (!cursor || next.uidValidity !== cursor.uidValidity || next.lastUid !== cursor.lastUid) {
    // Only the cursor's keys: an admin saving the settings meanwhile keeps what they saved.
    await deps.db.$executeRaw`
      UPDATE "ChannelSetting" SET "info" = "info" || jsonb_build_object('uidValidity', ${next.uidValidity}::text, 'lastUid', ${String(next.lastUid)}::text)
      WHERE "id" = ${setting.id}::uuid`;
  }
  return imported;
}

/** One mail: recorded by Message-ID, then applied; forgotten again when applying fails (read again next poll). */
export async function importMail(deps: Deps, setting: ChannelSetting, company: Company, mailbox: string, raw: Buffer): Promise<boolean> {
  // Text parts only: an HTML-only mail is rendered by mailText, the same way wherever its part sits.
  const mail = await mailparser().simpleParser(raw, { skipHtmlToText: true });
  const messageId = bareMessageId(mail.messageId ?? `${createHash('sha256').update(raw).digest('hex')}@no-message-id`).slice(0, 500);
  const from = mail.from?.value[0];
  const address = from?.address?.toLowerCase();
  // A bounce or our own copy: nobody to answer.
  if (!address || address === mailbox.toLowerCase() || /^(mailer-daemon|postmaster)@/i.test(address)) return false;
  try {
    await deps.db.channelInbound.create({ data: { companyId: company.id, channel: 'email', externalId: messageId } });
  } catch (err) {
    if (isUniqueViolation(err)) return false;
    throw err;
  }
  try {
    await applyMail(deps, setting, company, mail, messageId, address, from?.name || address);
    return true;
  } catch (err) {
    await deps.db.channelInbound.deleteMany({ where: { companyId: company.id, channel: 'email', externalId: messageId } });
    throw err;
  }
}

/** The mail's words: its plain part, else a text rendering of its HTML (never the HTML itself). */
function mailText(mail: ParsedMail): string {
  if (mail.text?.trim()) return mail.text;
  return typeof mail.html === 'string' ? htmlToPlain(mail.html) : '';
}

/** The conversation a reply belongs to: by the Message-IDs it answers, else by the subject's tag. */
async function threadOf(deps: Deps, companyId: string, user: User, mail: ParsedMail) {
  const ids = threadIds(mail.inReplyTo, mail.references);
  if (ids.length) {
    const known = await deps.db.emailMessage.findMany({ where: { companyId, messageId: { in: ids } }, select: { messageId: true, conversationId: true } });
    const hit = ids.map((id) => known.find((k) => k.messageId === id)).find(Boolean);
    if (hit) return deps.db.conversation.findFirst({ where: { id: hit.conversationId, companyId, ...takesPart(user) } });
  }
  const protocol = protocolInSubject(mail.subject ?? '');
  return protocol ? deps.db.conversation.findFirst({ where: { companyId, protocol, ...takesPart(user) } }) : null;
}

/** Only a conversation the sender is still in by e-mail: a forwarded thread does not let a stranger in. */
const takesPart = (user: User) => ({ participants: { some: { userId: user.id, removed: false, email: true } } });

/**
 * The sender's words into a conversation they are in: their own request through the service
 * module (its rules: concluded, blocked plan), a conversation they were added to (integrateEmail)
 * as a plain message. Idempotent by clientId.
 */
async function sendAs(deps: Deps, company: Company, conversation: Conversation, user: User, clientId: string, text: string) {
  if (isServiceRequest(conversation) && conversation.creatorId === user.id) return customerSend(deps, user, { conversationId: conversation.id, clientId, text });
  try {
    const appended = await deps.db.$transaction((tx) => appendMessage(tx, company.domain, { conversationId: conversation.id, authorId: user.id, clientId, text }, deps.clock.now()));
    emitMessage(deps.realtime, appended);
  } catch (err) {
    if (!isUniqueViolation(err)) throw err; // the same mail applied a moment ago
  }
}

async function applyMail(deps: Deps, setting: ChannelSetting, company: Company, mail: ParsedMail, messageId: string, address: string, name: string) {
  const user = await contactUser(deps, setting, address, name);
  const subject = (mail.subject ?? '').trim().slice(0, 500);
  const body = stripQuoted(mailText(mail));
  const clientId = `email:${createHash('sha1').update(messageId).digest('hex')}`;
  const thread = await threadOf(deps, company.id, user, mail);
  let conversationId: string;
  const stars = /^\s*([1-5])\s*$/.exec(body)?.[1];
  if (thread && thread.state === CONVERSATION_STATE.concluded && stars && thread.creatorId === user.id && thread.takenById && thread.rating === null) {
    // The answer to the conclusion's "How would you rate this service?": a rating, not a new request.
    await rateService(deps, user, thread.id, Number(stars));
    await deps.db.emailMessage.createMany({ data: [{ companyId: company.id, messageId, conversationId: thread.id, subject }], skipDuplicates: true });
    return;
  }
  if (thread && thread.state !== CONVERSATION_STATE.concluded) {
    conversationId = thread.id;
    if (body) await sendAs(deps, company, thread, user, clientId, body.slice(0, MAX_TEXT));
  } else {
    const integrations = await deps.db.integration.findMany({ where: { companyId: company.id }, orderBy: { createdAt: 'asc' } });
    const rule = routeMail(integrations, addresses(mail.to, mail.cc), subject);
    const active = { companyId: company.id, active: true };
    const queue =
      (rule && (await deps.db.queue.findFirst({ where: { id: rule.queueId, ...active } }))) ||
      (setting.queueId && (await deps.db.queue.findFirst({ where: { id: setting.queueId, ...active } }))) ||
      (await deps.db.queue.findFirst({ where: { ...active, internal: false }, orderBy: { createdAt: 'asc' } }));
    if (!queue) throw new Error('no active queue to open the request in');
    const text = [subject, body].filter(Boolean).join('\n\n').slice(0, MAX_TEXT) || undefined;
    const request = await requestService(deps, user, { domain: company.domain, queueKey: queue.key, text }, 'channel');
    conversationId = request.conversationId;
    await markRelayParticipant(deps, company.id, conversationId, user.id, 'email');
  }
  await deps.db.emailMessage.createMany({ data: [{ companyId: company.id, messageId, conversationId, subject }], skipDuplicates: true });
  let i = 0;
  for (const a of mail.attachments) {
    if (a.related && !a.filename) continue; // an inline image of the HTML body, not something sent
    const fileName = (a.filename || `attachment-${i + 1}`).slice(0, 200);
    const fileClientId = `${clientId}:${i++}`;
    try {
      await storeRelayedFile(deps, company, { conversationId, authorId: user.id, clientId: fileClientId, name: fileName, mime: a.contentType ?? null, bytes: a.content });
    } catch (err) {
      // Too large, or the company is out of space: the conversation says what was sent instead.
      if (!(err instanceof UploadRefused)) throw err;
      const conversation = await deps.db.conversation.findUniqueOrThrow({ where: { id: conversationId } });
      await sendAs(deps, company, conversation, user, fileClientId, `[${fileName}: ${err.message}]`);
    }
  }
}

/**
 * A relayed message as a mail in its conversation's thread: the subject of the customer's first
 * mail with the protocol tag, In-Reply-To the last mail of the thread, References all of them.
 * The Message-ID is made from the outbox row, so a send repeated after a crash carries the same
 * one (the receiver's duplicate detection sees one mail).
 */
export async function sendEmailRow(deps: Deps, tx: Tx, row: ChannelOutbox, m: Message | null, text: string) {
  const setting = await tx.channelSetting.findUnique({ where: { companyId_channel: { companyId: row.companyId, channel: 'email' } }, include: { company: true } });
  if (!setting || !setting.enabled) return null;
  const conn = mailConnectionOf(deps.config, setting, setting.company.name);
  const conversation = row.conversationId ? await tx.conversation.findUnique({ where: { id: row.conversationId }, select: { protocol: true, title: true } }) : null;
  const thread = row.conversationId
    ? await tx.emailMessage.findMany({ where: { companyId: row.companyId, conversationId: row.conversationId }, orderBy: { createdAt: 'asc' }, take: 100 })
    : [];
  const first = thread.find((t) => !t.outbound && t.subject) ?? thread[0];
  const host = conn.address.split('@')[1] || 'localhost';
  const messageId = `${row.id}@${host}`;
  const mail: OutboundMail = {
    to: row.to,
    // A thread the customer began is answered ("Re:"); one we begin (integrateEmail) is titled.
    subject: !conversation
      ? setting.company.name
      : first
        ? replySubject(first.subject || setting.company.name, conversation.protocol)
        : `${conversation.title || setting.company.name} ${subjectTag(conversation.protocol)}`,
    text,
    messageId,
    inReplyTo: thread.at(-1)?.messageId,
    // The root and the latest 19: long threads stay within what servers accept in one header.
    references: [...new Set([thread[0], ...thread.slice(-19)].filter(Boolean).map((t) => t!.messageId))],
  };
  if (m?.fileKey) mail.attachment = { filename: m.fileName ?? 'file', contentType: m.fileMime, content: await deps.storage.get(m.fileKey) };
  const sent = await sendMail(conn, mail);
  if (row.conversationId) {
    await tx.emailMessage.createMany({ data: [{ companyId: row.companyId, messageId, conversationId: row.conversationId, outbound: true, subject: mail.subject }], skipDuplicates: true });
  }
  // Accepted by the company's SMTP server: as far as mail can tell, delivered (no read receipts).
  return { externalId: sent.externalId, delivered: true };
}
