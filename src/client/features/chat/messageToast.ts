import type { ChatMessageEvent } from '../../../shared/chat-events';

/** How much of a message a toast shows. */
export const TOAST_TEXT_MAX = 120;

/**
 * Whether a message that just arrived deserves a toast, and its text: only while the app is in
 * view (the browser's notification is for when it is not), never for the conversation on screen
 * (being read, or its page open) and never for info lines (taken, transferred...).
 */
export function messageToast(
  message: Pick<ChatMessageEvent, 'conversationId' | 'type' | 'text' | 'file'>,
  where: { visible: boolean; reading: boolean; path: string },
): { text: string | null } | null {
  if (!where.visible || where.reading || message.type === 'info') return null;
  if (where.path.startsWith(`/i/recent/chat/${message.conversationId}`)) return null;
  const text = message.text || message.file?.name || null;
  return { text: text && text.length > TOAST_TEXT_MAX ? `${text.slice(0, TOAST_TEXT_MAX)}…` : text };
}
