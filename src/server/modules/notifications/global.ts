/**
 * Global notifications (spec Notification.isGlobal): the installation's operator writes to every
 * user of every company, or to every admin. Stored once (the operator as its userId), shown in the
 * list of everyone in its audience (a person is in it while they are an accepted, unblocked member
 * of some company, or admin of one), read marks per person in NotificationRead, pushed to every
 * subscribed browser of the audience by one INSERT … SELECT into the outbox in the same
 * transaction, and announced live to the audience's tabs after the commit.
 */
import { Prisma, type Notification } from '../../../generated/prisma/client';
import type { Db } from '../../db/client';
import type { Realtime } from '../../realtime';

export type GlobalAudience = 'all' | 'admins';

/** Which global audiences this user belongs to now. */
export async function audiencesOf(db: Db, userId: string): Promise<GlobalAudience[]> {
  const rows = await db.member.findMany({ where: { userId, inviteAccepted: true, blocked: false, removed: false }, select: { isAdmin: true } });
  if (!rows.length) return [];
  return rows.some((r) => r.isAdmin) ? ['all', 'admins'] : ['all'];
}

/** The globals this user sees: a filter to OR with their own notifications. */
export const globalsFor = (audiences: GlobalAudience[]): Prisma.NotificationWhereInput => ({ isGlobal: true, audience: { in: audiences } });

export async function sendGlobalNotification(
  deps: { db: Db; realtime: Realtime },
  operatorId: string,
  input: { title: string; subtitle?: string; action?: string; audience: GlobalAudience },
): Promise<{ id: string; recipients: number }> {
  const admins = input.audience === 'admins';
  const n: Notification = await deps.db.$transaction(async (tx) => {
    const row = await tx.notification.create({
      data: { userId: operatorId, title: input.title, subtitle: input.subtitle || null, action: input.action || null, type: 'global', isGlobal: true, audience: input.audience, forcePush: true },
    });
    const payload = JSON.stringify({ id: row.id, title: row.title, body: row.subtitle ?? '', action: row.action ?? '/i/notifications', type: 'global' });
    // One outbox row per browser; the company is one the recipient works in (the row needs one).
    await tx.$executeRaw`
      INSERT INTO "ChannelOutbox" ("id", "companyId", "channel", "to", "userId", "body", "createdAt", "nextAttemptAt")
      SELECT DISTINCT ON (s."endpoint") gen_random_uuid(), m."companyId", 'push', s."endpoint", s."userId", ${payload}, now(), now()
      FROM "PushSubscription" s
      JOIN "Member" m ON m."userId" = s."userId" AND m."inviteAccepted" AND NOT m.blocked AND NOT m.removed ${admins ? Prisma.sql`AND m."isAdmin"` : Prisma.empty}
      ORDER BY s."endpoint", m."companyId"`;
    return row;
  });
  const recipients = await deps.db.member.findMany({
    where: { inviteAccepted: true, blocked: false, removed: false, ...(admins && { isAdmin: true }) },
    select: { userId: true },
    distinct: ['userId'],
  });
  deps.realtime.toUsers(
    recipients.map((r) => r.userId),
    'notification:new',
    { id: n.id, title: n.title, type: n.type, ...(n.subtitle ? { subtitle: n.subtitle } : {}), ...(n.action ? { action: n.action } : {}) },
  );
  return { id: n.id, recipients: recipients.length };
}
