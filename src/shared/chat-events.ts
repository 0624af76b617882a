/** Payloads of the chat's realtime events (plain JSON: dates arrive as ISO strings). */
export interface ChatMessageEvent {
  id: string;
  conversationId: string;
  seq: number;
  clientId: string | null;
  authorId: string | null;
  authorName: string | null;
  type: string;
  text: string;
  replyToId: string | null;
  forwarded: boolean;
  editedAt: Date | string | null;
  removed: boolean;
  isComment: boolean;
  mentions: string[];
  createdAt: Date | string;
}

export interface ReceiptEvent {
  conversationId: string;
  userId: string;
  kind: 'delivered' | 'read';
  uptoSeq: number;
}
