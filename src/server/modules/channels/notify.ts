/**
 * Attendants' notifications over Telegram (/i/notify/telegram/{domain}): the attendant opens the
 * company bot through a deep link whose start parameter names them (signed, so nobody can link
 * another person's notifications to their own chat); the bot's /start update links the chat.
 * From then on every notification of theirs in that company is also an outbox row to that chat.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ChannelSetting, Notification, Prisma } from '../../../generated/prisma/client';
import type { AppDeps } from '../../deps';
import { enqueueTelegramNotification } from './outbox';

const PREFIX = 'n_';

function signature(appSecret: string, companyId: string, userHex: string) {
  return createHmac('sha256', appSecret).update(`telegram-notify:${companyId}:${userHex}`).digest('hex').slice(0, 24);
}

/** The /start parameter for this attendant (Telegram allows 64 characters of [A-Za-z0-9_-]). */
export function startToken(appSecret: string, companyId: string, userId: string): string {
  const hex = userId.replace(/-/g, '');
  return `${PREFIX}${hex}${signature(appSecret, companyId, hex)}`;
}

function userFromToken(appSecret: string, companyId: string, token: string): string | null {
  if (!token.startsWith(PREFIX) || token.length !== PREFIX.length + 32 + 24) return null;
  const hex = token.slice(PREFIX.length, PREFIX.length + 32);
  const given = Buffer.from(token.slice(PREFIX.length + 32));
  const expected = Buffer.from(signature(appSecret, companyId, hex));
  if (!/^[0-9a-f]{32}$/.test(hex) || !timingSafeEqual(given, expected)) return null;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A "/start n_..." message: links the chat and says so. False when the text is anything else. */
export async function linkTelegramFromStart(deps: Pick<AppDeps, 'db' | 'config'>, setting: ChannelSetting, chatId: string, text: string): Promise<boolean> {
  const m = /^\/start\s+(\S+)$/.exec(text.trim());
  if (!m || !m[1]!.startsWith(PREFIX)) return false;
  const userId = userFromToken(deps.config.appSecret!, setting.companyId, m[1]!);
  const member = userId && (await deps.db.member.findFirst({ where: { companyId: setting.companyId, userId, inviteAccepted: true, removed: false } }));
  await deps.db.$transaction(async (tx) => {
    if (member) {
      await tx.telegramRecipient.upsert({
        where: { userId_companyId: { userId: member.userId, companyId: setting.companyId } },
        create: { userId: member.userId, companyId: setting.companyId, chatId },
        update: { chatId, linkedAt: new Date() },
      });
    }
    await enqueueTelegramNotification(tx, setting.companyId, chatId, member ? 'Your notifications will arrive here.' : 'This link is not valid. Open it again from the app.');
  });
  return true;
}

export async function relayNotificationsToTelegram(tx: Prisma.TransactionClient, rows: Notification[]) {
  const withCompany = rows.filter((n) => n.companyId);
  if (!withCompany.length) return;
  const recipients = await tx.telegramRecipient.findMany({
    where: { OR: withCompany.map((n) => ({ userId: n.userId, companyId: n.companyId! })) },
  });
  if (!recipients.length) return;
  const chatOf = new Map(recipients.map((r) => [`${r.userId}:${r.companyId}`, r.chatId]));
  for (const n of withCompany) {
    const chatId = chatOf.get(`${n.userId}:${n.companyId}`);
    if (chatId) await enqueueTelegramNotification(tx, n.companyId!, chatId, [n.title, n.subtitle].filter(Boolean).join('\n'));
  }
}
