/** A company's connection to a channel: its adapter, its decrypted credentials, its webhook URL. */
import type { ChannelSetting, Prisma } from '../../../generated/prisma/client';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { Channel, ChannelKind, Connection } from './channel';
import { openCredentials } from './secrets';
import { telegramChannel } from './telegram';
import { whatsappChannel } from './whatsapp';

export function channelFor(config: Pick<Config, 'channels'>, kind: ChannelKind): Channel {
  return kind === 'whatsapp' ? whatsappChannel(config.channels.whatsappApiRoot) : telegramChannel(config.channels.telegramApiRoot);
}

export const webhookUrl = (config: Pick<Config, 'publicUrl'>, kind: ChannelKind, key: string) => `${config.publicUrl.replace(/\/+$/, '')}/webhooks/${kind}/${key}`;

/** Whether this Telegram connection reads updates by long polling rather than its webhook. */
export function telegramPolls(config: Pick<Config, 'channels'>, setting: Pick<ChannelSetting, 'channel' | 'delivery'>): boolean {
  if (setting.channel !== 'telegram') return false;
  return setting.delivery === 'polling' || (setting.delivery !== 'webhook' && !config.channels.hasPublicUrl);
}

export function connectionOf(config: Pick<Config, 'publicUrl' | 'appSecret' | 'channels'>, setting: ChannelSetting): Connection {
  return {
    polling: telegramPolls(config, setting),
    credentials: openCredentials(config.appSecret!, setting.credentials),
    info: (setting.info ?? {}) as Record<string, string>,
    webhookUrl: webhookUrl(config, setting.channel as ChannelKind, setting.webhookKey),
  };
}

export async function loadConnection(deps: { config: Pick<Config, 'publicUrl' | 'appSecret' | 'channels'> }, db: Db | Prisma.TransactionClient, companyId: string, kind: ChannelKind) {
  const setting = await db.channelSetting.findUnique({ where: { companyId_channel: { companyId, channel: kind } } });
  if (!setting || !setting.enabled) return null;
  return connectionOf(deps.config, setting);
}
