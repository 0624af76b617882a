/**
 * Pure rules of the recent-chats list in the browser: a pushed message moves its conversation to
 * the top (below the fixed ones) with the new last line and unread count, receipts move the ticks
 * (spec 2, Chat list). Tested in tests/unit/chat-sync.test.ts.
 */
import { UNREAD_BADGE_CAP } from '../../../shared/constants';
import type { ChatMessageEvent, ReceiptEvent } from '../../../shared/chat-events';

/** The last message as a recent shows it (the server's RecentLastMessage). */
export interface RecentLast {
  id: string;
  seq: number;
  type: string;
  text: string;
  authorId: string | null;
  authorName: string | null;
  removed: boolean;
  isComment: boolean;
  forwarded: boolean;
  edited: boolean;
  file: { name: string; mime: string | null; isRecording: boolean; durationMs: number | null } | null;
  data: unknown;
  createdAt: Date | string;
}

export function toRecentLast(m: ChatMessageEvent): RecentLast {
  return {
    id: m.id,
    seq: m.seq,
    type: m.type,
    text: m.removed ? '' : m.text,
    authorId: m.authorId,
    authorName: m.authorName,
    removed: m.removed,
    isComment: m.isComment,
    forwarded: m.forwarded,
    edited: !!m.editedAt,
    file: m.file && !m.removed ? { name: m.file.name, mime: m.file.mime, isRecording: m.file.isRecording, durationMs: m.file.durationMs } : null,
    data: m.removed ? null : m.data,
    createdAt: m.createdAt,
  };
}

/** The fields of a recent these rules read and write (the server's item carries more). */
export interface RecentLike {
  conversationId: string;
  title: string;
  protocol: string;
  lastMessage: RecentLast | null;
  lastSeq: number;
  lastMessageAt: Date | string | null;
  unread: number;
  fixed: boolean;
  mentioned: boolean;
  others: { userId: string; deliveredSeq: number; readSeq: number }[];
}

/**
 * A new message in a conversation of the list: its last line, unread count (not for my own, nor
 * when I am reading it right now) and mention flag change, and it moves to the top of its block
 * (fixed ones stay above). `null` when the conversation is not in the list: the caller refetches.
 */
export function applyMessageToRecents<T extends RecentLike>(
  recents: readonly T[],
  message: ChatMessageEvent,
  me: string,
  reading: boolean,
): T[] | null {
  const index = recents.findIndex((r) => r.conversationId === message.conversationId);
  if (index < 0) return null;
  const item = recents[index]!;
  // An older message (a catch-up, an edit) does not replace the last line.
  if (message.seq < item.lastSeq) return recents as T[];
  const fromOther = message.authorId !== me;
  const isNew = message.seq > item.lastSeq;
  const updated: T = {
    ...item,
    lastMessage: toRecentLast(message),
    lastSeq: message.seq,
    lastMessageAt: message.createdAt,
    // Sending moves my own read mark to my message (server side too), so mine clears the count.
    unread: !isNew ? item.unread : fromOther && !reading ? item.unread + 1 : 0,
    mentioned: item.mentioned || (isNew && fromOther && !reading && message.mentions.includes(me)),
  };
  const rest = recents.filter((_, i) => i !== index);
  const fixed = rest.filter((r) => r.fixed);
  const loose = rest.filter((r) => !r.fixed);
  return updated.fixed ? [updated, ...fixed, ...loose] : [...fixed, updated, ...loose];
}

/** An edit or removal of the message a recent shows as its last line. */
export function applyUpdateToRecents<T extends RecentLike>(recents: readonly T[], message: ChatMessageEvent): T[] {
  let changed = false;
  const next = recents.map((r) => {
    if (r.conversationId !== message.conversationId || r.lastMessage?.seq !== message.seq) return r;
    changed = true;
    return { ...r, lastMessage: toRecentLast(message) };
  });
  return changed ? next : (recents as T[]);
}

/** A deleted conversation leaves the list. */
export const withoutConversation = <T extends RecentLike>(recents: readonly T[], conversationId: string): T[] =>
  recents.filter((r) => r.conversationId !== conversationId);

/**
 * A receipt: someone else's watermark moves my ticks; my own (from another tab of mine) means I
 * read the conversation there, so its unread count and mention go.
 */
export function applyReceiptToRecents<T extends RecentLike>(recents: readonly T[], receipt: ReceiptEvent, me: string): T[] {
  return recents.map((r) => {
    if (r.conversationId !== receipt.conversationId) return r;
    if (receipt.userId === me) {
      if (receipt.kind !== 'read' || receipt.uptoSeq < r.lastSeq) return r;
      return { ...r, unread: 0, mentioned: false };
    }
    const field = receipt.kind === 'read' ? 'readSeq' : 'deliveredSeq';
    return {
      ...r,
      others: r.others.map((o) =>
        o.userId !== receipt.userId
          ? o
          : {
              ...o,
              [field]: Math.max(o[field], receipt.uptoSeq),
              // Reading implies receiving.
              ...(receipt.kind === 'read' && { deliveredSeq: Math.max(o.deliveredSeq, receipt.uptoSeq) }),
            },
      ),
    };
  });
}

/** I read a conversation in this tab: its badge and mention flag go at once. */
export function markReadInRecents<T extends RecentLike>(recents: readonly T[], conversationId: string): T[] {
  let changed = false;
  const next = recents.map((r) => {
    if (r.conversationId !== conversationId || (r.unread === 0 && !r.mentioned)) return r;
    changed = true;
    return { ...r, unread: 0, mentioned: false };
  });
  return changed ? next : (recents as T[]);
}

/** The badge and the tab title: 1…99, then '99+'. */
export function unreadLabel(n: number): string {
  return n > UNREAD_BADGE_CAP ? `${UNREAD_BADGE_CAP}+` : String(n);
}

export function totalUnread(recents: readonly { unread: number; removed?: boolean }[]): number {
  return recents.reduce((sum, r) => sum + (r.removed ? 0 : r.unread), 0);
}
