import { z } from 'zod';
import { domainSchema } from './company';

export { CHANNEL_MESSAGES } from '../messages/channels';

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
  /** How updates arrive: auto (long polling when the server has no PUBLIC_URL), webhook, polling. */
  delivery: z.enum(['auto', 'webhook', 'polling']).default('auto'),
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

/** The company's mailbox for the e-mail integration: IMAP to read, SMTP to answer. */
const host = z.string().trim().min(1, 'Fill in the server').max(255).regex(/^[\w.-]+$/, 'Server: a host name or address');
const port = z.coerce.number().int().min(1, 'Port: 1 to 65535').max(65535, 'Port: 1 to 65535');
const mailUser = z.string().trim().max(255);
export const saveEmailInput = z.object({
  ...inCompany,
  enabled: z.boolean().default(true),
  queueId,
  address: z.email('Invalid email').max(255).transform((a) => a.toLowerCase()),
  imapHost: host,
  imapPort: port,
  imapSecure: z.boolean(),
  imapUser: mailUser.min(1, 'Fill in the user'),
  smtpHost: host,
  smtpPort: port,
  smtpSecure: z.boolean(),
  smtpUser: mailUser,
  /** Blank keeps what is stored. */
  imapPassword: secret.optional(),
  smtpPassword: secret.optional(),
});
/** The spec's Integration: an address of the mailbox and its title TAGs, routing to a queue. */
export const saveIntegrationInput = z.object({
  ...inCompany,
  id: z.uuid().optional(),
  email: z.union([z.literal(''), z.email('Invalid email').max(255)]).transform((a) => a.toLowerCase()),
  tags: z.array(z.string().trim().max(60)).max(20),
  queueId: z.uuid(),
});
export const removeIntegrationInput = z.object({ ...inCompany, id: z.uuid() });
/** integrateSingleService: an outside address joins a single conversation, by e-mail. */
export const integrateEmailInput = z.object({
  ...inCompany,
  conversationId: z.uuid(),
  email: z.email('Invalid email').max(255).transform((a) => a.toLowerCase()),
  name: z.string().trim().max(100).optional(),
});
