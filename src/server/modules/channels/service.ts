/**
 * Channel settings (admins: /i/settings/whatsapp, /i/settings/telegram), the company's WhatsApp
 * entry (/{emp}/whatsapp) and the attendant's Telegram notifications (/i/notify/telegram/{domain}).
 */
import { randomBytes } from 'node:crypto';
import { TRPCError } from '@trpc/server';
import type { z } from 'zod';
import type { Company, Member, User } from '../../../generated/prisma/client';
import { CHANNEL_MESSAGES as M, type saveTelegramInput, type saveWhatsAppInput, type testMessageInput } from '../../../shared/schemas/channels';
import type { AppDeps } from '../../deps';
import { ChannelSendError, type ChannelKind, type Connection } from './channel';
import { channelFor, connectionOf, telegramPolls, webhookUrl } from './connections';
import { startToken } from './notify';
import { openCredentials, sealCredentials } from './secrets';

type Deps = Pick<AppDeps, 'db' | 'config' | 'clock'>;
type Ctx = Deps & { company: Company; member: Member; user: User };

const fail = (code: TRPCError['code'], message: string) => new TRPCError({ code, message });

async function checkQueue(ctx: Ctx, queueId: string | null) {
  if (queueId && !(await ctx.db.queue.findFirst({ where: { id: queueId, companyId: ctx.company.id } }))) throw fail('BAD_REQUEST', M.queueNotFound);
}

/** What the settings screen shows: never a stored secret, only whether there is one. */
export async function channelSettings(ctx: Ctx, kind: ChannelKind) {
  const s = await ctx.db.channelSetting.findUnique({ where: { companyId_channel: { companyId: ctx.company.id, channel: kind } } });
  const queues = await ctx.db.queue.findMany({ where: { companyId: ctx.company.id }, orderBy: { createdAt: 'asc' }, select: { id: true, name: true, active: true } });
  // Telegram: how updates would arrive / arrive (the settings screen says which).
  const delivery = (s?.delivery ?? 'auto') as 'auto' | 'webhook' | 'polling';
  const mode: 'webhook' | 'polling' = telegramPolls(ctx.config, { channel: kind, delivery }) ? 'polling' : 'webhook';
  if (!s) return { configured: false, enabled: false, queueId: null, info: {} as Record<string, string>, webhookUrl: null, verifyToken: null, queues, delivery, mode };
  const creds = openCredentials(ctx.config.appSecret!, s.credentials);
  return {
    configured: true,
    delivery,
    mode,
    enabled: s.enabled,
    queueId: s.queueId,
    info: s.info as Record<string, string>,
    webhookUrl: webhookUrl(ctx.config, kind, s.webhookKey),
    // Pasted at Meta beside the webhook URL; it proves the handshake, not our identity.
    verifyToken: kind === 'whatsapp' ? (creds.verifyToken ?? null) : null,
    queues,
  };
}

async function save(ctx: Ctx, kind: ChannelKind, input: { enabled: boolean; queueId: string | null; delivery?: string }, given: Record<string, string | undefined>, info: Record<string, string>, required: string[]) {
  await checkQueue(ctx, input.queueId);
  const existing = await ctx.db.channelSetting.findUnique({ where: { companyId_channel: { companyId: ctx.company.id, channel: kind } } });
  const credentials = { ...(existing ? openCredentials(ctx.config.appSecret!, existing.credentials) : {}) };
  for (const [k, v] of Object.entries(given)) if (v) credentials[k] = v;
  if (required.some((k) => !credentials[k])) throw fail('BAD_REQUEST', M.credentialsRequired);
  const webhookKey = existing?.webhookKey ?? randomBytes(18).toString('base64url');
  const delivery = input.delivery ?? existing?.delivery ?? 'auto';
  const conn: Connection = { credentials, info, webhookUrl: webhookUrl(ctx.config, kind, webhookKey), polling: telegramPolls(ctx.config, { channel: kind, delivery }) };
  let learned: Record<string, string> = {};
  if (input.enabled) {
    try {
      learned = await channelFor(ctx.config, kind).connect(conn);
    } catch (err) {
      throw fail('BAD_REQUEST', `${M.refused}: ${err instanceof ChannelSendError ? err.message : 'no answer'}`);
    }
  }
  const data = { enabled: input.enabled, queueId: input.queueId, delivery, credentials: sealCredentials(ctx.config.appSecret!, credentials), info: { ...info, ...learned } };
  await ctx.db.channelSetting.upsert({
    where: { companyId_channel: { companyId: ctx.company.id, channel: kind } },
    create: { companyId: ctx.company.id, channel: kind, webhookKey, ...data },
    update: data,
  });
  return channelSettings(ctx, kind);
}

export function saveWhatsApp(ctx: Ctx, input: z.output<typeof saveWhatsAppInput>) {
  return save(
    ctx,
    'whatsapp',
    input,
    { accessToken: input.accessToken, appSecret: input.appSecret, verifyToken: input.verifyToken ?? undefined },
    { phoneNumberId: input.phoneNumberId },
    ['accessToken', 'appSecret'],
  ).then(async (result) => {
    // A verify token the admin did not choose: one is made so the webhook can be pasted at once.
    if (result.verifyToken) return result;
    const s = await ctx.db.channelSetting.findUniqueOrThrow({ where: { companyId_channel: { companyId: ctx.company.id, channel: 'whatsapp' } } });
    const creds = { ...openCredentials(ctx.config.appSecret!, s.credentials), verifyToken: randomBytes(12).toString('hex') };
    await ctx.db.channelSetting.update({ where: { id: s.id }, data: { credentials: sealCredentials(ctx.config.appSecret!, creds) } });
    return channelSettings(ctx, 'whatsapp');
  });
}

export async function saveTelegram(ctx: Ctx, input: z.output<typeof saveTelegramInput>) {
  const existing = await ctx.db.channelSetting.findUnique({ where: { companyId_channel: { companyId: ctx.company.id, channel: 'telegram' } } });
  const webhookSecret = existing ? undefined : randomBytes(24).toString('hex');
  return save(ctx, 'telegram', input, { botToken: input.botToken, webhookSecret }, {}, ['botToken', 'webhookSecret']);
}

/** "Send test message": straight to the provider, so the admin sees its answer at once. */
export async function sendTest(ctx: Ctx, kind: ChannelKind, input: z.output<typeof testMessageInput>) {
  const s = await ctx.db.channelSetting.findUnique({ where: { companyId_channel: { companyId: ctx.company.id, channel: kind } } });
  if (!s) throw fail('BAD_REQUEST', M.notConfigured);
  try {
    const sent = await channelFor(ctx.config, kind).send(connectionOf(ctx.config, s), { to: input.to, text: `${ctx.company.name}: test message` });
    return { sent: true, externalId: sent.externalId };
  } catch (err) {
    throw fail('BAD_REQUEST', `${M.refused}: ${err instanceof ChannelSendError ? err.message : 'no answer'}`);
  }
}

/** /{emp}/whatsapp: the number customers write to, when the company has one connected. */
export async function whatsappEntry(db: Deps['db'], domain: string) {
  const company = await db.company.findUnique({ where: { domain }, select: { id: true, name: true } });
  if (!company) throw fail('NOT_FOUND', M.notFound);
  const s = await db.channelSetting.findUnique({ where: { companyId_channel: { companyId: company.id, channel: 'whatsapp' } } });
  const number = s?.enabled ? ((s.info as Record<string, string>).displayNumber ?? null) : null;
  const digits = number?.replace(/\D/g, '') ?? '';
  return { companyName: company.name, number, link: digits ? `https://wa.me/${digits}` : null };
}

/** The attendant's Telegram notifications in this company: the bot's deep link, and whether linked. */
export async function telegramNotify(ctx: Ctx) {
  const s = await ctx.db.channelSetting.findUnique({ where: { companyId_channel: { companyId: ctx.company.id, channel: 'telegram' } } });
  const linked = await ctx.db.telegramRecipient.findUnique({ where: { userId_companyId: { userId: ctx.user.id, companyId: ctx.company.id } } });
  const bot = s?.enabled ? (s.info as Record<string, string>).botUsername : undefined;
  return {
    available: !!bot,
    botUsername: bot ?? null,
    link: bot ? `https://t.me/${bot}?start=${startToken(ctx.config.appSecret!, ctx.company.id, ctx.user.id)}` : null,
    linkedAt: linked?.linkedAt ?? null,
  };
}

export async function unlinkTelegramNotify(ctx: Ctx) {
  await ctx.db.telegramRecipient.deleteMany({ where: { userId: ctx.user.id, companyId: ctx.company.id } });
  return telegramNotify(ctx);
}
