import type { ChatMessageEvent } from '../../../shared/chat-events';
import type { ChatSendInput } from '../../../shared/realtime';
import type { AppSocket } from '../../socket';

/** chat:send's refusal: the server's text and the HTTP status chat.send would have answered. */
export class SocketSendError extends Error {
  constructor(
    message: string,
    readonly httpStatus?: number,
    readonly access?: string,
  ) {
    super(message);
  }
}

/**
 * Sends a message over the tab's open socket (chat:send, acknowledged), which costs the server a
 * fraction of an HTTP request; while the socket is not connected, or if it drops before the
 * answer, through `overHttp` (chat.send). The clientId makes a message sent both ways land once.
 */
export function sendOverSocket(socket: AppSocket, input: ChatSendInput, signal: AbortSignal, overHttp: () => Promise<ChatMessageEvent>): Promise<ChatMessageEvent> {
  if (!socket.connected) return overHttp();
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (then: () => void) => {
      if (settled) return;
      settled = true;
      socket.off('disconnect', onDrop);
      signal.removeEventListener('abort', onAbort);
      then();
    };
    const onDrop = () => finish(() => overHttp().then(resolve, reject));
    const onAbort = () => finish(() => reject(new DOMException('The send timed out', 'AbortError')));
    socket.on('disconnect', onDrop);
    signal.addEventListener('abort', onAbort);
    socket.emit('chat:send', input, (ack) =>
      finish(() => (ack.ok ? resolve(ack.message) : reject(new SocketSendError(ack.error, ack.httpStatus, ack.access)))),
    );
  });
}
