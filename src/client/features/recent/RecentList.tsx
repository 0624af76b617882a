import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { cloneElement, Fragment, isValidElement, memo, useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Keyboard } from 'lucide-react';
import { Link, useLocation, useMatch, useSearchParams } from 'react-router-dom';
import { ShellIconButton } from '../../ui/ShellButtons';
import { SHOW_SHORTCUTS_EVENT } from '../chat/Shortcuts';
import type { RecentsFilter } from '../../../shared/schemas/chat';
import { ticksFor } from '../../../shared/domain/messages';
import { trpc } from '../../trpc';
import { PageTitle } from '../../ui/PageTitle';
import { Spinner } from '../../ui/Spinner';
import { useChat, usePresence, useRecentsList, useTranslateError, useTyping } from '../chat/ChatProvider';
import { listTime, messageSummary } from '../chat/format';
import { Icon } from '../chat/icons';
import { ConversationAvatar, PresenceDot, Ticks } from '../chat/parts';
import type { Recent } from '../chat/types';
import { unreadLabel } from './recents';
import { useSocketEvent } from '../service/live';
import { ChannelBadge } from '../service/ChannelBadge';
import { prefetchConversation } from './prefetch';

/** The desk's views of the list (chat.recents `filter`), kept in the address (?show=). */
const FILTERS: readonly { key: RecentsFilter; label: MessageDescriptor }[] = [
  { key: 'all', label: msg`All` },
  { key: 'unread', label: msg`Unread` },
  { key: 'mine', label: msg`Mine` },
  { key: 'open', label: msg`Open requests` },
  { key: 'team', label: msg`Colleagues` },
];
const isFilter = (v: string | null): v is RecentsFilter => FILTERS.some((f) => f.key === v);


/** Typing pauses this long before the search goes to the server. */
const SEARCH_DELAY_MS = 300;

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

/**
 * The recent chats (spec 2, Chat list): fixed ones first, then by last activity; each with its
 * faces, title, last message (or who is typing), my ticks, unread badge and mention flag. The
 * search box asks the server: title, company, last message, protocol (dashes ignored), DD/MM/YYYY.
 */
export function RecentList() {
  const { t, i18n } = useLingui();
  const { domain } = useChat();
  const translate = useTranslateError();
  const [query, setQuery] = useState('');
  const q = useDebounced(query.trim(), SEARCH_DELAY_MS);
  const searchId = useId();
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const searchRef = useRef<HTMLInputElement>(null);
  // "/" pressed elsewhere brings the user here, to the search box.
  useEffect(() => {
    if ((location.state as { focusSearch?: boolean } | null)?.focusSearch) searchRef.current?.focus();
  }, [location.state]);
  const show = params.get('show');
  const filter: RecentsFilter = isFilter(show) ? show : 'all';
  const queueId = params.get('queue') ?? undefined;
  const queues = trpc.service.queueCount.useQuery({ domain }, { retry: false, staleTime: 30_000 }).data?.queues ?? [];
  const list = useRecentsList();
  // The plain list is the chat's own, patched live; a search or a filter asks the server and
  // asks again when something moves.
  const narrowed = q !== '' || filter !== 'all' || !!queueId;
  const search = trpc.chat.recents.useInfiniteQuery(
    { domain, q, timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone, limit: 50, filter, queueId },
    { enabled: narrowed, getNextPageParam: (last) => last.nextCursor ?? undefined },
  );
  const refreshNarrowed = () => narrowed && !search.isFetching && void search.refetch();
  useSocketEvent('message:new', refreshNarrowed, refreshNarrowed);
  useSocketEvent('conversation:updated', refreshNarrowed);
  const source = narrowed ? search : list;
  const items = source.data?.pages.flatMap((p) => p.items) ?? [];
  const listed = !source.isPending;
  useEffect(() => {
    if (listed) prefetchConversation();
  }, [listed]);
  const choose = (key: string, value: string | undefined) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (value && value !== 'all') next.set(key, value);
        else next.delete(key);
        return next;
      },
      { replace: true },
    );

  return (
    <div className="recent">
      <div className="recent-head">
        <PageTitle title={t`Recent chats`} />
        <Link to="/i/optionsList/newChat" className="button button-small">
          <Trans>New chat</Trans>
        </Link>
        <Link to="/i/optionsList/newLive" className="button button-small button-secondary">
          <Trans>New live</Trans>
        </Link>
        <ShellIconButton icon={Keyboard} label={t`Keyboard shortcuts (?)`} onClick={() => window.dispatchEvent(new Event(SHOW_SHORTCUTS_EVENT))} />
      </div>
      <div className="recent-search" role="search">
        <label htmlFor={searchId} className="visually-hidden">
          <Trans>Search conversations</Trans>
        </label>
        <input
          id={searchId}
          ref={searchRef}
          data-shortcut="search"
          type="search"
          value={query}
          placeholder={t`Search by name, message, protocol or DD/MM/YYYY`}
          onChange={(e) => setQuery(e.target.value)}
        />
        <div className="recent-filters" role="group" aria-label={t`Show`}>
          {FILTERS.map((f) => (
            <button key={f.key} type="button" className="chip" aria-pressed={filter === f.key} onClick={() => choose('show', f.key)}>
              {i18n._(f.label)}
            </button>
          ))}
          {queues.length > 1 && (
            <select className="chip" aria-label={t`Queue`} value={queueId ?? ''} onChange={(e) => choose('queue', e.target.value || undefined)}>
              <option value="">{t`Every queue`}</option>
              {queues.map((queue) => (
                <option key={queue.id} value={queue.id}>
                  {queue.name}
                </option>
              ))}
            </select>
          )}
        </div>
      </div>
      {source.isPending || (query.trim() !== q && query.trim() !== '') ? (
        <Spinner />
      ) : source.isError && !source.data ? (
        <p className="form-error" role="alert">
          {translate(source.error.message)}
        </p>
      ) : items.length === 0 ? (
        <p className="muted recent-empty">
          {q ? (
            <Trans>No conversation matches this search.</Trans>
          ) : narrowed ? (
            <Trans>No conversation here. “All” shows every one.</Trans>
          ) : (
            <Trans>No conversations yet. Start one with “New chat”.</Trans>
          )}
        </p>
      ) : (
        <RecentRows
          items={items}
          label={t`Conversations`}
          more={source.hasNextPage ? <MoreRecents loading={source.isFetchingNextPage} onMore={() => void source.fetchNextPage()} /> : null}
        />
      )}
    </div>
  );
}

/** A row's height before it is measured (two lines of text beside a 40 px face, with padding). */
const ROW_ESTIMATE_PX = 64;

/**
 * The list itself, virtualized (@tanstack/react-virtual): with thousands of conversations loaded
 * only the rows in view (and a few either side) are in the DOM. The rows stay in the normal flow
 * of the <ul> (padding stands for the ones not rendered), so it remains a plain list of <li> for
 * screen readers, each telling its place in the whole. Arrow keys move between conversations
 * (Home/End to the ends), bringing a row that is not rendered yet into view first.
 */
function RecentRows({ items, label, more }: { items: Recent[]; label: string; more: ReactNode }) {
  const scroller = useRef<HTMLDivElement>(null);
  // The open conversation (its replies' screen included): the row it names is marked active.
  const openId = useMatch({ path: '/i/recent/chat/:id', end: false })?.params.id;
  const count = items.length + (more ? 1 : 0);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_ESTIMATE_PX,
    getItemKey: (i) => items[i]?.conversationId ?? 'more',
    overscan: 8,
    // The list's 0.25rem above the first row and below the last.
    paddingStart: 4,
    paddingEnd: 4,
  });
  const rows = virtualizer.getVirtualItems();
  const before = rows[0]?.start ?? 4;
  const after = rows.length ? virtualizer.getTotalSize() - rows[rows.length - 1]!.end : 4;

  function focusRow(index: number, tries = 10) {
    const link = scroller.current?.querySelector<HTMLAnchorElement>(`li[data-index="${index}"] a.recent-link`);
    if (link) return link.focus();
    virtualizer.scrollToIndex(index, { align: 'auto' });
    if (tries > 0) requestAnimationFrame(() => focusRow(index, tries - 1));
  }
  function moveFocus(e: KeyboardEvent<HTMLUListElement>) {
    const row = (document.activeElement as HTMLElement | null)?.closest<HTMLLIElement>('li[data-index]');
    if (!row || !(document.activeElement as HTMLElement).matches('a.recent-link')) return;
    const at = Number(row.dataset.index);
    const next = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: items.length - 1 }[e.key];
    if (next === undefined || !items.length) return;
    e.preventDefault();
    focusRow(Math.max(0, Math.min(items.length - 1, next)));
  }

  return (
    <div ref={scroller} className="recent-scroller">
      <ul className="recent-list" aria-label={label} onKeyDown={moveFocus} style={{ paddingTop: before, paddingBottom: after }}>
        {rows.map((row) =>
          row.index < items.length ? (
            <RecentItem
              key={row.key}
              recent={items[row.index]!}
              index={row.index}
              setSize={more ? -1 : items.length}
              active={items[row.index]!.conversationId === openId}
              measure={virtualizer.measureElement}
            />
          ) : (
            <Fragment key={row.key}>{cloneMore(more, row.index, virtualizer.measureElement)}</Fragment>
          ),
        )}
      </ul>
    </div>
  );
}

/** The "more" row carries the virtualizer's index and measuring ref like the others. */
function cloneMore(more: ReactNode, index: number, measure: (el: Element | null) => void) {
  return isValidElement<{ index?: number; measure?: (el: Element | null) => void }>(more) ? cloneElement(more, { index, measure }) : more;
}

/** The end of the loaded list: scrolling there (or the button) loads the next page. */
function MoreRecents({ loading, onMore, index, measure }: { loading: boolean; onMore: () => void; index?: number; measure?: (el: Element | null) => void }) {
  const ref = useRef<HTMLLIElement>(null);
  const onMoreRef = useRef(onMore);
  onMoreRef.current = onMore;
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && onMoreRef.current());
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return (
    <li
      ref={(el) => {
        ref.current = el;
        measure?.(el);
      }}
      data-index={index}
      className="recent-more"
    >
      <button type="button" className="link-button" disabled={loading} onClick={onMore}>
        {loading ? <Trans>Loading…</Trans> : <Trans>Show more conversations</Trans>}
      </button>
    </li>
  );
}

/** Memoized: the list re-renders on every scroll frame, a row only when its own data changed. */
const RecentItem = memo(function RecentItem({
  recent,
  index,
  setSize,
  active,
  measure,
}: {
  recent: Recent;
  index: number;
  setSize: number;
  /** Its conversation is the one open (a NavLink in each row re-rendered every row on every navigation). */
  active: boolean;
  measure: (el: Element | null) => void;
}) {
  const { t, i18n } = useLingui();
  const { me, domain, engine } = useChat();
  const utils = trpc.useUtils();
  const typing = useTyping(recent.conversationId);
  const setFixed = trpc.chat.setFixed.useMutation({ onSuccess: () => utils.chat.recents.invalidate() });
  const openAhead = (r: Recent) => {
    void utils.chat.conversation.prefetch({ domain, conversationId: r.conversationId }, { staleTime: 30_000, retry: false });
    void engine.open(r.conversationId, r.lastChangeSeq);
  };
  const last = recent.lastMessage;
  const mine = last?.authorId === me.id;
  const group = recent.others.length > 1;
  const typingNames = typing.map((id) => recent.others.find((o) => o.userId === id)?.name ?? '').filter(Boolean);
  const summary = last ? messageSummary(last, i18n) : null;
  const at = recent.lastMessageAt ?? last?.createdAt;
  const title = recent.title || t`(no title)`;
  // A customer who wrote by e-mail, WhatsApp or Telegram: answers go out there.
  const channel = recent.others.find((o) => o.channel)?.channel;

  return (
    <li
      ref={measure}
      data-index={index}
      aria-setsize={setSize}
      aria-posinset={index + 1}
      className={recent.unread > 0 ? 'recent-item unread' : 'recent-item'}
    >
      <Link
        to={`/i/recent/chat/${recent.conversationId}`}
        className={active ? 'recent-link active' : 'recent-link'}
        aria-current={active ? 'page' : undefined}
        // Pressed: what the conversation shows is asked for now rather than after the click's
        // release and the screen's first render (an abandoned press costs one read of each).
        onPointerDown={(e) => {
          if (e.button === 0) openAhead(recent);
        }}
      >
        <span className="recent-face">
          <ConversationAvatar people={recent.others} />
          {recent.others.length === 1 && <RecentPresence userId={recent.others[0]!.userId} />}
        </span>
        <span className="recent-main">
          <span className="recent-row">
            <span className="recent-title">{title}</span>
            <ChannelBadge channel={channel} />
            {at && (
              <time className="recent-time" dateTime={new Date(at).toISOString()}>
                {listTime(at, i18n.locale)}
              </time>
            )}
          </span>
          <span className="recent-row">
            {typingNames.length > 0 ? (
              <span className="recent-last recent-typing">
                {typingNames.length === 1 ? <Trans>{typingNames[0]} is typing…</Trans> : <Trans>Several people are typing…</Trans>}
              </span>
            ) : recent.removed ? (
              <span className="recent-last muted">
                <Trans>You have been removed from Attendance</Trans>
              </span>
            ) : recent.draft ? (
              <span className="recent-last">
                <span className="recent-draft">
                  <Trans>Draft:</Trans>
                </span>{' '}
                <span className="recent-text">{recent.draft}</span>
              </span>
            ) : summary ? (
              <span className="recent-last">
                {mine && last && last.type !== 'info' && <Ticks state={ticksFor(last.seq, recent.others)} />}
                {group && !mine && last?.authorName && last.type !== 'info' && <span className="recent-author">{last.authorName}: </span>}
                {summary.icon && <Icon name={summary.icon} size={14} />}
                <span className="recent-text">{summary.text}</span>
              </span>
            ) : (
              <span className="recent-last muted">
                <Trans>No messages yet</Trans>
              </span>
            )}
            <span className="recent-flags">
              {recent.mentioned && (
                <span className="recent-mention" role="img" aria-label={t`You were mentioned`} title={t`You were mentioned`}>
                  @
                </span>
              )}
              {recent.unread > 0 && (
                <span className="unread-badge">
                  <span aria-hidden="true">{unreadLabel(recent.unread)}</span>
                  <span className="visually-hidden">
                    <Plural value={recent.unread} one="# unread message" other="# unread messages" />
                  </span>
                </span>
              )}
            </span>
          </span>
        </span>
      </Link>
      <button
        type="button"
        className={recent.fixed ? 'icon-button recent-pin pinned' : 'icon-button recent-pin'}
        aria-pressed={recent.fixed}
        aria-label={recent.fixed ? t`Unpin ${title}` : t`Pin ${title} on top`}
        title={recent.fixed ? t`Unpin` : t`Pin on top`}
        disabled={setFixed.isPending}
        onClick={() => setFixed.mutate({ domain, conversationId: recent.conversationId, fixed: !recent.fixed })}
      >
        <Icon name="pin" size={16} />
      </button>
    </li>
  );
});

function RecentPresence({ userId }: { userId: string }) {
  const status = usePresence(userId);
  return status ? <PresenceDot status={status} /> : null;
}
