import type { SocketRefusal } from '../shared/realtime';
import type { AppSocket } from './socket';

/**
 * An event's refusal over the socket: the server's text with the HTTP status (and access reason)
 * the same procedure would have answered over HTTP, also as `data` like a tRPC error's, so the
 * screens read both alike.
 */
export class SocketRefusedError extends Error {
  readonly data: { httpStatus?: number; access?: string };
  constructor(refusal: Pick<SocketRefusal, 'error' | 'httpStatus' | 'access'>) {
    super(refusal.error);
    this.data = { httpStatus: refusal.httpStatus, access: refusal.access };
  }
  get httpStatus() {
    return this.data.httpStatus;
  }
}

/** What the caller makes of an acknowledgement: the answer, a refusal, or 'http' (ask over HTTP instead). */
export type AckOutcome<T> = { value: T } | { error: Error } | 'http';

/**
 * An acknowledged event over the tab's open socket, which costs the server a fraction of an HTTP
 * request; through `overHttp` (the same procedure) while the socket is not connected, when it
 * drops before the answer, or when `emit`'s acknowledgement says 'http'. The callers' ids (a
 * message's clientId, a take's "already taken") make an event that did land answer the same over
 * HTTP. An abort of `signal` rejects with an AbortError: the caller's time is up.
 */
export function emitWithFallback<T>(
  socket: AppSocket,
  emit: (answer: (outcome: AckOutcome<T>) => void) => void,
  overHttp: () => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  if (!socket.connected) return overHttp();
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (then: () => void) => {
      if (settled) return;
      settled = true;
      socket.off('disconnect', onDrop);
      signal?.removeEventListener('abort', onAbort);
      then();
    };
    const viaHttp = () => overHttp().then(resolve, reject);
    const onDrop = () => finish(viaHttp);
    const onAbort = () => finish(() => reject(new DOMException('The request timed out', 'AbortError')));
    socket.on('disconnect', onDrop);
    signal?.addEventListener('abort', onAbort);
    emit((outcome) => finish(() => (outcome === 'http' ? viaHttp() : 'value' in outcome ? resolve(outcome.value) : reject(outcome.error))));
  });
}
