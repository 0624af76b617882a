import { useMutation, type UseMutationOptions } from '@tanstack/react-query';
import type { ServiceTakeAck, ServiceTakeInput } from '../../../shared/realtime';
import { getSocket, type AppSocket } from '../../socket';
import { trpc } from '../../trpc';

/** How long a take waits for the server's acknowledgement before asking over HTTP instead. */
const ACK_TIMEOUT_MS = 30_000;

/** service:take's refusal: the server's text, with the HTTP status (and access reason) service.take would have answered. */
export class SocketTakeError extends Error {
  readonly data: { httpStatus?: number; access?: string };
  constructor(message: string, httpStatus?: number, access?: string) {
    super(message);
    this.data = { httpStatus, access };
  }
}

/**
 * Takes a request over the tab's open socket (service:take, acknowledged), which costs the server
 * a fraction of an HTTP request; while the socket is not connected, or when the event was not
 * handled (dropped for going too fast, the socket closed or no answer in time), through
 * `overHttp` (service.take). A take that did land before its answer was lost is then answered
 * "already taken" over HTTP, and the screen's refetch shows the request as this attendant's.
 */
export function takeOverSocket(socket: AppSocket, input: ServiceTakeInput, overHttp: () => Promise<{ conversationId: string }>): Promise<{ conversationId: string }> {
  if (!socket.connected) return overHttp();
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (then: () => void) => {
      if (settled) return;
      settled = true;
      socket.off('disconnect', onDrop);
      then();
    };
    const viaHttp = () => overHttp().then(resolve, reject);
    const onDrop = () => finish(viaHttp);
    socket.on('disconnect', onDrop);
    socket.timeout(ACK_TIMEOUT_MS).emit('service:take', input, (err: Error | null, ack: ServiceTakeAck) =>
      finish(() => {
        if (err) return viaHttp();
        if (ack.ok) return resolve({ conversationId: ack.conversationId });
        // No status: the event was dropped before it was handled (too fast); HTTP asks the same.
        if (ack.httpStatus === undefined) return viaHttp();
        reject(new SocketTakeError(ack.error, ack.httpStatus, ack.access));
      }),
    );
  });
}

/** The desk's "Take": over the socket when connected, else service.take; used like trpc.service.take.useMutation. */
export function useTake(options: UseMutationOptions<{ conversationId: string }, Error, ServiceTakeInput> = {}) {
  const utils = trpc.useUtils();
  return useMutation({ ...options, mutationFn: (input: ServiceTakeInput) => takeOverSocket(getSocket(), input, () => utils.client.service.take.mutate(input)) });
}
