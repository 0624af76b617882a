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

export function connectionOf(config: Pick<Config, 'publicUrl' | 'appSecret'>, setting: ChannelSetting): Connection {
  return {
    credentials: openCredentials(config.appSecret!, setting.credentials),
    info: (setting.info ?? {}) as Record<string, string>,
    webhookUrl: webhookUrl(config, setting.channel as ChannelKind, setting.webhookKey),
  };
}

export async function loadConnection(deps: { config: Pick<Config, 'publicUrl' | 'appSecret'> }, db: Db | Prisma.TransactionClient, companyId: string, kind: ChannelKind) {
  const setting = await db.channelSetting.findUnique({ where: { companyId_channel: { companyId, channel: kind } } });
  if (!setting || !setting.enabled) return null;
  return connectionOf(deps.config, setting);
}
