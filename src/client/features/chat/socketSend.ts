import type { ChatMessageEvent } from '../../../shared/chat-events';
import type { ChatSendInput } from '../../../shared/realtime';
import type { AppSocket } from '../../socket';
import { emitWithFallback, SocketRefusedError } from '../../socketEmit';

/**
 * Sends a message over the tab's open socket (chat:send, acknowledged); while the socket is not
 * connected, or if it drops before the answer, through `overHttp` (chat.send). The clientId makes
 * a message sent both ways land once. A refusal without a status (dropped for going too fast) is
 * the engine's to retry.
 */
export function sendOverSocket(socket: AppSocket, input: ChatSendInput, signal: AbortSignal, overHttp: () => Promise<ChatMessageEvent>): Promise<ChatMessageEvent> {
  return emitWithFallback(
    socket,
    (answer) => socket.emit('chat:send', input, (ack) => answer(ack.ok ? { value: ack.message } : { error: new SocketRefusedError(ack) })),
    overHttp,
    signal,
  );
}
