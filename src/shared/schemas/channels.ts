import { z } from 'zod';
import { domainSchema } from './company';

/** Texts of the channels' settings (no spec text covers them). */
export const CHANNEL_MESSAGES = {
  notConfigured: 'This channel is not set up yet',
  refused: 'The provider refused the connection',
  queueNotFound: 'Queue not found',
  credentialsRequired: 'Fill in the credentials',
  notFound: 'Domain not found',
} as const;

const inCompany = { domain: domainSchema };
const secret = z.string().trim().max(1000);
const queueId = z.uuid().nullable();

export const channelSettingsInput = z.object(inCompany);
export const saveWhatsAppInput = z.object({
  ...inCompany,
  enabled: z.boolean().default(true),
  queueId,
  phoneNumberId: z.string().trim().regex(/^\d{1,32}$/, 'Phone number ID: digits only'),
  /** Blank keeps what is stored. */
  accessToken: secret.optional(),
  appSecret: secret.optional(),
  verifyToken: z.string().trim().regex(/^[\w.-]{8,100}$/, 'Verify token: 8 to 100 letters, digits, ".", "_" or "-"').optional(),
});
export const saveTelegramInput = z.object({
  ...inCompany,
  enabled: z.boolean().default(true),
  queueId,
  botToken: z.string().trim().regex(/^\d{1,20}:[\w-]{20,100}$/, 'Bot token: the one @BotFather gave, like 123456:ABC-DEF…').optional(),
});
export const testMessageInput = z.object({
  ...inCompany,
  /** A WhatsApp number in international format (digits), or a Telegram chat id. */
  to: z.string().trim().regex(/^-?\d{3,20}$/, 'Digits only, with the country code'),
});
export const whatsappEntryInput = z.object(inCompany);
export const telegramNotifyInput = z.object(inCompany);

/** A browser's PushSubscription.toJSON(). */
const base64url = (max: number) => z.string().regex(/^[\w-]+=*$/, 'Invalid key').max(max);
export const pushSubscribeInput = z.object({
  endpoint: z.url({ protocol: /^https?$/ }).max(2000),
  keys: z.object({ p256dh: base64url(200), auth: base64url(100) }),
});
export const pushUnsubscribeInput = z.object({ endpoint: z.string().max(2000) });
