import { z } from 'zod';
import { authedProcedure, router } from '../../trpc';
import { requireOperator } from '../billing/operator';
import { sendGlobalNotification } from './global';
import * as notifications from './service';

/** The signed-in user's own notifications (/i/notifications), whatever company they came from. */
export const notificationsRouter = router({
  list: authedProcedure
    .input(z.object({ before: z.coerce.date().optional(), unreadOnly: z.boolean().optional() }).default({}))
    .query(({ ctx, input }) => notifications.listNotifications(ctx.db, ctx.user.id, input)),
  markRead: authedProcedure
    .input(z.object({ ids: z.array(z.uuid()).min(1).max(200) }))
    .mutation(({ ctx, input }) => notifications.markNotificationsRead(ctx, ctx.user.id, input.ids)),
  markAllRead: authedProcedure.mutation(({ ctx }) => notifications.markNotificationsRead(ctx, ctx.user.id, 'all')),
  /** The installation's operator (not a company's admin) to every user of every company, or every admin. */
  sendGlobal: authedProcedure
    .input(
      z.object({
        title: z.string().trim().min(1, 'Title is required').max(120),
        subtitle: z.string().trim().max(500).optional(),
        action: z.string().trim().regex(/^\/[^/]/, 'A path of this app, like /i/recent').max(300).optional().or(z.literal('')),
        audience: z.enum(['all', 'admins']),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      await requireOperator(ctx.db, ctx.config, ctx.user);
      return sendGlobalNotification(ctx, ctx.user.id, { ...input, action: input.action || undefined });
    }),
});
