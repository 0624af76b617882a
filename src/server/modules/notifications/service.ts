import type { Notification, Prisma } from '../../../generated/prisma/client';
import type { Realtime } from '../../realtime';

/**
 * The part of the notifications module other modules need today: write rows inside the caller's
 * transaction, push them once it has committed. The notifications issue adds listing, reading and
 * the 7-day clean-up.
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
}

export function createNotifications(tx: Prisma.TransactionClient, rows: NewNotification[]): Promise<Notification[]> {
  if (rows.length === 0) return Promise.resolve([]);
  return tx.notification.createManyAndReturn({ data: rows });
}

/** Call after the transaction that wrote the rows has committed, never inside it. */
export function pushNotifications(realtime: Realtime, rows: Notification[]): void {
  for (const n of rows) {
    realtime.toUser(n.userId, 'notification:new', { id: n.id, title: n.title, ...(n.subtitle ? { subtitle: n.subtitle } : {}) });
  }
}

/** Notifications go only to accepted, non-blocked attendants; admin-only ones to admins (spec 5). */
export async function activeAdminUserIds(tx: Prisma.TransactionClient, companyId: string): Promise<string[]> {
  const admins = await tx.member.findMany({
    where: { companyId, isAdmin: true, inviteAccepted: true, blocked: false, removed: false },
    select: { userId: true },
  });
  return admins.map((a) => a.userId);
}
