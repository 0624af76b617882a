/**
 * Who sees a waiting request in the queue (spec 5): a request aimed at one attendant (userFila) is
 * shown only to them; otherwise a request without a group restriction is shown to every
 * attendant, and a restricted one to attendants sharing one of its groups. An attendant without
 * groups therefore sees only unrestricted requests. On top of that, an attendant whose profile
 * lists queues (Profile.queues) sees and takes only requests of those queues.
 */
export interface QueueViewer {
  userId: string;
  groupIds: readonly string[];
  /** The queues of the attendant's profile; empty = every queue. */
  queueIds?: readonly string[];
}

export interface QueuedRequest {
  /** filaAtendimento.grupos: the groups of the queue when the request entered it; empty = anyone. */
  groupIds: readonly string[];
  /** userFila */
  queueUserId: string | null;
  /** The queue the request waits in (absent: not checked against profiles). */
  queueId?: string | null;
}

export function canSeeRequest(viewer: QueueViewer, request: QueuedRequest): boolean {
  // Aimed at one person (a transfer to them): theirs, whatever their profile's queues.
  if (request.queueUserId) return request.queueUserId === viewer.userId;
  if (!profileAllowsQueue(viewer.queueIds, request.queueId)) return false;
  if (request.groupIds.length === 0) return true;
  return viewer.groupIds.some((g) => request.groupIds.includes(g));
}

/** A profile restricted to some queues allows only those; a profile without queues allows all. */
export function profileAllowsQueue(profileQueueIds: readonly string[] | undefined, queueId: string | null | undefined): boolean {
  if (!profileQueueIds || profileQueueIds.length === 0) return true;
  return !!queueId && profileQueueIds.includes(queueId);
}

/** The request fields of a stored conversation, as the rule reads them. */
export const queuedRequest = (c: { queueGroupIds: readonly string[]; queueUserId: string | null; queueId?: string | null }): QueuedRequest => ({
  groupIds: c.queueGroupIds,
  queueUserId: c.queueUserId,
  queueId: c.queueId ?? null,
});
