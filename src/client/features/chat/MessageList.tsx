import { Trans, useLingui } from '@lingui/react/macro';
import { defaultRangeExtractor, useVirtualizer, type Range } from '@tanstack/react-virtual';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useChat, useConversationLog, useOutgoing } from './ChatProvider';
import type { Person } from './ConversationPage';
import { dayKey, dayLabel, infoText, messageSummary } from './format';
import { JumpToMessage } from './jump';
import { MessageItem, OutgoingItem } from './MessageItem';
import type { ChatMessage, OutgoingMessage } from './sync';

/** Within this distance of the bottom the list follows new messages; further up it stays put. */
const STICK_PX = 80;
/** Heights before a row is measured: a one-line bubble, a day separator. */
const MESSAGE_ESTIMATE_PX = 64;
const DAY_ESTIMATE_PX = 40;
/** A focused row stays rendered while the view is at most this many rows away from it. */
const KEEP_FOCUSED_ROWS = 60;
/** How long an announcement of new messages stays in its live region. */
const ANNOUNCE_MS = 6_000;

/** The list flattened: each day's separator is a row of its own, so the virtualizer sees one list. */
type Row =
  | { kind: 'day'; key: string; at: string }
  | { kind: 'message'; key: string; message: ChatMessage; showAuthor: boolean }
  | { kind: 'outgoing'; key: string; message: OutgoingMessage };

function toRows(messages: ChatMessage[], outgoing: OutgoingMessage[], group: boolean): Row[] {
  const rows: Row[] = [];
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    const previous = messages[i - 1];
    const newDay = !previous || dayKey(previous.createdAt) !== dayKey(m.createdAt);
    if (newDay) rows.push({ kind: 'day', key: `d${m.seq}`, at: m.createdAt });
    const sameAuthorRun = !newDay && previous && previous.authorId === m.authorId && previous.type !== 'info';
    rows.push({ kind: 'message', key: `m${m.seq}`, message: m, showAuthor: group && !sameAuthorRun });
  }
  for (const o of outgoing) rows.push({ kind: 'outgoing', key: `o${o.clientId}`, message: o });
  return rows;
}

/** A row's height with its vertical margins (the rows sit in a flex column: margins add up). */
function measureWithMargins(el: Element) {
  const style = getComputedStyle(el);
  return el.getBoundingClientRect().height + parseFloat(style.marginTop) + parseFloat(style.marginBottom);
}

/**
 * The messages of a conversation, oldest at the top, with a separator for each day. Virtualized
 * (@tanstack/react-virtual, as the recents): however far back one scrolls, only the rows in view
 * and a few either side are in the DOM; the rows stay in the normal flow of the <ol> (padding
 * stands for the others), so it is a plain list for screen readers. Scrolling to the top (or the
 * button there) loads the page before, keeping the row one was reading in place; new messages
 * keep the view at the bottom only when the reader was there. The log is not live itself (rows rendered by scrolling are not news): what
 * arrives from the others is said by a separate polite live region.
 */
export function MessageList(props: { conversationId: string; people: Person[]; watermarks: { deliveredSeq: number; readSeq: number }[] }) {
  const { conversationId, people, watermarks } = props;
  const { t, i18n } = useLingui();
  const { engine, me } = useChat();
  const log = useConversationLog(conversationId);
  const outgoing = useOutgoing(conversationId);
  const scroller = useRef<HTMLDivElement>(null);
  const top = useRef<HTMLDivElement>(null);
  const list = useRef<HTMLOListElement>(null);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [listOffset, setListOffset] = useState(0);
  const [gap, setGap] = useState(0);
  const focused = useRef<number | null>(null);
  const [jumped, setJumped] = useState<{ seq: number } | null>(null);
  const group = people.length > 2;
  const messages = log.messages;
  const rows = useMemo(() => toRows(messages, outgoing, group), [messages, outgoing, group]);

  const keepFocused = useCallback((range: Range) => {
    const indexes = defaultRangeExtractor(range);
    const f = focused.current;
    if (f === null || f >= range.count || !indexes.length) return indexes;
    const first = indexes[0]!;
    const last = indexes[indexes.length - 1]!;
    // The rendered rows stay contiguous (they are in the flow): stretch the window to the focused one.
    if (f < first && first - f <= KEEP_FOCUSED_ROWS) return [...Array.from({ length: first - f }, (_, i) => f + i), ...indexes];
    if (f > last && f - last <= KEEP_FOCUSED_ROWS) return [...indexes, ...Array.from({ length: f - last }, (_, i) => last + 1 + i)];
    return indexes;
  }, []);

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: (i) => (rows[i]?.kind === 'day' ? DAY_ESTIMATE_PX : MESSAGE_ESTIMATE_PX),
    getItemKey: (i) => rows[i]?.key ?? i,
    measureElement: measureWithMargins,
    rangeExtractor: keepFocused,
    overscan: 10,
    gap,
    // The list starts below the "load earlier" line.
    scrollMargin: listOffset,
    // A conversation opens at its newest message: the first render already holds the last rows
    // (by their estimated heights, a window's height of them), instead of the oldest ones and a
    // second pass once the scroll to the bottom is seen.
    initialOffset: () => Math.max(0, rows.reduce((sum, r) => sum + (r.kind === 'day' ? DAY_ESTIMATE_PX : MESSAGE_ESTIMATE_PX), 0) - window.innerHeight),
  });

  // Where the list starts in the scroller and the gap between its rows, as the stylesheet says.
  useLayoutEffect(() => {
    const el = list.current;
    const head = top.current;
    if (!el || !head) return;
    setGap(parseFloat(getComputedStyle(el).rowGap) || 0);
    const update = () => setListOffset(el.offsetTop);
    update();
    const observer = new ResizeObserver(update);
    observer.observe(head);
    return () => observer.disconnect();
  }, []);

  // Older messages put above keep what the reader sees in place (the rows above have their
  // estimated heights; the virtualizer corrects the offset as it measures them). Otherwise, at the
  // bottom before (opening, a message arriving, a row measured taller), at the bottom after.
  const atBottom = useRef(true);
  const anchor = useRef<{ height: number; top: number; oldest: number | undefined } | null>(null);
  const totalSize = virtualizer.getTotalSize();
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    if (anchor.current && anchor.current.oldest !== messages[0]?.seq) {
      el.scrollTop = el.scrollHeight - anchor.current.height + anchor.current.top;
      anchor.current = null;
    } else if (atBottom.current && rows.length) {
      el.scrollTop = el.scrollHeight;
    }
    // After each change of the rows or of their measured total.
  }, [rows, totalSize, messages]);

  async function loadOlder() {
    const el = scroller.current;
    if (!el || loadingOlder || log.reachedStart) return;
    anchor.current = { height: el.scrollHeight, top: el.scrollTop, oldest: messages[0]?.seq };
    setLoadingOlder(true);
    try {
      await engine.loadOlder(conversationId);
    } finally {
      setLoadingOlder(false);
    }
  }
  const loadOlderRef = useRef(loadOlder);
  loadOlderRef.current = loadOlder;

  // Reaching the top loads the page before (again after each page, while the top stays in view).
  const oldest = messages[0]?.seq;
  useEffect(() => {
    const el = top.current;
    if (!el || log.reachedStart || !log.loaded) return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && void loadOlderRef.current(), { root: scroller.current });
    observer.observe(el);
    return () => observer.disconnect();
  }, [log.reachedStart, log.loaded, oldest]);

  // A reply's quote: older pages until the quoted message is loaded, then its row, focused.
  const jumpTo = useCallback(
    async (seq: number) => {
      try {
        for (;;) {
          const current = engine.log(conversationId);
          const first = current.messages[0]?.seq;
          if (first === undefined || first <= seq || current.reachedStart) break;
          await engine.loadOlder(conversationId);
          if (engine.log(conversationId).messages[0]?.seq === first) break;
        }
      } catch {
        // Offline: go as far as what is loaded.
      }
      setJumped({ seq });
    },
    [engine, conversationId],
  );
  useLayoutEffect(() => {
    if (!jumped) return;
    const index = rows.findIndex((r) => r.kind === 'message' && r.message.seq === jumped.seq);
    if (index < 0) return;
    atBottom.current = false;
    virtualizer.scrollToIndex(index, { align: 'center' });
    let frame = 0;
    let tries = 30;
    const focus = () => {
      const el = scroller.current?.querySelector<HTMLElement>(`#msg-${jumped.seq}`);
      if (el) el.focus({ preventScroll: true });
      else if (tries-- > 0) frame = requestAnimationFrame(focus);
    };
    frame = requestAnimationFrame(focus);
    return () => cancelAnimationFrame(frame);
    // Once per jump (the rows it needs are loaded by then), not again when rows change.
  }, [jumped]);

  const announced = useAnnouncements(messages, log.loaded, me.id);

  const items = virtualizer.getVirtualItems();
  const before = items.length ? items[0]!.start - listOffset : 0;
  const after = items.length ? virtualizer.getTotalSize() - (items[items.length - 1]!.end - listOffset) : 0;
  const measure = virtualizer.measureElement;

  return (
    <JumpToMessage.Provider value={jumpTo}>
      <div
        ref={scroller}
        className="message-scroller"
        onScroll={(e) => {
          const el = e.currentTarget;
          atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_PX;
        }}
      >
        <div ref={top} className="message-top">
          {!log.loaded ? null : log.reachedStart ? (
            <p className="muted message-start">
              <Trans>This is the beginning of the conversation.</Trans>
            </p>
          ) : (
            <button type="button" className="link-button" onClick={() => void loadOlder()} disabled={loadingOlder} aria-busy={loadingOlder || undefined}>
              {loadingOlder ? <Trans>Loading…</Trans> : <Trans>Load earlier messages</Trans>}
            </button>
          )}
        </div>
        {/* Not live: rows rendered by scrolling are not news (the announcer below says what arrives). */}
        <div role="log" aria-live="off" aria-label={t`Messages`}>
          <ol
            ref={list}
            className="message-list"
            style={{ paddingTop: before, paddingBottom: after }}
            onFocus={(e) => {
              const row = (e.target as HTMLElement).closest<HTMLElement>('li[data-index]');
              focused.current = row ? Number(row.dataset.index) : null;
            }}
            onBlur={(e) => {
              if (!e.currentTarget.contains(e.relatedTarget as Node | null)) focused.current = null;
            }}
          >
            {items.map((item) => {
              const row = rows[item.index];
              if (!row) return null;
              if (row.kind === 'day') {
                return (
                  <li key={row.key} ref={measure} data-index={item.index} className="day-separator">
                    <span>{dayLabel(row.at, i18n)}</span>
                  </li>
                );
              }
              if (row.kind === 'outgoing') return <OutgoingItem key={row.key} message={row.message} index={item.index} measure={measure} />;
              const m = row.message;
              return (
                <MessageItem
                  key={row.key}
                  message={m}
                  mine={m.authorId === me.id}
                  showAuthor={row.showAuthor}
                  watermarks={watermarks}
                  people={people}
                  conversationId={conversationId}
                  index={item.index}
                  measure={measure}
                  jumped={jumped?.seq === m.seq}
                />
              );
            })}
          </ol>
        </div>
      </div>
      <div className="visually-hidden" aria-live="polite" aria-relevant="additions">
        {announced.map((a) => (
          <p key={a.key}>{a.text}</p>
        ))}
      </div>
    </JumpToMessage.Provider>
  );
}

/**
 * What the others send while the conversation is open, said once: the messages after the newest
 * one seen (not the first page, not older pages, not mine), kept a few seconds in the live region.
 */
function useAnnouncements(messages: ChatMessage[], loaded: boolean, myId: string) {
  const { t, i18n } = useLingui();
  const newest = useRef<number | null>(null);
  const [said, setSaid] = useState<{ key: number; text: string }[]>([]);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  useEffect(() => {
    if (!loaded) return;
    const last = messages[messages.length - 1]?.seq ?? 0;
    const seen = newest.current;
    newest.current = Math.max(seen ?? 0, last);
    if (seen === null || last <= seen) return;
    const fresh: { key: number; text: string }[] = [];
    for (let i = messages.length - 1; i >= 0 && messages[i]!.seq > seen; i--) {
      const m = messages[i]!;
      if (m.authorId === myId) continue;
      const author = m.authorName ?? t`Someone`;
      const text = m.type === 'info' ? infoText(m, i18n) : messageSummary(m, i18n).text;
      fresh.unshift({ key: m.seq, text: m.type === 'info' ? text : t`${author}: ${text}` });
    }
    if (!fresh.length) return;
    setSaid(fresh);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setSaid([]), ANNOUNCE_MS);
  }, [messages, loaded, myId, t, i18n]);
  return said;
}
