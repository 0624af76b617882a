/** Payloads of the chat's realtime events (plain JSON: dates arrive as ISO strings). */
import type { PresenceStatus } from './domain/presence';

/** The small quote a reply carries of the message it answers (read live, so edits and removals show). */
export interface ReplyQuote {
  id: string;
  seq: number;
  authorId: string | null;
  authorName: string | null;
  type: string;
  /** An excerpt of the text (QUOTE_MAX_CHARS), '' once the original is removed. */
  text: string;
  /** The original's file name, for a file, image or voice message. */
  fileName: string | null;
  removed: boolean;
}

export interface ChatMessageEvent {
  id: string;
  conversationId: string;
  seq: number;
  /**
   * 0 until the message is edited or removed; then the conversation's change number of its latest
   * change (gapless per conversation, see `chat.changes`).
   */
  changeSeq: number;
  clientId: string | null;
  authorId: string | null;
  authorName: string | null;
  /** texto | info | arquivo | imagem | removida | propostaSLA | formulario (data: FormMessageData, shared/domain/forms.ts) | orcamento (data: BudgetMessageData, shared/domain/commerce.ts) */
  type: string;
  text: string;
  replyToId: string | null;
  replyTo: ReplyQuote | null;
  forwarded: boolean;
  editedAt: Date | string | null;
  removed: boolean;
  isComment: boolean;
  mentions: string[];
  /** A file, image, voice message or recording; its download link comes from `chat.fileLinks`. */
  file: { name: string; size: number; mime: string | null; hasThumb: boolean; isRecording: boolean; durationMs: number | null } | null;
  /** Type-specific extras, e.g. an info message's { info, params } (shared/domain/info-messages.ts). */
  data: unknown;
  createdAt: Date | string;
}

export interface ReceiptEvent {
  conversationId: string;
  userId: string;
  kind: 'delivered' | 'read';
  uptoSeq: number;
}

export interface PresenceEvent {
  userId: string;
  status: PresenceStatus;
  /** Only in the person's own tabs: what they chose (others never learn of 'invisible'). */
  choice?: string;
}
