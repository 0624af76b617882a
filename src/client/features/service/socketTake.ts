import { useMutation, type UseMutationOptions } from '@tanstack/react-query';
import type { ServiceTakeAck, ServiceTakeInput } from '../../../shared/realtime';
import { getSocket, type AppSocket } from '../../socket';
import { emitWithFallback, SocketRefusedError } from '../../socketEmit';
import { trpc } from '../../trpc';

/** How long a take waits for the server's acknowledgement before asking over HTTP instead. */
const ACK_TIMEOUT_MS = 30_000;

/**
 * Takes a request over the tab's open socket (service:take, acknowledged); while the socket is not
 * connected, or when the event was not handled (dropped for going too fast, the socket closed or
 * no answer in time), through `overHttp` (service.take). A take that did land before its answer
 * was lost is then answered "already taken" over HTTP, and the screen's refetch shows the request
 * as this attendant's.
 */
export function takeOverSocket(socket: AppSocket, input: ServiceTakeInput, overHttp: () => Promise<{ conversationId: string }>): Promise<{ conversationId: string }> {
  return emitWithFallback(
    socket,
    (answer) =>
      socket.timeout(ACK_TIMEOUT_MS).emit('service:take', input, (err: Error | null, ack: ServiceTakeAck) => {
        if (err) return answer('http');
        if (ack.ok) return answer({ value: { conversationId: ack.conversationId } });
        // No status: the event was dropped before it was handled (too fast); HTTP asks the same.
        answer(ack.httpStatus === undefined ? 'http' : { error: new SocketRefusedError(ack) });
      }),
    overHttp,
  );
}

/** The desk's "Take": over the socket when connected, else service.take; used like trpc.service.take.useMutation. */
export function useTake(options: UseMutationOptions<{ conversationId: string }, Error, ServiceTakeInput> = {}) {
  const utils = trpc.useUtils();
  return useMutation({ ...options, mutationFn: (input: ServiceTakeInput) => takeOverSocket(getSocket(), input, () => utils.client.service.take.mutate(input)) });
}
