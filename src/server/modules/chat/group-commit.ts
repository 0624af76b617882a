/**
 * Group commit of plain text sends and the server's info lines (issue 22): the messages that arrive
 * while the previous batch is being written (or in the same event-loop turn when none is) are
 * written together by ONE statement, `chat_append_messages` (migrations 20261129100000 and
 * 20261130100000), across conversations: one round trip, one transaction and one commit (one WAL
 * flush) for the batch instead of one per message.
 *
 * Each send still gets exactly what `appendOnItsOwn` would give it, and only after the batch
 * committed (the statement is its own transaction: pg answers after COMMIT). The function answers
 * per item instead of raising, so one send refused never fails the others; what it does not do
 * itself goes the usual way, per send:
 * - `relays` (channel customers to queue in the same transaction): a transaction of its own;
 * - `busy` (another transaction holds the conversation's row lock: the batch skips it rather than
 *   hold every other send behind it): `appendOnItsOwn`, which waits its turn;
 * - the statement failing as a whole (a deadlock with another transaction, the database gone):
 *   it wrote nothing, so every send of the batch is appended on its own, where an error is only
 *   its own.
 * Sends of one conversation keep their arrival order: in the batch (ordered by conversation, then
 * arrival) and in the fallbacks (chained per conversation).
 */
import { randomUUID } from 'node:crypto';
import { TRPCError } from '@trpc/server';
import { estimateMessageBytes } from '../../../shared/domain/messages';
import { CHAT_MESSAGES as M } from '../../../shared/schemas/chat';
import { hotQuery, Prisma, type Db } from '../../db/client';
import { toMessage } from './context';
import { appendedRow, appendInTransaction, appendOnItsOwn, APPENDED_JOIN, APPENDED_JOINS, type Appended, type NewMessage } from './service';

/** Most sends one statement carries (the jsonb stays small; a longer queue goes in the next one). */
const MAX_BATCH = 200;
/**
 * Batches written at once per database client. One is classic group commit: while it is written
 * the next one fills, so its size follows the rate; but a send arriving just after a batch left
 * then waits for two commits, which under load (slow flushes) cost more latency than the batching
 * saved. Measured on the shared machine (docs/performance.md section 11): 4 kept p50 at 24 ms at
 * 250 msg/s where 2 gave 195 ms; at high rates the batches still grow (5-22 sends each).
 */
export const MAX_IN_FLIGHT = 4;

interface Pending {
  domain: string;
  input: NewMessage;
  now: Date;
  resolve: (a: Appended) => void;
  reject: (err: unknown) => void;
}

/** What the batches did so far (tests and the benchmark read it). */
export interface GroupCommitStats {
  batches: number;
  items: number;
  largest: number;
  /** Sends waiting for a batch right now. */
  queued: number;
}

/**
 * Grouped: plain text messages by a person, and the server's info lines (a take's "taken" line,
 * migration 20261130100000). The rest (files, forwards, comments, other kinds) keeps its own path.
 */
const groupable = (m: NewMessage) => {
  const type = m.type ?? 'texto';
  const kind = type === 'texto' ? !!m.authorId && m.data === undefined : type === 'info';
  return kind && !m.file && !m.forwarded && !m.isComment;
};

class GroupCommit {
  private queue: Pending[] = [];
  private inFlight = 0;
  private scheduled = false;
  readonly stats = { batches: 0, items: 0, largest: 0 };

  constructor(private db: Db) {}

  get queued() {
    return this.queue.length;
  }

  add(p: Pending) {
    this.queue.push(p);
    this.kick();
  }

  /** Writes what is queued once the event loop turns (the sends of this turn go together). */
  private kick() {
    if (this.scheduled || this.inFlight >= MAX_IN_FLIGHT || this.queue.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      while (this.inFlight < MAX_IN_FLIGHT && this.queue.length) {
        const batch = this.queue.splice(0, MAX_BATCH);
        this.inFlight++;
        void this.write(batch).finally(() => {
          this.inFlight--;
          this.kick();
        });
      }
    });
  }

  private async write(batch: Pending[]) {
    this.stats.batches++;
    this.stats.items += batch.length;
    this.stats.largest = Math.max(this.stats.largest, batch.length);
    const items = batch.map((p, i) => ({
      i,
      c: p.input.conversationId,
      id: p.input.id ?? randomUUID(),
      a: p.input.authorId,
      k: p.input.clientId ?? null,
      t: p.input.text,
      r: p.input.replyToId ?? null,
      m: p.input.mentions ?? [],
      b: estimateMessageBytes({ text: p.input.text, path: `${p.domain}/${p.input.conversationId}`, participants: 0 }),
      n: p.now.toISOString(),
      ...(p.input.type && p.input.type !== 'texto' && { y: p.input.type }),
      ...(p.input.data !== undefined && { d: p.input.data }),
    }));
    let rows: Record<string, unknown>[];
    // Prepared, as the send's read is: the same text for every batch (one jsonb parameter).
    try {
      rows = await hotQuery(this.db, Prisma.sql`
        SELECT f.out_idx AS "f_idx", f.out_code AS "f_code", (f.out_message).*, f.out_company AS "f_companyId", f.out_participants AS "f_participants", ${APPENDED_JOIN}
        FROM chat_append_messages(${JSON.stringify(items)}::jsonb) f
        ${APPENDED_JOINS}`, { prepared: true });
    } catch {
      // The statement wrote nothing: each send on its own, where an error is only its own.
      this.onTheirOwn(batch, appendOnItsOwn);
      return;
    }
    const byIdx = new Map(rows.map((r) => [r.f_idx as number, r]));
    const busy: Pending[] = [];
    const relays: Pending[] = [];
    batch.forEach((p, i) => {
      const row = byIdx.get(i);
      switch (row?.f_code) {
        case 'ok': {
          const { participants, created } = appendedRow(row);
          p.resolve({ message: toMessage(created), recipients: participants.filter((x) => !x.refused).map((x) => x.userId) });
          break;
        }
        case 'earlier':
          // Landed already (a resend, or the same clientId earlier in this batch): the first
          // message, pushed when it landed, not again.
          p.resolve({ message: toMessage(appendedRow(row).created), recipients: [] });
          break;
        case 'notFound':
          p.reject(new TRPCError({ code: 'NOT_FOUND', message: M.notFound }));
          break;
        case 'busy':
          busy.push(p);
          break;
        case 'relays':
          relays.push(p);
          break;
        default:
          p.reject(new TRPCError({ code: 'INTERNAL_SERVER_ERROR', message: `chat_append_messages: no answer for item ${i}` }));
      }
    });
    this.onTheirOwn(busy, appendOnItsOwn);
    this.onTheirOwn(relays, appendInTransaction);
  }

  /** Appends each send on its own path, one after the other within a conversation (their order). */
  private onTheirOwn(sends: Pending[], append: (db: Db, domain: string, input: NewMessage, now: Date) => Promise<Appended>) {
    const chains = new Map<string, Promise<unknown>>();
    for (const p of sends) {
      const key = p.input.conversationId;
      const next = (chains.get(key) ?? Promise.resolve()).then(() => append(this.db, p.domain, p.input, p.now).then(p.resolve, p.reject));
      chains.set(key, next);
    }
  }
}

const committers = new WeakMap<Db, GroupCommit>();
const committerOf = (db: Db) => {
  let c = committers.get(db);
  if (!c) committers.set(db, (c = new GroupCommit(db)));
  return c;
};

/**
 * `appendOnItsOwn`, group-committed: same result, same errors (a clientId already used answers
 * with its first message, pushed to nobody again). Messages that are neither plain text by a person
 * nor info lines (files, forwards, comments) take `appendOnItsOwn` directly. Only for a client made by
 * createDb (a transaction client has its own transaction to write in).
 */
export function appendGrouped(db: Db, domain: string, input: NewMessage, now: Date): Promise<Appended> {
  if (!groupable(input)) return appendOnItsOwn(db, domain, input, now);
  return new Promise((resolve, reject) => committerOf(db).add({ domain, input, now, resolve, reject }));
}

export function groupCommitStats(db: Db): GroupCommitStats {
  const c = committers.get(db);
  return c ? { ...c.stats, queued: c.queued } : { batches: 0, items: 0, largest: 0, queued: 0 };
}
