import { z } from 'zod';

import { QUEUE_MESSAGES } from '../messages/queues';
export { QUEUE_MESSAGES } from '../messages/queues';

/** Queues and groups without a name are called '(sem nome)' (spec 3). */
export const UNNAMED = '(sem nome)';

const name = z
  .string()
  .trim()
  .max(80)
  .transform((v) => v || UNNAMED);
const ids = z.array(z.uuid()).max(500);
const groupIds = ids.min(1, QUEUE_MESSAGES.noGroup);

const queueFields = {
  name,
  active: z.boolean(),
  internal: z.boolean(),
  sla: z.boolean(),
  /** SLAtempoAtendimento: days to conclude a request of an SLA queue. */
  slaServiceTime: z.number().int().min(1).max(365),
  groupIds,
};

export const createQueueInput = z.object({
  ...queueFields,
  name: name.default(UNNAMED),
  active: queueFields.active.default(true),
  internal: queueFields.internal.default(false),
  sla: queueFields.sla.default(false),
  slaServiceTime: queueFields.slaServiceTime.default(1),
});
export const updateQueueInput = z.object({ queueId: z.uuid(), ...z.object(queueFields).partial().shape });
export const queueIdInput = z.object({ queueId: z.uuid() });

export const createGroupInput = z.object({ name: name.default(UNNAMED), memberIds: ids.default([]), queueIds: ids.default([]) });
export const updateGroupInput = z.object({ groupId: z.uuid(), name: name.optional(), memberIds: ids.optional(), queueIds: ids.optional() });
export const groupIdInput = z.object({ groupId: z.uuid() });
