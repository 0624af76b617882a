import { createGroupInput, createQueueInput, groupIdInput, queueIdInput, updateGroupInput, updateQueueInput } from '../../../shared/schemas/queues';
import { adminProcedure, router } from '../../trpc';
import * as queues from './service';

/** Queues (filas) and groups of attendants: admins save and remove them (spec 6). */
export const queuesRouter = router({
  list: adminProcedure.query(({ ctx }) => queues.listQueues(ctx)),
  get: adminProcedure.input(queueIdInput).query(({ ctx, input }) => queues.getQueue(ctx, input.queueId)),
  create: adminProcedure.input(createQueueInput).mutation(({ ctx, input }) => queues.createQueue(ctx, input)),
  update: adminProcedure.input(updateQueueInput).mutation(({ ctx, input }) => queues.updateQueue(ctx, input)),
  delete: adminProcedure.input(queueIdInput).mutation(({ ctx, input }) => queues.deleteQueue(ctx, input.queueId)),
});

export const groupsRouter = router({
  list: adminProcedure.query(({ ctx }) => queues.listGroups(ctx)),
  get: adminProcedure.input(groupIdInput).query(({ ctx, input }) => queues.getGroup(ctx, input.groupId)),
  create: adminProcedure.input(createGroupInput).mutation(({ ctx, input }) => queues.createGroup(ctx, input)),
  update: adminProcedure.input(updateGroupInput).mutation(({ ctx, input }) => queues.updateGroup(ctx, input)),
  delete: adminProcedure.input(groupIdInput).mutation(({ ctx, input }) => queues.deleteGroup(ctx, input.groupId)),
});
