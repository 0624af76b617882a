import { z } from 'zod';
import { authedProcedure, router } from '../../trpc';
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
});
