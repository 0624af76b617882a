import { z } from 'zod';

/** Texts of the queues and groups screens (spec 5 and the error catalogue); the client translates them. */
export const QUEUE_MESSAGES = {
  /** Shown under the title 'Definir Grupo'. */
  noGroup: 'Você precisa definir pelo menos um grupo de atendimento para este canal',
  groupHasMembers: 'Este grupo está vinculado a um ou mais membros. Por favor desvincule todos para continuar.',
  queueNotFound: 'Queue not found',
  groupNotFound: 'Group not found',
  memberNotFound: 'Member not found',
  lastGroupOfQueue: 'This group is the only one serving a queue: give that queue another group first',
  queueHasWaiting: 'People are waiting in this queue: serve or transfer them before removing it',
  contactUsQueue: 'Contact Us requests go to this queue: choose another one in the Contact Us settings first',
} as const;

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
