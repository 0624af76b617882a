/**
 * The tab's chat sync engine: per conversation the messages keyed by seq, the messages on their
 * way out, who is typing, and the receipts to tell the server. It listens to the socket, catches
 * up after every (re)connection with `chat.messages({ afterSeq })`, and sends each message with
 * one client id until the server acknowledges it, so nothing is lost and nothing shows twice.
 * React reads it through `useSyncExternalStore` (ChatProvider.tsx); the rules it applies are the
 * pure functions of sync.ts.
 */
import { TYPING_DELAY_MS } from '../../../shared/constants';
import type { ChatMessageEvent } from '../../../shared/chat-events';
import type { AppSocket } from '../../socket';
import {
  afterFailure,
  applyCatchUp,
  applyChanges,
  applyPushedChange,
  applyLatestPage,
  applyOlderPage,
  applyPushed,
  emptyLog,
  lastSeqFromOthers,
  normalizeMessage,
  oldestSeq,
  retryNow,
  SEND_TIMEOUT_MS,
  settleOutbox,
  type ChatMessage,
  type ConversationLog,
  type OutgoingMessage,
} from './sync';

export const PAGE_SIZE = 50;
const CHANGES_PAGE_SIZE = 200;
/**
 * A log read this recently, with the socket connected since, is current: the pushes keep it so
 * and a reconnection catches up on its own. Opening it again (a press on its row read it, then its
 * screen mounted) asks for nothing.
 */
const FRESH_MS = 5_000;

/** What the engine asks of the server (the tRPC client in the app). */
export interface ChatTransport {
  messages(input: { conversationId: string; afterSeq?: number; beforeSeq?: number; limit: number }): Promise<ChatMessageEvent[]>;
  changes(input: { conversationId: string; afterChangeSeq: number; limit: number }): Promise<{ messages: ChatMessageEvent[]; upto: number; complete: boolean }>;
  send(
    input: { conversationId: string; clientId: string; text: string; replyToId?: string; isComment?: boolean; mentions?: string[] },
    signal: AbortSignal,
  ): Promise<ChatMessageEvent>;
  markDelivered(input: { conversationId: string; uptoSeq: number }): Promise<unknown>;
  markRead(input: { conversationId: string; uptoSeq: number }): Promise<unknown>;
}

/** A failed request as the retry policy reads it. */
export interface TransportError {
  message: string;
  httpStatus?: number;
  timeout?: boolean;
  network?: boolean;
}

export interface EngineOptions {
  userId: string;
  transport: ChatTransport;
  socket: AppSocket;
  /** Where unsent messages survive a reload (localStorage in the app). */
  storage?: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
  storageKey: string;
  describeError: (error: unknown) => TransportError;
  /** A message from someone else arrived live (sounds, notifications). */
  onIncoming?: (message: ChatMessage) => void;
}

type Listener = () => void;

export class ChatEngine {
  private logs = new Map<string, ConversationLog>();
  private outbox: OutgoingMessage[] = [];
  private typing = new Map<string, Map<string, number>>();
  private listeners = new Set<Listener>();
  private loading = new Map<string, Promise<void>>();
  private catchingUp = new Map<string, Promise<void>>();
  /** When each conversation's log was last read to its end (first page or catch-up), by Date.now(). */
  private syncedAt = new Map<string, number>();
  private inFlight = new Set<string>();
  private timers = new Map<string, ReturnType<typeof setTimeout>>();
  private typingTimers = new Map<string, ReturnType<typeof setTimeout>>();
  private lastTypingSent = new Map<string, number>();
  /** Receipts already told (or being told) to the server, per conversation. */
  private toldDelivered = new Map<string, number>();
  private toldRead = new Map<string, number>();
  private reading: string | null = null;
  private errors = new Map<string, string>();
  private stopped = false;
  private readonly offs: (() => void)[] = [];

  constructor(private readonly opts: EngineOptions) {
    this.outbox = this.loadOutbox();
    const { socket } = opts;
    const onMessage = (m: ChatMessageEvent) => this.receive(normalizeMessage(m), true);
    const onUpdated = (m: ChatMessageEvent) => this.receiveChange(normalizeMessage(m));
    const onRemoved = ({ conversationId }: { conversationId: string }) => this.drop(conversationId);
    const onTyping = (p: { conversationId: string; userId: string }) => this.someoneTyping(p.conversationId, p.userId);
    // Also the first connection: pushes sent before it are fetched.
    const onConnect = () => this.resync();
    socket.on('message:new', onMessage);
    socket.on('message:updated', onUpdated);
    socket.on('conversation:removed', onRemoved);
    socket.on('typing', onTyping);
    socket.on('connect', onConnect);
    this.offs.push(() => {
      socket.off('message:new', onMessage);
      socket.off('message:updated', onUpdated);
      socket.off('conversation:removed', onRemoved);
      socket.off('typing', onTyping);
      socket.off('connect', onConnect);
    });
    if (typeof window !== 'undefined') {
      // Back from offline (or from sleep): the socket may not have noticed yet; ask anyway.
      const online = () => this.resync();
      window.addEventListener('online', online);
      this.offs.push(() => window.removeEventListener('online', online));
    }
    if (!socket.active) socket.connect(); // not while connecting: see connectSocket()
    // Messages left unsent by a tab closed too early go out now (the server ignores repeats).
    for (const o of this.outbox) if (o.state !== 'failed') this.attempt(o.clientId);
  }

  stop() {
    this.stopped = true;
    for (const off of this.offs) off();
    for (const t of this.timers.values()) clearTimeout(t);
    for (const t of this.typingTimers.values()) clearTimeout(t);
    this.listeners.clear();
  }

  // --- React side -----------------------------------------------------------------------------

  subscribe = (listener: Listener) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private emit() {
    for (const l of [...this.listeners]) l();
  }

  log(conversationId: string): ConversationLog {
    return this.logs.get(conversationId) ?? EMPTY;
  }

  /** This conversation's messages still on their way, oldest first (same array while unchanged). */
  outgoing(conversationId: string): OutgoingMessage[] {
    const key = `out:${conversationId}`;
    const cached = this.derived.get(key) as { from: OutgoingMessage[]; value: OutgoingMessage[] } | undefined;
    if (cached && cached.from === this.outbox) return cached.value;
    const value = this.outbox.filter((o) => o.conversationId === conversationId);
    const same = cached && cached.value.length === value.length && cached.value.every((v, i) => v === value[i]);
    const result = same ? cached!.value : value;
    this.derived.set(key, { from: this.outbox, value: result });
    return result;
  }
  private derived = new Map<string, unknown>();

  /** Who is typing in the conversation right now (user ids), same array while unchanged. */
  typingIn(conversationId: string): string[] {
    const key = `typing:${conversationId}`;
    const now = [...(this.typing.get(conversationId)?.keys() ?? [])].sort();
    const cached = this.derived.get(key) as string[] | undefined;
    if (cached && cached.length === now.length && cached.every((v, i) => v === now[i])) return cached;
    this.derived.set(key, now);
    return now;
  }

  /** The last load error of a conversation (shown above its messages), if any. */
  loadError(conversationId: string): string | undefined {
    return this.errors.get(conversationId);
  }

  // --- Loading --------------------------------------------------------------------------------

  /**
   * Opening a conversation: the latest page the first time, a catch-up afterwards. `changeBase`
   * is a change number known from before (the recent list's), so only later edits are asked for.
   */
  open(conversationId: string, changeBase = 0): Promise<void> {
    const log = this.logs.get(conversationId);
    if (log?.loaded) {
      if (this.isFresh(conversationId)) return Promise.resolve();
      return this.catchUp(conversationId).then(() => this.catchUpChanges(conversationId));
    }
    const pending = this.loading.get(conversationId);
    if (pending) return pending;
    // Pushes that arrive while the first page loads are kept in it (applyPushed).
    if (!log) this.logs.set(conversationId, emptyLog());
    const load = (async () => {
      try {
        const page = (await this.opts.transport.messages({ conversationId, limit: PAGE_SIZE })).map(normalizeMessage);
        this.setLog(conversationId, applyLatestPage(this.log(conversationId), page, PAGE_SIZE, changeBase));
        this.syncedAt.set(conversationId, Date.now());
        this.errors.delete(conversationId);
        this.settle(page);
        // Pushed while the page was on its way, possibly with a gap before them.
        void this.catchUpAgainIfBehind(conversationId);
        // Edits made after `changeBase` to messages of this page were read with it or are pushed;
        // only a change pushed before the page could be older than it: ask from the base.
        if (changeBase > 0) void this.catchUpChanges(conversationId);
        this.tellDelivered(conversationId);
        this.tellRead();
      } catch (error) {
        this.errors.set(conversationId, this.opts.describeError(error).message);
        this.emit();
      } finally {
        this.loading.delete(conversationId);
      }
    })();
    this.loading.set(conversationId, load);
    return load;
  }

  /** Scrolling back: the page before the oldest message loaded. */
  async loadOlder(conversationId: string): Promise<void> {
    const log = this.log(conversationId);
    const before = oldestSeq(log);
    if (!log.loaded || log.reachedStart || before === null) return;
    // Already on its way: the caller waits for that page (jumping to a quote loads page after page).
    const pending = this.loading.get(`older:${conversationId}`);
    if (pending) return pending;
    const load = (async () => {
      try {
        const page = (await this.opts.transport.messages({ conversationId, beforeSeq: before, limit: PAGE_SIZE })).map(normalizeMessage);
        this.setLog(conversationId, applyOlderPage(this.log(conversationId), page, PAGE_SIZE));
      } finally {
        this.loading.delete(`older:${conversationId}`);
      }
    })();
    this.loading.set(`older:${conversationId}`, load);
    return load;
  }

  isLoadingOlder(conversationId: string): boolean {
    return this.loading.has(`older:${conversationId}`);
  }

  /** Everything after `syncedTo`, page after page; one catch-up per conversation at a time. */
  catchUp(conversationId: string): Promise<void> {
    const running = this.catchingUp.get(conversationId);
    if (running) return running.then(() => this.catchUpAgainIfBehind(conversationId));
    const run = (async () => {
      try {
        for (;;) {
          const afterSeq = this.log(conversationId).syncedTo;
          const page = (await this.opts.transport.messages({ conversationId, afterSeq, limit: PAGE_SIZE })).map(normalizeMessage);
          const { log, more } = applyCatchUp(this.log(conversationId), afterSeq, page, PAGE_SIZE);
          this.setLog(conversationId, log);
          this.settle(page);
          if (!more || this.stopped) break;
        }
        this.syncedAt.set(conversationId, Date.now());
        this.errors.delete(conversationId);
        this.tellDelivered(conversationId);
        this.tellRead();
      } catch (error) {
        // The next reconnection or push tries again; meanwhile the user sees why.
        this.errors.set(conversationId, this.opts.describeError(error).message);
        this.emit();
      } finally {
        this.catchingUp.delete(conversationId);
      }
    })();
    this.catchingUp.set(conversationId, run);
    return run;
  }

  /** Edits and removals after `changesSyncedTo`, page after page. */
  catchUpChanges(conversationId: string): Promise<void> {
    const key = `changes:${conversationId}`;
    const running = this.catchingUp.get(key);
    if (running) return running;
    const run = (async () => {
      try {
        for (;;) {
          const log = this.log(conversationId);
          if (!log.loaded) break;
          const page = await this.opts.transport.changes({ conversationId, afterChangeSeq: log.changesSyncedTo, limit: CHANGES_PAGE_SIZE });
          this.setLog(conversationId, applyChanges(this.log(conversationId), page.messages.map(normalizeMessage), page.upto));
          if (page.complete || this.stopped) break;
        }
      } catch (error) {
        this.errors.set(conversationId, this.opts.describeError(error).message);
        this.emit();
      } finally {
        this.catchingUp.delete(key);
      }
    })();
    this.catchingUp.set(key, run);
    return run;
  }

  private isFresh(conversationId: string): boolean {
    const at = this.syncedAt.get(conversationId);
    return at !== undefined && this.opts.socket.connected && Date.now() - at < FRESH_MS;
  }

  /** A push that arrived during a catch-up may have left a gap behind it. */
  private catchUpAgainIfBehind(conversationId: string): Promise<void> {
    const log = this.log(conversationId);
    const newest = log.messages[log.messages.length - 1]?.seq ?? 0;
    return newest > log.syncedTo ? this.catchUp(conversationId) : Promise.resolve();
  }

  /** The recent list says a conversation has more (messages or changes) than we hold: fetch them. */
  noteLatest(conversationId: string, lastSeq: number, lastChangeSeq: number) {
    const log = this.logs.get(conversationId);
    if (!log?.loaded) return;
    if (lastSeq > log.syncedTo) void this.catchUp(conversationId);
    if (lastChangeSeq > log.changesSyncedTo) void this.catchUpChanges(conversationId);
  }

  /** After a (re)connection or coming back online: every conversation held, and the outbox. */
  resync() {
    if (this.stopped) return;
    for (const [id, log] of this.logs) {
      if (!log.loaded) continue;
      void this.catchUp(id);
      void this.catchUpChanges(id);
    }
    for (const o of this.outbox) if (o.state === 'waiting') this.attempt(o.clientId);
    this.resyncListeners.forEach((fn) => fn());
  }
  private resyncListeners = new Set<() => void>();
  /** Others that must refresh after a reconnection (the recents list). */
  onResync(fn: () => void) {
    this.resyncListeners.add(fn);
    return () => this.resyncListeners.delete(fn);
  }

  private setLog(conversationId: string, log: ConversationLog) {
    if (this.logs.get(conversationId) === log) return;
    this.logs.set(conversationId, log);
    this.emit();
  }

  // --- Receiving ------------------------------------------------------------------------------

  /** A message from the socket (live) or a send's answer. */
  receive(message: ChatMessage, live: boolean) {
    const current = this.logs.get(message.conversationId);
    if (current) {
      const { log, gap } = applyPushed(current, message);
      this.setLog(message.conversationId, log);
      if (gap) void this.catchUp(message.conversationId);
    }
    this.settle([message]);
    this.stopTyping(message.conversationId, message.authorId);
    if (message.authorId !== this.opts.userId) {
      this.tellDelivered(message.conversationId, message.seq);
      this.tellRead();
      if (live) this.opts.onIncoming?.(message);
    }
  }

  /** An edit or removal (pushed, or the answer to my own edit/delete). */
  receiveChange(message: ChatMessage) {
    const current = this.logs.get(message.conversationId);
    if (!current) return;
    const { log, gap } = applyPushedChange(current, message);
    this.setLog(message.conversationId, log);
    if (gap) void this.catchUpChanges(message.conversationId);
  }

  /** The conversation was deleted: nothing of it is kept, nothing of it is sent. */
  drop(conversationId: string) {
    this.logs.delete(conversationId);
    this.syncedAt.delete(conversationId);
    this.errors.delete(conversationId);
    if (this.reading === conversationId) this.reading = null;
    this.setOutbox(this.outbox.filter((o) => o.conversationId !== conversationId));
  }

  private settle(arrived: readonly ChatMessage[]) {
    const left = settleOutbox(this.outbox, arrived, this.opts.userId);
    if (left !== this.outbox) this.setOutbox(left);
  }

  // --- Sending --------------------------------------------------------------------------------

  /** Shows the message at once as "sending" and sends it until the server has it. */
  send(conversationId: string, content: { text: string; replyToId?: string; isComment?: boolean; mentions?: string[] }): string {
    const clientId = crypto.randomUUID();
    const message: OutgoingMessage = {
      clientId,
      conversationId,
      ...content,
      createdAt: new Date().toISOString(),
      attempts: 0,
      state: 'sending',
    };
    this.setOutbox([...this.outbox, message]);
    this.attempt(clientId);
    return clientId;
  }

  /** The retry button of a failed message. */
  retry(clientId: string) {
    this.update(clientId, retryNow);
    this.attempt(clientId);
  }

  /** Gives up on a failed message (the user removes it). */
  discard(clientId: string) {
    this.setOutbox(this.outbox.filter((o) => o.clientId !== clientId));
  }

  private attempt(clientId: string) {
    const timer = this.timers.get(clientId);
    if (timer) clearTimeout(timer);
    this.timers.delete(clientId);
    if (this.inFlight.has(clientId) || this.stopped) return;
    const message = this.outbox.find((o) => o.clientId === clientId);
    if (!message || message.state === 'failed') return;
    // Offline: do not spend attempts; 'online' (or the socket's reconnection) resumes.
    if (typeof navigator !== 'undefined' && navigator.onLine === false) {
      this.update(clientId, (o) => ({ ...o, state: 'waiting', retryAt: undefined }));
      return;
    }
    this.update(clientId, (o) => ({ ...o, state: 'sending' }));
    this.inFlight.add(clientId);
    const abort = new AbortController();
    const timeout = setTimeout(() => abort.abort(), SEND_TIMEOUT_MS);
    const { text, conversationId, replyToId, isComment, mentions } = message;
    this.opts.transport
      .send({ conversationId, clientId, text, replyToId, isComment, mentions }, abort.signal)
      .then((saved) => {
        this.inFlight.delete(clientId);
        this.receive(normalizeMessage(saved), false);
      })
      .catch((error: unknown) => {
        this.inFlight.delete(clientId);
        const described = abort.signal.aborted ? { message: 'timeout', timeout: true } : this.opts.describeError(error);
        const next = this.update(clientId, (o) => afterFailure(o, described, Date.now()));
        if (next?.state === 'waiting' && next.retryAt !== undefined) {
          this.timers.set(clientId, setTimeout(() => this.attempt(clientId), Math.max(0, next.retryAt - Date.now())));
        }
      })
      .finally(() => clearTimeout(timeout));
  }

  private update(clientId: string, change: (o: OutgoingMessage) => OutgoingMessage): OutgoingMessage | undefined {
    let changed: OutgoingMessage | undefined;
    const next = this.outbox.map((o) => (o.clientId === clientId ? (changed = change(o)) : o));
    if (changed) this.setOutbox(next);
    return changed;
  }

  private setOutbox(outbox: OutgoingMessage[]) {
    this.outbox = outbox;
    this.saveOutbox();
    this.emit();
  }

  private loadOutbox(): OutgoingMessage[] {
    try {
      const raw = this.opts.storage?.getItem(this.opts.storageKey);
      const parsed = raw ? (JSON.parse(raw) as OutgoingMessage[]) : [];
      return Array.isArray(parsed) ? parsed.map((o) => (o.state === 'failed' ? o : { ...o, state: 'waiting' as const })) : [];
    } catch {
      return [];
    }
  }

  private saveOutbox() {
    try {
      if (this.outbox.length) this.opts.storage?.setItem(this.opts.storageKey, JSON.stringify(this.outbox));
      else this.opts.storage?.removeItem(this.opts.storageKey);
    } catch {
      // Storage full or refused: the messages still go out from this tab.
    }
  }

  // --- Typing ---------------------------------------------------------------------------------

  /** The composer changed: tell the others, at most once per TYPING_DELAY_MS. */
  typed(conversationId: string) {
    const now = Date.now();
    if (now - (this.lastTypingSent.get(conversationId) ?? 0) < TYPING_DELAY_MS) return;
    this.lastTypingSent.set(conversationId, now);
    if (this.opts.socket.connected) this.opts.socket.emit('typing', { conversationId });
  }

  private someoneTyping(conversationId: string, userId: string) {
    if (userId === this.opts.userId) return;
    const people = this.typing.get(conversationId) ?? new Map<string, number>();
    people.set(userId, Date.now() + TYPING_DELAY_MS);
    this.typing.set(conversationId, people);
    const key = `${conversationId}|${userId}`;
    const previous = this.typingTimers.get(key);
    if (previous) clearTimeout(previous);
    this.typingTimers.set(
      key,
      setTimeout(() => this.stopTyping(conversationId, userId), TYPING_DELAY_MS),
    );
    this.emit();
  }

  private stopTyping(conversationId: string, userId: string | null) {
    if (!userId) return;
    const people = this.typing.get(conversationId);
    if (!people?.delete(userId)) return;
    const key = `${conversationId}|${userId}`;
    clearTimeout(this.typingTimers.get(key));
    this.typingTimers.delete(key);
    this.emit();
  }

  // --- Receipts -------------------------------------------------------------------------------

  /**
   * The conversation the user is looking at (open, the tab visible and focused), or null.
   * Whatever arrives there is read at once.
   */
  setReading(conversationId: string | null) {
    this.reading = conversationId;
    this.tellRead();
  }

  isReading(conversationId: string): boolean {
    return this.reading === conversationId;
  }

  /** Received, up to `uptoSeq` (a push) or to the newest message from someone else we hold. */
  tellDelivered(conversationId: string, uptoSeq?: number) {
    const upto = uptoSeq ?? lastSeqFromOthers(this.log(conversationId).messages, this.opts.userId);
    if (upto <= (this.toldDelivered.get(conversationId) ?? 0)) return;
    this.toldDelivered.set(conversationId, upto);
    this.opts.transport.markDelivered({ conversationId, uptoSeq: upto }).catch(() => {
      // Told again with the next message or after a reconnection.
      if (this.toldDelivered.get(conversationId) === upto) this.toldDelivered.delete(conversationId);
    });
  }

  private tellRead() {
    const conversationId = this.reading;
    if (!conversationId) return;
    const log = this.log(conversationId);
    const upto = lastSeqFromOthers(log.messages, this.opts.userId);
    if (upto === 0 || upto <= (this.toldRead.get(conversationId) ?? 0)) return;
    this.toldRead.set(conversationId, upto);
    this.toldDelivered.set(conversationId, Math.max(upto, this.toldDelivered.get(conversationId) ?? 0));
    this.readListeners.forEach((fn) => fn(conversationId));
    this.opts.transport.markRead({ conversationId, uptoSeq: upto }).catch(() => {
      if (this.toldRead.get(conversationId) === upto) this.toldRead.delete(conversationId);
    });
  }
  private readListeners = new Set<(conversationId: string) => void>();
  /** This tab just read a conversation (the recents list clears its badge). */
  onRead(fn: (conversationId: string) => void) {
    this.readListeners.add(fn);
    return () => this.readListeners.delete(fn);
  }

  /** The unread state of a conversation the list knows about: delivered up to its last message. */
  noteUnread(conversationId: string, lastSeq: number) {
    this.tellDelivered(conversationId, lastSeq);
  }
}

const EMPTY: ConversationLog = emptyLog();
