/**
 * The e-mail integration's settings (admins, plan `intmail`): the company's mailbox (IMAP and
 * SMTP, passwords sealed like every channel secret) and its Integrations (address + title TAGs →
 * queue). Saving checks both servers first, so a wrong password is told at once, not by a silent
 * poller.
 */
import { randomBytes } from 'node:crypto';
import { TRPCError } from '@trpc/server';
import type { z } from 'zod';
import type { Company, Member, User } from '../../../generated/prisma/client';
import { cleanTags } from '../../../shared/domain/email';
import { CONVERSATION_STATE, CONVERSATION_TYPE } from '../../../shared/constants';
import { CHANNEL_MESSAGES as M, type integrateEmailInput, type removeIntegrationInput, type saveEmailInput, type saveIntegrationInput } from '../../../shared/schemas/channels';
import type { AppDeps } from '../../deps';
import { ChannelSendError } from './channel';
import { addRelayParticipant } from '../chat/service';
import { checkMailbox, mailConnectionOf } from './email';
import { nudgeMailWatchers } from './mail-watch';
import { contactUser } from './inbound';
import { openCredentials, sealCredentials } from './secrets';

type Ctx = Pick<AppDeps, 'db' | 'config' | 'clock'> & { company: Company; member: Member; user: User };

const fail = (code: TRPCError['code'], message: string) => new TRPCError({ code, message });
const where = (ctx: Ctx) => ({ companyId_channel: { companyId: ctx.company.id, channel: 'email' } });
/** The settings that are shown; the poller's cursor (uidValidity, lastUid) lives beside them in `info`. */
const SHOWN = ['address', 'imapHost', 'imapPort', 'imapSecure', 'imapUser', 'smtpHost', 'smtpPort', 'smtpSecure', 'smtpUser'] as const;

async function checkQueue(ctx: Ctx, queueId: string | null) {
  if (queueId && !(await ctx.db.queue.findFirst({ where: { id: queueId, companyId: ctx.company.id } }))) throw fail('BAD_REQUEST', M.queueNotFound);
}

/** What the screen shows: never a stored password, only whether there is one. */
export async function emailSettings(ctx: Ctx) {
  const s = await ctx.db.channelSetting.findUnique({ where: where(ctx) });
  const queues = await ctx.db.queue.findMany({ where: { companyId: ctx.company.id }, orderBy: { createdAt: 'asc' }, select: { id: true, name: true, active: true } });
  const integrations = await ctx.db.integration.findMany({ where: { companyId: ctx.company.id }, orderBy: { createdAt: 'asc' }, select: { id: true, email: true, tags: true, queueId: true } });
  if (!s) return { configured: false, enabled: false, queueId: null as string | null, mailbox: null, hasImapPassword: false, hasSmtpPassword: false, queues, integrations };
  const info = s.info as Record<string, string>;
  const creds = openCredentials(ctx.config.appSecret!, s.credentials);
  return {
    configured: true,
    enabled: s.enabled,
    queueId: s.queueId,
    mailbox: {
      address: info.address ?? '',
      imapHost: info.imapHost ?? '',
      imapPort: Number(info.imapPort ?? 993),
      imapSecure: info.imapSecure === 'true',
      imapUser: info.imapUser ?? '',
      smtpHost: info.smtpHost ?? '',
      smtpPort: Number(info.smtpPort ?? 465),
      smtpSecure: info.smtpSecure === 'true',
      smtpUser: info.smtpUser ?? '',
    },
    hasImapPassword: !!creds.imapPassword,
    hasSmtpPassword: !!creds.smtpPassword,
    queues,
    integrations,
  };
}

export async function saveEmail(ctx: Ctx, input: z.output<typeof saveEmailInput>) {
  await checkQueue(ctx, input.queueId);
  const existing = await ctx.db.channelSetting.findUnique({ where: where(ctx) });
  const credentials = { ...(existing ? openCredentials(ctx.config.appSecret!, existing.credentials) : {}) };
  if (input.imapPassword) credentials.imapPassword = input.imapPassword;
  if (input.smtpPassword) credentials.smtpPassword = input.smtpPassword;
  if (!credentials.imapPassword || (input.smtpUser && !credentials.smtpPassword)) throw fail('BAD_REQUEST', M.credentialsRequired);
  const shown: Record<string, string> = Object.fromEntries(SHOWN.map((k) => [k, String(input[k])]));
  const before = (existing?.info ?? {}) as Record<string, string>;
  // The same mailbox keeps its cursor; another one is read from its first mail.
  const sameMailbox = before.imapHost === shown.imapHost && before.imapPort === shown.imapPort && before.imapUser === shown.imapUser;
  const cursor = sameMailbox && before.uidValidity ? { uidValidity: before.uidValidity, lastUid: before.lastUid ?? '0' } : {};
  const sealed = sealCredentials(ctx.config.appSecret!, credentials);
  if (input.enabled) {
    try {
      await checkMailbox(mailConnectionOf(ctx.config, { credentials: sealed, info: shown }, ctx.company.name));
    } catch (err) {
      throw fail('BAD_REQUEST', `${M.refused}: ${err instanceof ChannelSendError ? err.message : 'no answer'}`);
    }
  }
  const data = { enabled: input.enabled, queueId: input.queueId, credentials: sealed, info: { ...shown, ...cursor } };
  await ctx.db.channelSetting.upsert({
    where: where(ctx),
    // No webhook: mail is fetched. The key only fills the column the other channels need.
    create: { companyId: ctx.company.id, channel: 'email', webhookKey: randomBytes(18).toString('base64url'), ...data },
    update: data,
  });
  // This instance starts (or restarts) watching the mailbox now; others at their next poll.
  nudgeMailWatchers();
  return emailSettings(ctx);
}

export async function saveIntegration(ctx: Ctx, input: z.output<typeof saveIntegrationInput>) {
  await checkQueue(ctx, input.queueId);
  const data = { email: input.email, tags: cleanTags(input.tags), queueId: input.queueId };
  if (input.id) {
    const { count } = await ctx.db.integration.updateMany({ where: { id: input.id, companyId: ctx.company.id }, data });
    if (!count) throw fail('NOT_FOUND', M.integrationNotFound);
  } else {
    await ctx.db.integration.create({ data: { companyId: ctx.company.id, ...data } });
  }
  return emailSettings(ctx);
}

export async function removeIntegration(ctx: Ctx, input: z.output<typeof removeIntegrationInput>) {
  const { count } = await ctx.db.integration.deleteMany({ where: { id: input.id, companyId: ctx.company.id } });
  if (!count) throw fail('NOT_FOUND', M.integrationNotFound);
  return emailSettings(ctx);
}

/**
 * The spec's "integrate single service" (profile permission integrateSingleService, plan intmail):
 * an outside person joins a single (avulso) conversation by e-mail. From then on what is written
 * there reaches them as mails from the company's mailbox, in one thread, and their replies come
 * back into the conversation by that thread.
 */
export async function integrateEmail(ctx: Ctx & Pick<AppDeps, 'realtime' | 'storage' | 'logger'>, input: z.output<typeof integrateEmailInput>) {
  const setting = await ctx.db.channelSetting.findUnique({ where: where(ctx) });
  if (!setting?.enabled) throw fail('BAD_REQUEST', M.notConfigured);
  const conversation = await ctx.db.conversation.findFirst({ where: { id: input.conversationId, companyId: ctx.company.id }, select: { type: true, state: true } });
  if (conversation && conversation.type !== CONVERSATION_TYPE.single) throw fail('BAD_REQUEST', M.onlySingle);
  if (conversation?.state === CONVERSATION_STATE.concluded) throw fail('BAD_REQUEST', M.concluded);
  const user = await contactUser(ctx, { companyId: ctx.company.id, channel: 'email' }, input.email, input.name || input.email);
  // The chat's own rule: the caller must be in the conversation (and it must be this company's).
  await addRelayParticipant({ ...ctx, userId: ctx.user.id }, input.conversationId, { id: user.id, name: user.name }, 'email');
  return { added: true, email: input.email };
}
