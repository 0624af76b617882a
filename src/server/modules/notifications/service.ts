import { TRPCError } from '@trpc/server';
import type { Notification, Prisma } from '../../../generated/prisma/client';
import { EMAIL_RESEND_INTERVAL_MS, NOTIFICATION_RETENTION_MS, CONVERSATION_TYPE } from '../../../shared/constants';
import { GOVERNING_SETTING, readSoundSettings, relaysOutsideApp } from '../../../shared/domain/notification-relay';
import type { Clock } from '../../clock';
import type { Db } from '../../db/client';
import type { Logger } from '../../logger';
import type { Mailer } from '../../mail';
import { unreadMessagesMail } from '../../mail/templates';
import type { Realtime } from '../../realtime';
import { relayNotificationsToTelegram } from '../channels/notify';
import { relayNotificationsToPush } from '../channels/push';
import { audiencesOf, globalsFor } from './global';

type Reader = Db | Prisma.TransactionClient;

/**
 * Notifications (notificacao): rows other modules write inside their own transaction and push
 * once it has committed; the user's list with read/unread; the 7-day clean-up; and e-mail to
 * participants who are away.
 */
export interface NewNotification {
  companyId?: string;
  userId: string;
  title: string;
  subtitle?: string;
  /** A client path the notification opens. */
  action?: string;
  type: string;
  adminOnly?: boolean;
  /** Relayed to Web Push and Telegram even when the person's settings would hold it back. */
  forcePush?: boolean;
}

/**
 * Writes notifications. Spec 5: a company's notifications go only to its accepted, non-blocked
 * attendants, and admin-only ones only to its admins; rows for anybody else are dropped here, so
 * no caller can get the rule wrong.
 */
export async function createNotifications(tx: Prisma.TransactionClient, rows: NewNotification[]): Promise<Notification[]> {
  if (rows.length === 0) return [];
  const byCompany = new Map<string, NewNotification[]>();
  for (const r of rows) if (r.companyId) byCompany.set(r.companyId, [...(byCompany.get(r.companyId) ?? []), r]);
  const allowed = new Set<string>();
  for (const [companyId, forCompany] of byCompany) {
    const members = await tx.member.findMany({
      where: { companyId, userId: { in: forCompany.map((r) => r.userId) }, inviteAccepted: true, blocked: false, removed: false },
      select: { userId: true, isAdmin: true },
    });
    for (const m of members) {
      allowed.add(`${companyId}:${m.userId}:user`);
      if (m.isAdmin) allowed.add(`${companyId}:${m.userId}:admin`);
    }
  }
  const data = rows.filter((r) => !r.companyId || allowed.has(`${r.companyId}:${r.userId}:${r.adminOnly ? 'admin' : 'user'}`));
  if (data.length === 0) return [];
  const created = await tx.notification.createManyAndReturn({ data });
  // Attendants who linked their Telegram, and browsers subscribed to Web Push, get them there too
  // (channels outbox, same transaction) when the person's settings let that notification out.
  const outside = await relayable(tx, created);
  await relayNotificationsToTelegram(tx, outside);
  await relayNotificationsToPush(tx, outside);
  return created;
}

/** The rows that may leave the app, by each recipient's sound/push settings (notification-relay.ts). */
async function relayable(tx: Prisma.TransactionClient, rows: Notification[]): Promise<Notification[]> {
  if (rows.every((n) => n.forcePush || !GOVERNING_SETTING[n.type])) return rows;
  const users = await tx.user.findMany({ where: { id: { in: [...new Set(rows.map((n) => n.userId))] } }, select: { id: true, settings: true } });
  const settingsOf = new Map(users.map((u) => [u.id, readSoundSettings(u.settings)]));
  return rows.filter((n) => relaysOutsideApp(n, settingsOf.get(n.userId) ?? {}));
}

/** Call after the transaction that wrote the rows has committed, never inside it. */
export function pushNotifications(realtime: Realtime, rows: Notification[]): void {
  for (const n of rows) {
    realtime.toUser(n.userId, 'notification:new', {
      id: n.id,
      title: n.title,
      type: n.type,
      ...(n.subtitle ? { subtitle: n.subtitle } : {}),
      ...(n.action ? { action: n.action } : {}),
    });
  }
}

/** Notifications go only to accepted, non-blocked attendants; admin-only ones to admins (spec 5). */
export async function activeAdminUserIds(tx: Reader, companyId: string): Promise<string[]> {
  const admins = await tx.member.findMany({
    where: { companyId, isAdmin: true, inviteAccepted: true, blocked: false, removed: false },
    select: { userId: true },
  });
  return admins.map((a) => a.userId);
}

/** Those of `userIds` who are accepted, non-blocked, non-removed members of the company. */
export async function activeMemberUserIds(db: Reader, companyId: string, userIds: string[]): Promise<string[]> {
  if (userIds.length === 0) return [];
  const rows = await db.member.findMany({
    where: { companyId, userId: { in: userIds }, inviteAccepted: true, blocked: false, removed: false },
    select: { userId: true },
  });
  return rows.map((r) => r.userId);
}

// ---- the user's notifications (/i/notifications) ----------------------------------------------

const PAGE = 50;

/**
 * Newest first, in pages; with the unread count for the badge. The person's own notifications and
 * the operator's global ones for their audience (read marks of those in NotificationRead).
 */
export async function listNotifications(db: Db, userId: string, opts: { before?: Date; unreadOnly?: boolean }) {
  const audiences = await audiencesOf(db, userId);
  const unreadGlobal: Prisma.NotificationWhereInput = { ...globalsFor(audiences), reads: { none: { userId } } };
  const own: Prisma.NotificationWhereInput = { userId, isGlobal: false, ...(opts.unreadOnly && { read: false }) };
  const where: Prisma.NotificationWhereInput = { OR: [own, ...(audiences.length ? [opts.unreadOnly ? unreadGlobal : globalsFor(audiences)] : [])] };
  const [rows, unreadOwn, unreadGlobals] = await Promise.all([
    db.notification.findMany({
      where: { ...where, ...(opts.before && { createdAt: { lt: opts.before } }) },
      orderBy: { createdAt: 'desc' },
      take: PAGE + 1,
      include: { company: { select: { domain: true, name: true } }, reads: { where: { userId }, select: { userId: true } } },
    }),
    db.notification.count({ where: { userId, isGlobal: false, read: false } }),
    audiences.length ? db.notification.count({ where: unreadGlobal }) : Promise.resolve(0),
  ]);
  const items = rows.slice(0, PAGE).map((n) => ({
    id: n.id,
    type: n.type,
    title: n.title,
    subtitle: n.subtitle,
    action: n.action,
    read: n.isGlobal ? n.reads.length > 0 : n.read,
    adminOnly: n.adminOnly,
    isGlobal: n.isGlobal,
    createdAt: n.createdAt,
    company: n.company,
  }));
  return { items, unread: unreadOwn + unreadGlobals, hasMore: rows.length > PAGE };
}

/** Marks some (ids) or all of the user's notifications read (lida); the user's other tabs follow. */
export async function markNotificationsRead(deps: { db: Db; realtime: Realtime }, userId: string, ids: string[] | 'all') {
  const { count } = await deps.db.notification.updateMany({
    where: { userId, isGlobal: false, read: false, ...(ids !== 'all' && { id: { in: ids } }) },
    data: { read: true },
  });
  const audiences = await audiencesOf(deps.db, userId);
  const globals = audiences.length
    ? await deps.db.notification.findMany({ where: { ...globalsFor(audiences), reads: { none: { userId } }, ...(ids !== 'all' && { id: { in: ids } }) }, select: { id: true } })
    : [];
  if (globals.length) await deps.db.notificationRead.createMany({ data: globals.map((g) => ({ notificationId: g.id, userId })), skipDuplicates: true });
  const marked = count + globals.length;
  if (ids !== 'all' && marked === 0 && ids.length > 0) {
    const mine = await deps.db.notification.count({ where: { id: { in: ids }, OR: [{ userId, isGlobal: false }, ...(audiences.length ? [globalsFor(audiences)] : [])] } });
    if (mine === 0) throw new TRPCError({ code: 'NOT_FOUND', message: 'Notification not found' });
  }
  deps.realtime.toUser(userId, 'notification:read', { ids });
  return { marked };
}

/** Spec: notifications older than 7 days are deleted (a cron job; idempotent on every instance). */
export async function purgeOldNotifications({ db, clock }: { db: Db; clock: Clock }): Promise<number> {
  const cutoff = new Date(clock.now().getTime() - NOTIFICATION_RETENTION_MS);
  return (await db.notification.deleteMany({ where: { createdAt: { lt: cutoff } } })).count;
}

// ---- e-mail to participants who are away ------------------------------------------------------

/** Someone who is online reads in the app: give them this long before an e-mail is considered. */
export const EMAIL_GRACE_MS = 60_000;

export interface MailDeps {
  db: Db;
  clock: Clock;
  realtime: Realtime;
  mailer: Mailer;
  logger: Logger;
  publicUrl: string;
}

/**
 * Participants with messages from others they have not read for a minute, who are not connected,
 * get one e-mail — and no other until 4 hours (14400000 ms) have passed since the last one
 * (spec 5). Comments are not counted for customers. Each participant row is claimed with a
 * conditional update, so several instances never send the same e-mail twice.
 */
export async function emailOfflineParticipants(deps: MailDeps): Promise<number> {
  const now = deps.clock.now();
  const grace = new Date(now.getTime() - EMAIL_GRACE_MS);
  const resend = new Date(now.getTime() - EMAIL_RESEND_INTERVAL_MS);
  const candidates = await deps.db.$queryRaw<
    { participantId: string; userId: string; email: string; name: string; conversationId: string; type: number; title: string; protocol: string; domain: string; companyName: string; isMember: boolean; unread: bigint }[]
  >`
    SELECT p.id AS "participantId", p."userId", u.email, u.name, c.id AS "conversationId", c.type, c.title, c.protocol,
           co.domain, co.name AS "companyName", (m.id IS NOT NULL) AS "isMember", unread.n AS unread
    FROM "Participant" p
    JOIN "User" u ON u.id = p."userId" AND u.email IS NOT NULL
    JOIN "Conversation" c ON c.id = p."conversationId" AND c."lastSeq" > p."readSeq"
    JOIN "Company" co ON co.id = c."companyId"
    LEFT JOIN "Member" m ON m."companyId" = c."companyId" AND m."userId" = p."userId" AND m."inviteAccepted" AND NOT m.blocked AND NOT m.removed
    CROSS JOIN LATERAL (
      SELECT count(*) AS n, min(x."createdAt") AS first FROM "Message" x
      WHERE x."conversationId" = p."conversationId" AND x.seq > p."readSeq" AND x."authorId" IS NOT NULL AND x."authorId" <> p."userId"
        AND NOT x.removed AND (NOT x."isComment" OR m.id IS NOT NULL)
    ) unread
    WHERE NOT p.removed AND (p."emailedAt" IS NULL OR p."emailedAt" <= ${resend}) AND unread.n > 0 AND unread.first <= ${grace}
    ORDER BY unread.first
    LIMIT 200`;
  if (candidates.length === 0) return 0;
  const online = await deps.realtime.onlineUsers([...new Set(candidates.map((c) => c.userId))]);
  let sent = 0;
  for (const c of candidates) {
    if (online.has(c.userId)) continue;
    const { count } = await deps.db.participant.updateMany({
      where: { id: c.participantId, OR: [{ emailedAt: null }, { emailedAt: { lte: resend } }] },
      data: { emailedAt: now },
    });
    if (count === 0) continue;
    const path = c.isMember ? `/i/recent/chat/${c.conversationId}` : `/${c.domain}/${c.type === CONVERSATION_TYPE.ticket ? 'ticket' : 'chat'}/${c.conversationId}`;
    try {
      await deps.mailer.send(
        unreadMessagesMail({ to: c.email, name: c.name, companyName: c.companyName, title: c.title, protocol: c.protocol, unread: Number(c.unread), link: `${deps.publicUrl}${path}` }),
      );
      sent++;
    } catch (err) {
      // The claim stays: a failing mail server is not retried every minute; the next chance is in 4 h.
      deps.logger.warn({ err, participantId: c.participantId }, 'unread-messages e-mail failed');
    }
  }
  return sent;
}

/**
 * After a change to a company's membership has committed: its admins' members lists refetch.
 * Best effort (a failed read of the admins only costs a live update).
 */
export async function announceMembersChanged(deps: { db: Reader; realtime: Realtime }, company: { id: string; domain: string }) {
  try {
    deps.realtime.toUsers(await activeAdminUserIds(deps.db, company.id), 'members:changed', { domain: company.domain });
  } catch {
    // The list still refreshes on its next load.
  }
}
