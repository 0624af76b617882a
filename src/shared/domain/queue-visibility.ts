/**
 * Who sees a waiting request in the queue (spec 5): a request aimed at one attendant (userFila) is
 * shown only to them; otherwise a request without a group restriction is shown to every
 * attendant, and a restricted one to attendants sharing one of its groups. An attendant without
 * groups therefore sees only unrestricted requests.
 */
export interface QueueViewer {
  userId: string;
  groupIds: readonly string[];
}

export interface QueuedRequest {
  /** filaAtendimento.grupos: the groups of the queue when the request entered it; empty = anyone. */
  groupIds: readonly string[];
  /** userFila */
  queueUserId: string | null;
}

export function canSeeRequest(viewer: QueueViewer, request: QueuedRequest): boolean {
  if (request.queueUserId) return request.queueUserId === viewer.userId;
  if (request.groupIds.length === 0) return true;
  return viewer.groupIds.some((g) => request.groupIds.includes(g));
}

/** The request fields of a stored conversation, as the rule reads them. */
export const queuedRequest = (c: { queueGroupIds: readonly string[]; queueUserId: string | null }): QueuedRequest => ({
  groupIds: c.queueGroupIds,
  queueUserId: c.queueUserId,
});
