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
