import { Trans, useLingui } from '@lingui/react/macro';
import { Fragment, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useChat, useConversationLog, useOutgoing } from './ChatProvider';
import { dayKey, dayLabel } from './format';
import { MessageItem, OutgoingItem } from './MessageItem';
import type { Person } from './ConversationPage';

/** Within this distance of the bottom the list follows new messages; further up it stays put. */
const STICK_PX = 80;

/**
 * The messages of a conversation, oldest at the top, with a separator for each day. Scrolling to
 * the top (or the button there) loads the page before; new messages keep the view at the bottom
 * when the reader was there. It is a live region: screen readers hear what arrives.
 */
export function MessageList(props: { conversationId: string; people: Person[]; watermarks: { deliveredSeq: number; readSeq: number }[] }) {
  const { conversationId, people, watermarks } = props;
  const { t, i18n } = useLingui();
  const { engine, me } = useChat();
  const log = useConversationLog(conversationId);
  const outgoing = useOutgoing(conversationId);
  const scroller = useRef<HTMLDivElement>(null);
  const top = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const anchor = useRef<{ height: number; top: number } | null>(null);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const group = people.length > 2;

  async function loadOlder() {
    const el = scroller.current;
    if (!el || loadingOlder || log.reachedStart) return;
    // Keep what the reader sees in place when older messages are put above it.
    anchor.current = { height: el.scrollHeight, top: el.scrollTop };
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
  const oldest = log.messages[0]?.seq;
  useEffect(() => {
    const el = top.current;
    if (!el || log.reachedStart || !log.loaded) return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && void loadOlderRef.current(), { root: scroller.current });
    observer.observe(el);
    return () => observer.disconnect();
  }, [log.reachedStart, log.loaded, oldest]);

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    if (anchor.current) {
      el.scrollTop = el.scrollHeight - anchor.current.height + anchor.current.top;
      anchor.current = null;
    } else if (atBottom.current) {
      el.scrollTop = el.scrollHeight;
    }
  }, [log.messages, outgoing]);

  const messages = log.messages;
  return (
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
      {/* The log is the live region; the list inside it keeps the messages a list for screen readers. */}
      <div role="log" aria-live="polite" aria-relevant="additions" aria-label={t`Messages`}>
      <ol className="message-list">
        {messages.map((m, i) => {
          const previous = messages[i - 1];
          const newDay = !previous || dayKey(previous.createdAt) !== dayKey(m.createdAt);
          const sameAuthorRun = !newDay && previous && previous.authorId === m.authorId && previous.type !== 'info';
          return (
            <Fragment key={m.seq}>
              {newDay && (
                <li className="day-separator">
                  <span>{dayLabel(m.createdAt, i18n)}</span>
                </li>
              )}
              <MessageItem
                message={m}
                mine={m.authorId === me.id}
                showAuthor={group && !sameAuthorRun}
                watermarks={watermarks}
                people={people}
                conversationId={conversationId}
              />
            </Fragment>
          );
        })}
        {outgoing.map((o) => (
          <OutgoingItem key={o.clientId} message={o} />
        ))}
      </ol>
      </div>
    </div>
  );
}
