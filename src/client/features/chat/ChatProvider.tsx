import { useLingui } from '@lingui/react';
import { msg } from '@lingui/core/macro';
import { TRPCClientError } from '@trpc/client';
import { getQueryKey } from '@trpc/react-query';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { createContext, useCallback, useContext, useEffect, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import { RECENTS_REFRESH_MS } from '../../../shared/constants';
import type { ChatMessageEvent, PresenceEvent, ReceiptEvent } from '../../../shared/chat-events';
import { translateServerMessage } from '../../guard/serverMessages';
import { getSocket } from '../../socket';
import { SocketRefusedError } from '../../socketEmit';
import { trpc } from '../../trpc';
import { setTitlePrefix } from '../../ui/PageTitle';
import { toast } from '../../ui/Toast';
import {
  applyMessageToRecents,
  applyReceiptToRecents,
  applyUpdateToRecents,
  markReadInRecents,
  unreadLabel,
  withoutConversation,
} from '../recent/recents';
import { ChatEngine, type TransportError } from './engine';
import { PresenceStore } from './presence';
import { playOnceAcrossTabs } from './sounds';
import { sendOverSocket } from './socketSend';
import { normalizeMessage, type ConversationLog, type OutgoingMessage } from './sync';
import { UploadStore, type Upload } from './uploads';
import type { Conversation, Recent, RecentsPage } from './types';
import { messageToast } from './messageToast';
import { setUnreadCount } from './unreadCount';

export interface Me {
  id: string;
  name: string;
  /** playMessagensReceive (spec 6): allowed while unset. */
  playReceive: boolean;
}

interface ChatContextValue {
  engine: ChatEngine;
  presence: PresenceStore;
  uploads: UploadStore;
  me: Me;
  domain: string;
  companyName: string;
  isAdmin: boolean;
}

const ChatContext = createContext<ChatContextValue | null>(null);

/** The chat, or null where there is none (nobody signed in, no company chosen). */
export function useOptionalChat(): ChatContextValue | null {
  return useContext(ChatContext);
}

export function useChat(): ChatContextValue {
  const value = useContext(ChatContext);
  if (!value) throw new Error('useChat needs a ChatProvider (RecentLayout)');
  return value;
}

/** What the engine keeps of a failed request: the server's text, or what went wrong on the way. */
export function describeError(error: unknown): TransportError {
  if (error instanceof TRPCClientError) {
    const data = error.data as { httpStatus?: number } | undefined;
    if (data?.httpStatus) return { message: error.message, httpStatus: data.httpStatus };
    return { message: 'network', network: true };
  }
  // Refused over the socket: same text and status as over HTTP (no status: dropped for going too fast, retry).
  if (error instanceof SocketRefusedError) return error.httpStatus ? { message: error.message, httpStatus: error.httpStatus } : { message: error.message, network: true };
  if (error instanceof DOMException && error.name === 'AbortError') return { message: 'timeout', timeout: true };
  return { message: error instanceof Error ? error.message : String(error), network: true };
}

/**
 * The chat of the selected company in this tab: one sync engine (messages, sends, typing,
 * receipts), the presence of the people on screen, and the recent list kept live from the same
 * socket — new messages move a conversation up, receipts move ticks, a reconnection refetches,
 * and the list is refreshed every RECENTS_REFRESH_MS as a safety net. Also the tab title's unread
 * count, the app badge and the receive sound.
 */
export function ChatProvider(props: { domain: string; companyName: string; isAdmin: boolean; me: Me; children: ReactNode }) {
  const { domain, me } = props;
  const utils = trpc.useUtils();
  const [engine, setEngine] = useState<ChatEngine | null>(null);
  const [presence, setPresence] = useState<PresenceStore | null>(null);
  const [uploads, setUploads] = useState<UploadStore | null>(null);
  const meRef = useRef(me);
  meRef.current = me;
  const navigate = useNavigate();
  const { i18n } = useLingui();
  // A message for a conversation not on screen, while the app is: a toast that opens it.
  const incomingRef = useRef<(message: ChatMessageEvent, engine: ChatEngine) => void>(() => {});
  incomingRef.current = (message, engine) => {
    const shown = messageToast(message, { visible: document.visibilityState === 'visible', reading: engine.isReading(message.conversationId), path: window.location.pathname });
    if (!shown) return;
    toast.info(shown.text ?? i18n._(msg`New message`), {
      title: message.authorName ?? undefined,
      key: `message:${message.conversationId}`,
      action: { label: i18n._(msg`Open`), onAction: () => void navigate(`/i/recent/chat/${message.conversationId}`) },
    });
  };

  useEffect(() => {
    const client = utils.client;
    const socket = getSocket();
    const created = new ChatEngine({
      userId: me.id,
      socket,
      storage: window.localStorage,
      storageKey: `atende.outbox.${me.id}.${domain}`,
      describeError,
      onIncoming: (message) => {
        if (meRef.current.playReceive) playOnceAcrossTabs('receive', message.id);
        incomingRef.current(message, created);
      },
      transport: {
        messages: (input) => client.chat.messages.query({ domain, ...input }),
        changes: (input) => client.chat.changes.query({ domain, ...input }),
        send: (input, signal) => sendOverSocket(socket, { domain, ...input }, signal, () => client.chat.send.mutate({ domain, ...input }, { signal })),
        markDelivered: (input) => client.chat.markDelivered.mutate({ domain, ...input }),
        markRead: (input) => client.chat.markRead.mutate({ domain, ...input }),
      },
    });
    const store = new PresenceStore(socket, (userIds) => client.chat.presence.query({ domain, userIds }));
    const files = new UploadStore(domain, (m) => created.receive(normalizeMessage(m), false));
    setEngine(created);
    setPresence(store);
    setUploads(files);
    // Whether a push reaches this tab's chat live right now (the engine listens from its
    // construction): <html data-chat="live|offline">, for the browser tests to wait on, and for
    // anyone looking at a tab that missed a sound.
    const markLive = () => {
      document.documentElement.dataset.chat = socket.connected ? 'live' : 'offline';
    };
    socket.on('connect', markLive);
    socket.on('disconnect', markLive);
    markLive();
    return () => {
      socket.off('connect', markLive);
      socket.off('disconnect', markLive);
      delete document.documentElement.dataset.chat;
      created.stop();
      store.stop();
      files.stop();
    };
  }, [utils, domain, me.id]);

  if (!engine || !presence || !uploads) return null;
  return (
    <ChatContext.Provider value={{ engine, presence, uploads, me, domain, companyName: props.companyName, isAdmin: props.isAdmin }}>
      <RecentsSync engine={engine} domain={domain} userId={me.id} />
      <UploadLimits uploads={uploads} domain={domain} />
      {props.children}
    </ChatContext.Provider>
  );
}

/** Tells the upload store the server's size limit, so a file over it is refused before it is sent. */
function UploadLimits({ uploads, domain }: { uploads: UploadStore; domain: string }) {
  const limits = trpc.chat.uploadLimits.useQuery({ domain }, { staleTime: Infinity });
  const max = limits.data?.maxUploadBytes;
  // In the commit that shows the limit (the composer's attach button), so a file picked right
  // after is already checked against it.
  useLayoutEffect(() => {
    if (max) uploads.setMaxBytes(max);
  }, [uploads, max]);
  return null;
}

const RECENTS_PAGE = 100;

/** The recent list of the company (its first pages), refreshed every RECENTS_REFRESH_MS. */
export function useRecentsList() {
  const { domain } = useChat();
  return trpc.chat.recents.useInfiniteQuery(
    { domain, limit: RECENTS_PAGE },
    { getNextPageParam: (last) => last.nextCursor ?? undefined, refetchInterval: RECENTS_REFRESH_MS, staleTime: 5_000 },
  );
}

/**
 * Changes the recent list held in the cache: `change` gets every item loaded (pages joined: a
 * conversation may move from a later page to the top) and the unread total; null means the list
 * cannot follow (a conversation it does not hold) and is fetched again.
 *
 * A fetch in flight (the first one, a refetch, the next page) was answered before a change pushed
 * meanwhile, and its answer replaces the cache it lands in: so the list is fetched once more right
 * after it lands. Not by cancelling it: pushes faster than a fetch would then never let one land.
 */
function useRecentsPatcher(domain: string) {
  const utils = trpc.useUtils();
  const queryClient = useQueryClient();
  const waiting = useRef<(() => void) | null>(null);
  useEffect(() => () => waiting.current?.(), []);

  const inFlight = useCallback(
    () => queryClient.isFetching({ queryKey: getQueryKey(trpc.chat.recents, { domain, limit: RECENTS_PAGE }, 'infinite') }) > 0,
    [queryClient, domain],
  );
  /** Fetches the list again: now, or right after the fetch in flight lands. */
  const refetch = useCallback(() => {
    if (!inFlight()) {
      void utils.chat.recents.invalidate();
      return;
    }
    if (waiting.current) return; // one refetch after the landing covers every change until then
    const off = queryClient.getQueryCache().subscribe(() => {
      if (inFlight()) return;
      off();
      waiting.current = null;
      void utils.chat.recents.invalidate();
    });
    waiting.current = off;
  }, [utils, queryClient, inFlight]);

  const patch = useCallback(
    (change: (items: Recent[], totalUnread: number) => { items: Recent[]; totalUnread: number } | null) => {
      const key = { domain, limit: RECENTS_PAGE };
      const data = utils.chat.recents.getInfiniteData(key);
      const loaded = data !== undefined && data.pages.length > 0;
      // Not loaded yet, or a fetch in flight that was answered before this change will land over
      // it: fetch again (after that one). A loaded list still shows the change at once.
      if (!loaded || inFlight()) refetch();
      if (!loaded) return;
      const items = data.pages.flatMap((p) => p.items);
      const last = data.pages[data.pages.length - 1]!;
      const result = change(items, data.pages[0]!.totalUnread);
      if (result === null) return refetch();
      if (result.items === items && result.totalUnread === data.pages[0]!.totalUnread) return;
      const page: RecentsPage = { items: result.items, nextCursor: last.nextCursor, totalUnread: Math.max(0, result.totalUnread) };
      utils.chat.recents.setInfiniteData(key, { pages: [page], pageParams: [data.pageParams[0] ?? null] });
    },
    [utils, domain, refetch, inFlight],
  );
  return { patch, refetch };
}

const unreadOf = (items: Recent[], conversationId: string) => items.find((r) => r.conversationId === conversationId)?.unread ?? 0;

function RecentsSync({ engine, domain, userId }: { engine: ChatEngine; domain: string; userId: string }) {
  const utils = trpc.useUtils();
  const { patch, refetch } = useRecentsPatcher(domain);
  const recents = useRecentsList();

  useEffect(() => {
    const socket = getSocket();
    const onMessage = (m: ChatMessageEvent) =>
      patch((items, total) => {
        const next = applyMessageToRecents(items, m, userId, engine.isReading(m.conversationId));
        return next && { items: next, totalUnread: total + unreadOf(next, m.conversationId) - unreadOf(items, m.conversationId) };
      });
    const onUpdated = (m: ChatMessageEvent) => patch((items, total) => ({ items: applyUpdateToRecents(items, m), totalUnread: total }));
    const onReceipt = (r: ReceiptEvent) => {
      patch((items, total) => {
        const next = applyReceiptToRecents(items, r, userId);
        return { items: next, totalUnread: total + unreadOf(next, r.conversationId) - unreadOf(items, r.conversationId) };
      });
      // The open conversation's ticks come from its participants' watermarks.
      if (r.userId !== userId) {
        utils.chat.conversation.setData({ domain, conversationId: r.conversationId }, (c) => c && withReceipt(c, r));
      }
    };
    const onConversationUpdated = ({ conversationId }: { conversationId: string }) => {
      refetch();
      void utils.chat.conversation.invalidate({ domain, conversationId });
    };
    const onRemoved = ({ conversationId }: { conversationId: string }) => {
      patch((items, total) => ({ items: withoutConversation(items, conversationId), totalUnread: total - unreadOf(items, conversationId) }));
      utils.chat.conversation.setData({ domain, conversationId }, undefined);
    };
    socket.on('message:new', onMessage);
    socket.on('message:updated', onUpdated);
    socket.on('receipt:update', onReceipt);
    socket.on('conversation:updated', onConversationUpdated);
    socket.on('conversation:removed', onRemoved);
    const offResync = engine.onResync(() => {
      refetch();
      void utils.chat.conversation.invalidate();
    });
    const offRead = engine.onRead((conversationId) =>
      patch((items, total) => ({ items: markReadInRecents(items, conversationId), totalUnread: total - unreadOf(items, conversationId) })),
    );
    return () => {
      socket.off('message:new', onMessage);
      socket.off('message:updated', onUpdated);
      socket.off('receipt:update', onReceipt);
      socket.off('conversation:updated', onConversationUpdated);
      socket.off('conversation:removed', onRemoved);
      offResync();
      offRead();
    };
  }, [engine, utils, domain, userId, patch, refetch]);

  // The list is the receipt of everything in it: received (not read) up to each last message;
  // a conversation held open that the list says is ahead catches up.
  useEffect(() => {
    for (const page of recents.data?.pages ?? []) {
      for (const r of page.items) {
        if (r.unread > 0) engine.noteUnread(r.conversationId, r.lastSeq);
        engine.noteLatest(r.conversationId, r.lastSeq, r.lastChangeSeq);
      }
    }
  }, [engine, recents.data]);

  const unread = recents.data?.pages[0]?.totalUnread ?? 0;
  useEffect(() => {
    setTitlePrefix(unread > 0 ? `(${unreadLabel(unread)}) ` : '');
    setUnreadCount(unread);
    const nav = navigator as Navigator & { setAppBadge?: (n?: number) => Promise<void>; clearAppBadge?: () => Promise<void> };
    if (unread > 0) nav.setAppBadge?.(unread).catch(() => {});
    else nav.clearAppBadge?.().catch(() => {});
    return () => {
      setTitlePrefix('');
      setUnreadCount(0);
    };
  }, [unread]);

  return null;
}

/** Someone's watermark moved: their entry in the open conversation follows (ticks). */
function withReceipt(c: Conversation, r: ReceiptEvent): Conversation {
  return {
    ...c,
    participants: c.participants.map((p) =>
      p.userId !== r.userId
        ? p
        : {
            ...p,
            deliveredSeq: Math.max(p.deliveredSeq, r.uptoSeq),
            readSeq: r.kind === 'read' ? Math.max(p.readSeq, r.uptoSeq) : p.readSeq,
          },
    ),
  };
}

// --- Reading the chat from components ------------------------------------------------------------

export function useConversationLog(conversationId: string): ConversationLog {
  const { engine } = useChat();
  return useSyncExternalStore(engine.subscribe, () => engine.log(conversationId));
}

export function useOutgoing(conversationId: string): OutgoingMessage[] {
  const { engine } = useChat();
  return useSyncExternalStore(engine.subscribe, () => engine.outgoing(conversationId));
}

export function useTyping(conversationId: string): string[] {
  const { engine } = useChat();
  return useSyncExternalStore(engine.subscribe, () => engine.typingIn(conversationId));
}

export function useUploads(conversationId: string): Upload[] {
  const { uploads } = useChat();
  return useSyncExternalStore(uploads.subscribe, () => uploads.list(conversationId));
}

export function useLoadError(conversationId: string): string | undefined {
  const { engine } = useChat();
  return useSyncExternalStore(engine.subscribe, () => engine.loadError(conversationId));
}

/** The conversation as the chat screen opens it (participants, my draft, who may delete). */
export function useConversation(conversationId: string) {
  const { domain } = useChat();
  return trpc.chat.conversation.useQuery({ domain, conversationId }, { retry: false, staleTime: 30_000 });
}

/**
 * The recent entry of a conversation, when the list already loaded has it (for its change number).
 * Read from the cache as the component renders, not observed: one more observer of the list would
 * fetch every loaded page again whenever it mounted on a list older than its stale time.
 */
export function useRecentEntry(conversationId: string): Recent | undefined {
  const { domain } = useChat();
  const utils = trpc.useUtils();
  const pages = utils.chat.recents.getInfiniteData({ domain, limit: RECENTS_PAGE })?.pages;
  return useMemo(() => {
    for (const page of pages ?? []) {
      const found = page.items.find((r) => r.conversationId === conversationId);
      if (found) return found;
    }
    return undefined;
  }, [pages, conversationId]);
}

/** A server text in the user's language. */
export function useTranslateError() {
  const { i18n } = useLingui();
  return useCallback((message: string) => translateServerMessage(i18n, message), [i18n]);
}

/** Presence of one person (null until known), kept live by `presence:update`. */
export function usePresence(userId: string) {
  const { presence } = useChat();
  useEffect(() => presence.want([userId]), [presence, userId]);
  return useSyncExternalStore(presence.subscribe, () => presence.get(userId));
}

export type { PresenceEvent };
