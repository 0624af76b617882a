/**
 * The browser's chat sync rules (src/client/features/chat/sync.ts) and the recent list's live
 * updates (src/client/features/recent/recents.ts): merging by seq, gaps and catch-up, the retry
 * policy of sends, receipts, search.
 */
import { describe, expect, it } from 'vitest';
import type { ChatMessageEvent } from '../../src/shared/chat-events';
import {
  afterFailure,
  applyCatchUp,
  applyChanges,
  applyPushedChange,
  applyLatestPage,
  applyOlderPage,
  applyPushed,
  contiguousEnd,
  emptyLog,
  isRetryable,
  lastSeqFromOthers,
  MAX_SEND_ATTEMPTS,
  mergeMessages,
  normalizeMessage,
  retryDelayMs,
  retryNow,
  settleOutbox,
  type ChatMessage,
  type OutgoingMessage,
} from '../../src/client/features/chat/sync';
import {
  applyMessageToRecents,
  applyReceiptToRecents,
  applyUpdateToRecents,
  markReadInRecents,
  totalUnread,
  unreadLabel,
  withoutConversation,
  type RecentLike,
} from '../../src/client/features/recent/recents';

const ME = 'me';
const conv = 'c1';

function msg(seq: number, over: Partial<ChatMessage> = {}): ChatMessage {
  return {
    id: `m${seq}`,
    conversationId: conv,
    seq,
    changeSeq: 0,
    clientId: null,
    authorId: 'other',
    authorName: 'Other',
    type: 'texto',
    text: `text ${seq}`,
    replyToId: null,
    replyTo: null,
    forwarded: false,
    editedAt: null,
    removed: false,
    isComment: false,
    mentions: [],
    file: null,
    data: null,
    createdAt: new Date(Date.UTC(2026, 10, 23, 10, seq)).toISOString(),
    ...over,
  };
}
const seqs = (list: { seq: number }[]) => list.map((m) => m.seq);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => msg(from + i));

describe('merging messages', () => {
  it('keeps each seq once, in order, whatever order they arrive in', () => {
    const merged = mergeMessages([msg(1), msg(3)], [msg(5), msg(2), msg(3), msg(4), msg(2)]);
    expect(seqs(merged)).toEqual([1, 2, 3, 4, 5]);
  });

  it('returns the same array when nothing new arrived (React skips the render)', () => {
    const list = [msg(1), msg(2)];
    expect(mergeMessages(list, [msg(2)])).toBe(list);
    expect(mergeMessages(list, [])).toBe(list);
  });

  it('keeps the copy with the later change: an edit replaces, a stale fetch does not undo it', () => {
    const edited = msg(2, { text: 'fixed', editedAt: '2026-11-23T11:00:00.000Z', changeSeq: 1 });
    const afterEdit = mergeMessages([msg(1), msg(2)], [edited]);
    expect(afterEdit[1]!.text).toBe('fixed');
    // A fetch that read the row before the edit arrives late: the edit stays.
    expect(mergeMessages(afterEdit, [msg(2)])[1]!.text).toBe('fixed');
    const removed = msg(2, { removed: true, text: '', type: 'removida', changeSeq: 2 });
    const afterRemove = mergeMessages(afterEdit, [removed]);
    expect(afterRemove[1]!.removed).toBe(true);
    expect(mergeMessages(afterRemove, [edited])[1]!.removed).toBe(true);
    // The same state twice changes nothing.
    expect(mergeMessages(afterRemove, [{ ...removed }])).toBe(afterRemove);
  });

  it('normalizes dates from tRPC (Date) and the socket (string) to one shape', () => {
    const event = { ...msg(1), createdAt: new Date('2026-11-23T10:00:00Z'), editedAt: null } as ChatMessageEvent;
    expect(normalizeMessage(event).createdAt).toBe('2026-11-23T10:00:00.000Z');
  });
});

describe('conversation log', () => {
  it('is in sync up to the newest message of the latest page', () => {
    const log = applyLatestPage(emptyLog(), range(51, 100), 50);
    expect(log).toMatchObject({ loaded: true, syncedTo: 100, reachedStart: false });
    expect(applyLatestPage(emptyLog(), range(1, 7), 50)).toMatchObject({ syncedTo: 7, reachedStart: true });
  });

  it('extends with pushes in order and reports a gap when one is skipped', () => {
    let log = applyLatestPage(emptyLog(), range(1, 3), 50);
    let r = applyPushed(log, msg(4));
    expect(r).toMatchObject({ gap: false, log: { syncedTo: 4 } });
    log = r.log;
    r = applyPushed(log, msg(6));
    expect(r.gap).toBe(true);
    expect(r.log.syncedTo).toBe(4);
    expect(seqs(r.log.messages)).toEqual([1, 2, 3, 4, 6]);
    // The catch-up from 4 brings 5 and 6 again: each stays once, and the log is whole.
    const { log: caught, more } = applyCatchUp(r.log, 4, [msg(5), msg(6)], 50);
    expect(more).toBe(false);
    expect(caught.syncedTo).toBe(6);
    expect(seqs(caught.messages)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('a push that repeats what we have changes nothing', () => {
    const log = applyLatestPage(emptyLog(), range(1, 3), 50);
    const r = applyPushed(log, msg(3));
    expect(r.log).toBe(log);
    expect(r.gap).toBe(false);
  });

  it('keeps pushes that arrive while the first page loads, and finds the gap after it', () => {
    let log = emptyLog();
    log = applyPushed(log, msg(53)).log;
    expect(log.loaded).toBe(false);
    log = applyLatestPage(log, range(1, 50), 50);
    expect(log.syncedTo).toBe(50);
    expect(seqs(log.messages).at(-1)).toBe(53);
    const { log: caught } = applyCatchUp(log, 50, [msg(51), msg(52), msg(53)], 50);
    expect(caught.syncedTo).toBe(53);
  });

  it('a full catch-up page asks for more; a disconnected client of 100 sends ends with all 100 once', () => {
    let log = applyLatestPage(emptyLog(), [], 50);
    const server = range(1, 100);
    let rounds = 0;
    for (;;) {
      rounds++;
      const after = log.syncedTo;
      const page = server.filter((m) => m.seq > after).slice(0, 50);
      // Pushes that arrived before the socket dropped overlap the pages.
      log = applyPushed(log, msg(Math.min(after + 2, 100))).log;
      const r = applyCatchUp(log, after, page, 50);
      log = r.log;
      if (!r.more) break;
    }
    expect(rounds).toBe(3);
    expect(seqs(log.messages)).toEqual(seqs(server));
    expect(log.syncedTo).toBe(100);
  });

  it('skips seqs the server does not send (not visible to this user) without asking forever', () => {
    const log = applyLatestPage(emptyLog(), range(1, 2), 50);
    const { log: caught, more } = applyCatchUp(log, 2, [msg(4), msg(5)], 50);
    expect(caught.syncedTo).toBe(5);
    expect(more).toBe(false);
  });

  it('older pages only extend the past', () => {
    const log = applyLatestPage(emptyLog(), range(51, 100), 50);
    const older = applyOlderPage(log, range(11, 50), 50);
    expect(older.reachedStart).toBe(true);
    expect(older.syncedTo).toBe(100);
    expect(seqs(older.messages)[0]).toBe(11);
  });

  it('changes: pushes in order move the change mark, a skipped one asks for a catch-up', () => {
    let log = applyLatestPage(emptyLog(), range(1, 5), 50, 3);
    expect(log.changesSyncedTo).toBe(3);
    let r = applyPushedChange(log, msg(2, { text: 'edit 4', changeSeq: 4 }));
    expect(r.gap).toBe(false);
    expect(r.log.changesSyncedTo).toBe(4);
    expect(r.log.messages[1]!.text).toBe('edit 4');
    log = r.log;
    r = applyPushedChange(log, msg(3, { text: 'edit 6', changeSeq: 6 }));
    expect(r.gap).toBe(true);
    expect(r.log.changesSyncedTo).toBe(4);
    expect(r.log.messages[2]!.text).toBe('edit 6');
    // The catch-up brings 5 (a message not loaded: skipped) and 6 again.
    const caught = applyChanges(r.log, [msg(900, { changeSeq: 5 }), msg(3, { text: 'edit 6', changeSeq: 6 })], 6);
    expect(caught.changesSyncedTo).toBe(6);
    expect(seqs(caught.messages)).toEqual([1, 2, 3, 4, 5]);
  });

  it('the latest page sets the change mark from the base or its own newest change', () => {
    expect(applyLatestPage(emptyLog(), [msg(1, { changeSeq: 7 }), msg(2)], 50).changesSyncedTo).toBe(7);
    expect(applyLatestPage(emptyLog(), [msg(1)], 50, 9).changesSyncedTo).toBe(9);
  });

  it('contiguousEnd walks while the next seq is there', () => {
    expect(contiguousEnd([msg(1), msg(2), msg(4)], 0)).toBe(2);
    expect(contiguousEnd([msg(1), msg(2), msg(4)], 3)).toBe(4);
  });
});

describe('sending and retrying', () => {
  const outgoing = (over: Partial<OutgoingMessage> = {}): OutgoingMessage => ({
    clientId: 'k1',
    conversationId: conv,
    text: 'hi',
    createdAt: '2026-11-23T10:00:00.000Z',
    attempts: 0,
    state: 'sending',
    ...over,
  });

  it('retries network errors, time-outs and server errors; not refusals', () => {
    expect(isRetryable({ network: true })).toBe(true);
    expect(isRetryable({ timeout: true })).toBe(true);
    expect(isRetryable({ httpStatus: 502 })).toBe(true);
    expect(isRetryable({ httpStatus: 429 })).toBe(true);
    expect(isRetryable({ httpStatus: 400 })).toBe(false);
    expect(isRetryable({ httpStatus: 403 })).toBe(false);
  });

  it('waits longer after each failure, up to 30 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map(retryDelayMs)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
  });

  it('keeps the client id across retries and fails after the last attempt', () => {
    let o = outgoing();
    const now = 1_000_000;
    for (let i = 1; i < MAX_SEND_ATTEMPTS; i++) {
      o = afterFailure(o, { network: true, message: 'network' }, now);
      expect(o).toMatchObject({ state: 'waiting', attempts: i, clientId: 'k1', retryAt: now + retryDelayMs(i) });
    }
    o = afterFailure(o, { network: true, message: 'network' }, now);
    expect(o).toMatchObject({ state: 'failed', attempts: MAX_SEND_ATTEMPTS, error: 'network', clientId: 'k1' });
    expect(retryNow(o)).toMatchObject({ state: 'sending', attempts: 0, clientId: 'k1' });
  });

  it('fails at once on a refusal, with the server text', () => {
    const o = afterFailure(outgoing(), { httpStatus: 403, message: 'You have been removed from Attendance' }, 0);
    expect(o).toMatchObject({ state: 'failed', error: 'You have been removed from Attendance', attempts: 1 });
  });

  it('an outgoing message is done when its copy arrives from the server, by socket or fetch', () => {
    const box = [outgoing(), outgoing({ clientId: 'k2' })];
    expect(settleOutbox(box, [msg(7, { authorId: 'someone', clientId: 'k1' })], ME)).toBe(box);
    const left = settleOutbox(box, [msg(7, { authorId: ME, clientId: 'k1' })], ME);
    expect(left.map((o) => o.clientId)).toEqual(['k2']);
    // Same client id in another conversation is another message.
    expect(settleOutbox(box, [msg(7, { authorId: ME, clientId: 'k2', conversationId: 'c2' })], ME)).toBe(box);
  });
});

describe('receipts', () => {
  it('read/delivered go up to the newest message written by someone else', () => {
    expect(lastSeqFromOthers([msg(1), msg(2, { authorId: ME }), msg(3, { authorId: ME })], ME)).toBe(1);
    expect(lastSeqFromOthers([msg(1, { authorId: ME })], ME)).toBe(0);
  });
});

describe('recents', () => {
  const recent = (id: string, over: Partial<RecentLike> = {}): RecentLike => ({
    conversationId: id,
    title: `Chat ${id}`,
    protocol: '123451234512345',
    lastMessage: null,
    lastSeq: 1,
    lastMessageAt: '2026-11-20T10:00:00.000Z',
    unread: 0,
    fixed: false,
    mentioned: false,
    others: [{ userId: 'other', deliveredSeq: 0, readSeq: 0 }],
    ...over,
  });
  const ids = (list: RecentLike[] | null) => list?.map((r) => r.conversationId);
  const lastLine = (seq: number) => ({
    id: `m${seq}`,
    seq,
    type: 'texto',
    text: `text ${seq}`,
    authorId: 'other',
    authorName: 'Other',
    removed: false,
    isComment: false,
    forwarded: false,
    edited: false,
    file: null,
    data: null,
    createdAt: '2026-11-20T10:00:00.000Z',
  });
  const event = (conversationId: string, seq: number, over: Partial<ChatMessage> = {}) => ({ ...msg(seq), conversationId, ...over });

  it('a new message moves its conversation to the top, below the fixed ones, and counts unread', () => {
    const list = [recent('pinned', { fixed: true }), recent('a'), recent('b')];
    const next = applyMessageToRecents(list, event('b', 2), ME, false);
    expect(ids(next)).toEqual(['pinned', 'b', 'a']);
    expect(next![1]).toMatchObject({ unread: 1, lastSeq: 2 });
    expect(next![1]!.lastMessage!.text).toBe('text 2');
  });

  it('no unread for my own messages or for the conversation I am reading; mentions flag', () => {
    const list = [recent('a', { unread: 2 })];
    expect(applyMessageToRecents(list, event('a', 2, { authorId: ME }), ME, false)![0]!.unread).toBe(0);
    expect(applyMessageToRecents(list, event('a', 2), ME, true)![0]!.unread).toBe(0);
    expect(applyMessageToRecents(list, event('a', 2, { mentions: [ME] }), ME, false)![0]!.mentioned).toBe(true);
  });

  it('an old or repeated message changes nothing; an unknown conversation asks for a refetch', () => {
    const list = [recent('a', { lastSeq: 5, unread: 1 })];
    expect(applyMessageToRecents(list, event('a', 3), ME, false)).toBe(list);
    expect(applyMessageToRecents(list, event('a', 5), ME, false)![0]!.unread).toBe(1);
    expect(applyMessageToRecents(list, event('zzz', 1), ME, false)).toBeNull();
  });

  it('receipts move the ticks of others; my own read (another tab) clears the badge', () => {
    const list = [recent('a', { lastSeq: 4, unread: 3, mentioned: true })];
    const read = applyReceiptToRecents(list, { conversationId: 'a', userId: 'other', kind: 'read', uptoSeq: 4 }, ME);
    expect(read[0]!.others[0]).toEqual({ userId: 'other', deliveredSeq: 4, readSeq: 4 });
    const mine = applyReceiptToRecents(list, { conversationId: 'a', userId: ME, kind: 'read', uptoSeq: 4 }, ME);
    expect(mine[0]).toMatchObject({ unread: 0, mentioned: false });
    expect(markReadInRecents(mine, 'a')).toBe(mine);
  });

  it('an edit of the last message changes the last line; a deleted conversation leaves', () => {
    const list = [recent('a', { lastSeq: 4, lastMessage: { ...lastLine(4), text: 'old' } }), recent('b')];
    const edited = applyUpdateToRecents(list, event('a', 4, { text: 'new', editedAt: '2026-11-23T11:00:00.000Z', changeSeq: 1 }));
    expect(edited[0]!.lastMessage).toMatchObject({ text: 'new', edited: true });
    expect(applyUpdateToRecents(list, event('a', 2, { text: 'x' }))).toBe(list);
    expect(ids(withoutConversation(list, 'a'))).toEqual(['b']);
  });

  it('the unread total caps at 99+', () => {
    expect(unreadLabel(99)).toBe('99');
    expect(unreadLabel(100)).toBe('99+');
    expect(totalUnread([{ unread: 3 }, { unread: 4, removed: true }, { unread: 1 }])).toBe(4);
  });
});
