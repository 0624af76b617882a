/**
 * A small chat client for Node that keeps the browser's promises with the browser's own rules
 * (src/client/features/chat/sync.ts): every send carries a client id and is retried with the same
 * id until the server acknowledges it (network errors, 5xx, 429); pushed messages are merged by
 * seq; after every (re)connect, and whenever a push shows a gap, it catches up from the last
 * contiguous seq. Used by the no-loss test against a server that gets killed.
 */
import { io as connect } from 'socket.io-client';
import {
  applyCatchUp,
  applyPushed,
  isRetryable,
  normalizeMessage,
  type ChatMessage,
  type ConversationLog,
  emptyLog,
} from '../../src/client/features/chat/sync';
import type { ChatMessageEvent } from '../../src/shared/chat-events';
import type { ClientSocket } from './chat';
import { callProcedure } from './trpc';

const PAGE = 200;
/** Shorter than the browser's back-off (1 s, 2 s, 4 s...): the test waits for a restart, not a user. */
const RETRY_DELAY_MS = 100;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class RetryingChatClient {
  log: ConversationLog = { ...emptyLog(), loaded: true };
  /** client id -> the server's answer to the send that was acknowledged. */
  readonly acked = new Map<string, { id: string; seq: number }>();
  attemptsFailed = 0;
  /** Catch-ups that failed for good (a refusal, not the server being away): the test asserts none. */
  readonly errors: Error[] = [];
  catchUps = 0;
  private socket: ClientSocket | undefined;
  private syncing: Promise<void> | null = null;
  private syncAgain = false;
  private closed = false;

  constructor(
    private readonly url: string,
    private readonly cookie: string,
    private readonly domain: string,
    readonly userId: string,
    readonly conversationId: string,
  ) {}

  /** Opens the socket (reconnecting by itself for good) and resolves after the first catch-up. */
  async open(): Promise<void> {
    const socket: ClientSocket = connect(this.url, {
      transports: ['websocket'],
      extraHeaders: { cookie: this.cookie },
      reconnection: true,
      reconnectionDelay: 100,
      reconnectionDelayMax: 500,
    });
    this.socket = socket;
    socket.on('message:new', (m: ChatMessageEvent) => {
      if (m.conversationId !== this.conversationId) return;
      const { log, gap } = applyPushed(this.log, normalizeMessage(m));
      this.log = log;
      if (gap) this.catchUpInBackground();
    });
    // Sent by the server after every handshake: what was missed while away is fetched now.
    socket.on('session:ready', () => this.catchUpInBackground());
    await new Promise((resolve) => socket.once('session:ready', resolve));
    await this.catchUp();
  }

  close(): void {
    this.closed = true;
    this.socket?.disconnect();
  }

  get messages(): ChatMessage[] {
    return this.log.messages;
  }

  /** Sends once, retrying until acknowledged; throws only on a refusal that will not pass later. */
  async send(clientId: string, text: string): Promise<{ id: string; seq: number }> {
    for (;;) {
      let failure: { httpStatus?: number; network?: boolean; message: string };
      try {
        const res = await callProcedure(this.url, 'chat.send', { domain: this.domain, conversationId: this.conversationId, clientId, text }, { cookie: this.cookie, type: 'mutation' });
        if (!res.error) {
          const data = res.data as { id: string; seq: number };
          this.acked.set(clientId, { id: data.id, seq: data.seq });
          return data;
        }
        failure = { httpStatus: res.status, message: res.error.message };
      } catch (err) {
        // Connection refused or reset: the server is down or was killed mid-request.
        failure = { network: true, message: (err as Error).message };
      }
      if (!isRetryable(failure) || this.closed) throw new Error(`send ${clientId} refused: ${failure.message}`);
      this.attemptsFailed++;
      await pause(RETRY_DELAY_MS);
    }
  }

  private catchUpInBackground(): void {
    this.catchUp().catch((err: Error) => this.errors.push(err));
  }

  /** Fetches everything after the last contiguous seq, page by page; one run at a time. */
  catchUp(): Promise<void> {
    if (this.syncing) {
      this.syncAgain = true;
      return this.syncing;
    }
    this.syncing = (async () => {
      do {
        this.syncAgain = false;
        this.catchUps++;
        for (;;) {
          const afterSeq = this.log.syncedTo;
          let page: ChatMessageEvent[];
          try {
            const res = await callProcedure(this.url, 'chat.messages', { domain: this.domain, conversationId: this.conversationId, afterSeq, limit: PAGE }, { cookie: this.cookie });
            if (res.error) {
              if (!isRetryable({ httpStatus: res.status })) throw new Error(res.error.message);
              await pause(RETRY_DELAY_MS);
              continue;
            }
            page = res.data as ChatMessageEvent[];
          } catch (err) {
            if (this.closed) return;
            if ((err as Error).message && !(err instanceof TypeError)) throw err;
            await pause(RETRY_DELAY_MS);
            continue;
          }
          const { log, more } = applyCatchUp(this.log, afterSeq, page.map(normalizeMessage), PAGE);
          this.log = log;
          if (!more) break;
        }
      } while (this.syncAgain && !this.closed);
    })().finally(() => {
      this.syncing = null;
    });
    return this.syncing;
  }
}
