/**
 * The pure rules of the browser's chat sync: how messages from the socket, from catch-up fetches
 * and from our own sends are merged (by seq, never twice, always in order), what is still missing,
 * and when a send that did not get through is tried again. No DOM, no network: the engine
 * (engine.ts) applies these; tests/unit/chat-sync.test.ts proves them.
 */
import type { ChatMessageEvent } from '../../../shared/chat-events';

/** A message as the browser keeps it: dates as ISO strings whichever way it arrived. */
export interface ChatMessage extends Omit<ChatMessageEvent, 'createdAt' | 'editedAt'> {
  createdAt: string;
  editedAt: string | null;
}

const iso = (d: Date | string | null | undefined): string | null => (d == null ? null : typeof d === 'string' ? d : d.toISOString());

/** tRPC (superjson) brings Dates, the socket brings strings: one shape from here on. */
export function normalizeMessage(m: ChatMessageEvent): ChatMessage {
  return { ...m, createdAt: iso(m.createdAt)!, editedAt: iso(m.editedAt) };
}

/**
 * Which of two copies of the same message (same seq) to keep: the one with the later change
 * (`changeSeq` numbers a conversation's edits and removals); with the same change, the one kept
 * already unless the newcomer differs (a fetch and a push of the same state).
 */
export function newerCopy(current: ChatMessage, incoming: ChatMessage): ChatMessage {
  if (incoming.changeSeq !== current.changeSeq) return incoming.changeSeq > current.changeSeq ? incoming : current;
  return sameContent(current, incoming) ? current : incoming;
}

function sameContent(a: ChatMessage, b: ChatMessage): boolean {
  return (
    a.id === b.id &&
    a.text === b.text &&
    a.type === b.type &&
    a.removed === b.removed &&
    JSON.stringify(a.file) === JSON.stringify(b.file) &&
    JSON.stringify(a.data) === JSON.stringify(b.data)
  );
}

/**
 * Merges messages into a list sorted by seq: each seq once, ascending. Returns the same array
 * when nothing changed, so React skips the render.
 */
export function mergeMessages(existing: readonly ChatMessage[], incoming: readonly ChatMessage[]): ChatMessage[] {
  if (incoming.length === 0) return existing as ChatMessage[];
  const bySeq = new Map<number, ChatMessage>();
  for (const m of existing) bySeq.set(m.seq, m);
  let changed = false;
  for (const m of incoming) {
    const current = bySeq.get(m.seq);
    const kept = current ? newerCopy(current, m) : m;
    if (kept !== current) {
      bySeq.set(m.seq, kept);
      changed = true;
    }
  }
  if (!changed) return existing as ChatMessage[];
  return [...bySeq.values()].sort((x, y) => x.seq - y.seq);
}

/**
 * One conversation as this tab knows it. `syncedTo` is the highest seq up to which nothing is
 * missing (from the oldest page loaded); anything above it that arrived out of order waits in
 * `messages` until the gap is filled by a catch-up. `changesSyncedTo` is the same for edits and
 * removals: every change numbered up to it is reflected in the messages held.
 */
export interface ConversationLog {
  messages: ChatMessage[];
  /** 0 until the first page is loaded. */
  syncedTo: number;
  changesSyncedTo: number;
  /** Scrolling back reached message 1 (or the first message this user may see). */
  reachedStart: boolean;
  loaded: boolean;
}

export const emptyLog = (): ConversationLog => ({ messages: [], syncedTo: 0, changesSyncedTo: 0, reachedStart: false, loaded: false });

const maxChangeSeq = (messages: readonly ChatMessage[]) => messages.reduce((max, m) => Math.max(max, m.changeSeq), 0);

/** Walks up from `from` while the next seq is present. */
export function contiguousEnd(messages: readonly ChatMessage[], from: number): number {
  let end = from;
  for (const m of messages) {
    if (m.seq <= end) continue;
    if (m.seq === end + 1) end = m.seq;
    else break;
  }
  return end;
}

/**
 * The latest page (opening a conversation): everything up to its newest message is in sync. The
 * page shows every change made before it was read, so changes are in sync up to `changeBase` (a
 * change number known from before the fetch, e.g. the recent list's) or the page's own latest.
 */
export function applyLatestPage(log: ConversationLog, page: readonly ChatMessage[], pageSize: number, changeBase = 0): ConversationLog {
  const messages = mergeMessages(log.messages, page);
  const newest = page.length ? page[page.length - 1]!.seq : 0;
  const syncedTo = contiguousEnd(messages, Math.max(log.syncedTo, newest));
  const changesSyncedTo = Math.max(log.changesSyncedTo, changeBase, maxChangeSeq(page));
  return { messages, syncedTo, changesSyncedTo, reachedStart: log.reachedStart || page.length < pageSize, loaded: true };
}

/**
 * A catch-up page (`afterSeq: log.syncedTo`): the server sent everything after it that this user
 * may see, so seqs it skipped do not exist for us. Answers the log and whether to ask again
 * (a full page means there may be more).
 */
export function applyCatchUp(log: ConversationLog, afterSeq: number, page: readonly ChatMessage[], pageSize: number): { log: ConversationLog; more: boolean } {
  const messages = mergeMessages(log.messages, page);
  const newest = page.length ? page[page.length - 1]!.seq : afterSeq;
  const syncedTo = contiguousEnd(messages, Math.max(log.syncedTo, newest));
  return { log: { ...log, messages, syncedTo, loaded: true }, more: page.length >= pageSize };
}

/** An older page (`beforeSeq`): only extends the past. */
export function applyOlderPage(log: ConversationLog, page: readonly ChatMessage[], pageSize: number): ConversationLog {
  return { ...log, messages: mergeMessages(log.messages, page), reachedStart: page.length < pageSize };
}

/**
 * A message pushed by the socket. In order, it extends `syncedTo`; after a gap it is kept but
 * `gap` says a catch-up from `syncedTo` is needed. While the first page is still loading the
 * message is only kept: the page may have been read before it was written.
 */
export function applyPushed(log: ConversationLog, message: ChatMessage): { log: ConversationLog; gap: boolean } {
  const messages = mergeMessages(log.messages, [message]);
  if (!log.loaded) return { log: messages === log.messages ? log : { ...log, messages }, gap: false };
  const syncedTo = contiguousEnd(messages, log.syncedTo);
  const gap = message.seq > syncedTo;
  if (messages === log.messages && syncedTo === log.syncedTo) return { log, gap };
  return { log: { ...log, messages, syncedTo }, gap };
}

/**
 * Changes (edits, removals) from a `chat.changes` page: only messages held are updated (one not
 * loaded yet comes as it is now when it is); `upto` is how far the server says we are in sync.
 */
export function applyChanges(log: ConversationLog, changed: readonly ChatMessage[], upto: number): ConversationLog {
  const held = new Set(log.messages.map((m) => m.seq));
  const messages = mergeMessages(
    log.messages,
    changed.filter((m) => held.has(m.seq)),
  );
  const changesSyncedTo = Math.max(log.changesSyncedTo, upto);
  if (messages === log.messages && changesSyncedTo === log.changesSyncedTo) return log;
  return { ...log, messages, changesSyncedTo };
}

/**
 * An edit or removal pushed by the socket: the message held is replaced; the change numbers move
 * on when they follow each other, and `gap` says some change was missed (ask `chat.changes`).
 */
export function applyPushedChange(log: ConversationLog, message: ChatMessage): { log: ConversationLog; gap: boolean } {
  if (!log.loaded) return { log, gap: false };
  const held = log.messages.some((m) => m.seq === message.seq);
  const messages = held ? mergeMessages(log.messages, [message]) : log.messages;
  const next = message.changeSeq === log.changesSyncedTo + 1 ? message.changeSeq : log.changesSyncedTo;
  const gap = message.changeSeq > next;
  if (messages === log.messages && next === log.changesSyncedTo) return { log, gap };
  return { log: { ...log, messages, changesSyncedTo: next }, gap };
}

/** The oldest seq loaded, for `beforeSeq` when scrolling back. */
export const oldestSeq = (log: ConversationLog): number | null => log.messages[0]?.seq ?? null;

// ---------------------------------------------------------------------------------------------
// Sending: one client id per message, retried until the server acknowledges it.

export interface OutgoingMessage {
  /** crypto.randomUUID(), made once when the user pressed Enter; every retry reuses it. */
  clientId: string;
  conversationId: string;
  text: string;
  replyToId?: string;
  isComment?: boolean;
  mentions?: string[];
  createdAt: string;
  /** Attempts that failed so far. */
  attempts: number;
  state: 'sending' | 'waiting' | 'failed';
  /** When `waiting`: the time (ms) of the next attempt. */
  retryAt?: number;
  /** When `failed`: why, as the server or the network said. */
  error?: string;
}

/** A request that has not answered by then is abandoned and tried again (same client id). */
export const SEND_TIMEOUT_MS = 10_000;
/** After this many failed attempts in a row the message shows "not sent" and a retry button. */
export const MAX_SEND_ATTEMPTS = 6;

/** 1 s, 2 s, 4 s, 8 s, 16 s, then 30 s: quick after a blip, gentle on a server that is down. */
export function retryDelayMs(failedAttempts: number): number {
  return Math.min(1000 * 2 ** Math.max(0, failedAttempts - 1), 30_000);
}

/**
 * Whether a failure is worth trying again with the same client id. A network error, a time-out,
 * a server that is restarting (5xx) or busy (429) may pass next time; a refusal (4xx: too long,
 * removed from the conversation, no access) will not.
 */
export function isRetryable(error: { httpStatus?: number; timeout?: boolean; network?: boolean }): boolean {
  if (error.timeout || error.network) return true;
  const status = error.httpStatus;
  if (status === undefined || status === 0) return true;
  return status >= 500 || status === 429 || status === 408;
}

/** What to do after a failed attempt: try again later, or give up and let the user decide. */
export function afterFailure(
  message: OutgoingMessage,
  error: { httpStatus?: number; timeout?: boolean; network?: boolean; message: string },
  now: number,
): OutgoingMessage {
  const attempts = message.attempts + 1;
  if (!isRetryable(error) || attempts >= MAX_SEND_ATTEMPTS) return { ...message, attempts, state: 'failed', error: error.message, retryAt: undefined };
  return { ...message, attempts, state: 'waiting', retryAt: now + retryDelayMs(attempts), error: undefined };
}

/** The user pressed "retry" on a failed message: a fresh round of attempts, same client id. */
export const retryNow = (message: OutgoingMessage): OutgoingMessage => ({ ...message, attempts: 0, state: 'sending', error: undefined, retryAt: undefined });

/** Outgoing messages whose copy came back from the server (by socket or fetch) are done. */
export function settleOutbox(outbox: readonly OutgoingMessage[], arrived: readonly ChatMessage[], myUserId: string): OutgoingMessage[] {
  const done = new Set(arrived.filter((m) => m.authorId === myUserId && m.clientId).map((m) => `${m.conversationId}|${m.clientId}`));
  if (done.size === 0) return outbox as OutgoingMessage[];
  const left = outbox.filter((o) => !done.has(`${o.conversationId}|${o.clientId}`));
  return left.length === outbox.length ? (outbox as OutgoingMessage[]) : left;
}

// ---------------------------------------------------------------------------------------------
// Receipts: what to tell the server, at most once per step.

/**
 * The highest seq written by someone else among `messages`: receiving (or reading) anything up to
 * there is worth telling the server; messages of our own are already delivered and read.
 */
export function lastSeqFromOthers(messages: readonly ChatMessage[], myUserId: string): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]!.authorId !== myUserId) return messages[i]!.seq;
  return 0;
}
