/**
 * The channel outbox. A message to a channel customer becomes a ChannelOutbox row in the same
 * transaction as the message (appendMessage calls enqueueRelays); a worker on every instance
 * claims due rows one at a time with FOR UPDATE SKIP LOCKED, holds the row lock while the
 * provider is called, and records the outcome before committing: a crash mid-send rolls the claim
 * back and the row is sent again by whoever claims it next. Failures are retried with exponential
 * backoff; a refusal that retrying cannot fix, or the last attempt, fails the message with the
 * provider's reason.
 */
import { Prisma, type ChannelOutbox, type Message } from '../../../generated/prisma/client';
import type { AppDeps } from '../../deps';
import { advanceWatermarkAsServer, markRelayFailedAsServer } from '../chat/service';
import { ChannelSendError, type ChannelKind, type OutboundMessage } from './channel';
import { channelFor, loadConnection } from './connections';
import { sendEmailRow } from './mailbox';
import { sendPush } from './push';

/** Message types a channel customer receives: what they would see on the public page. */
const RELAYED_TYPES = ['texto', 'arquivo', 'imagem', 'info'];
/** Links to files we hand a provider: long enough for its own retries. */
const FILE_LINK_SECONDS = 24 * 3600;

type Tx = Prisma.TransactionClient;

export const RATING_QUESTION = 'How would you rate this service? Reply with a number from 1 to 5.';

export async function enqueueRelays(
  tx: Tx,
  companyId: string,
  message: { id: string; conversationId: string; seq: number; type: string; removed: boolean },
  relayed: { userId: string; whatsapp: boolean; telegram: boolean; email?: boolean }[],
) {
  if (!RELAYED_TYPES.includes(message.type) || message.removed) return;
  for (const p of relayed) {
    const channel: ChannelKind | 'email' = p.whatsapp ? 'whatsapp' : p.telegram ? 'telegram' : 'email';
    await tx.$executeRaw`
      INSERT INTO "ChannelOutbox" ("id", "companyId", "channel", "to", "conversationId", "messageId", "seq", "userId", "createdAt", "nextAttemptAt")
      SELECT gen_random_uuid(), ${companyId}::uuid, ${channel}, c."externalId", ${message.conversationId}::uuid, ${message.id}::uuid, ${message.seq}, ${p.userId}::uuid, now(), now()
      FROM "ChannelContact" c WHERE c."companyId" = ${companyId}::uuid AND c."channel" = ${channel} AND c."userId" = ${p.userId}::uuid
      ON CONFLICT DO NOTHING`;
  }
}

/** A notification for an attendant who linked their Telegram (no receipts, no message). */
export async function enqueueTelegramNotification(tx: Tx, companyId: string, chatId: string, body: string) {
  await tx.channelOutbox.create({ data: { companyId, channel: 'telegram', to: chatId, body } });
}

type WorkerDeps = Pick<AppDeps, 'db' | 'clock' | 'realtime' | 'storage' | 'config' | 'logger'>;

function fileKind(m: { fileMime: string | null; isRecording: boolean; type: string }): 'image' | 'audio' | 'document' {
  if (m.isRecording || m.fileMime?.startsWith('audio/')) return 'audio';
  if (m.type === 'imagem' || m.fileMime?.startsWith('image/')) return 'image';
  return 'document';
}

async function sendEmail(deps: WorkerDeps, tx: Tx, row: ChannelOutbox, m: Message | null, text: string) {
  const sent = await sendEmailRow(deps, tx, row, m, text);
  if (!sent) throw new ChannelSendError('The e-mail integration is not set up', false);
  return sent;
}

async function sendThroughChannel(deps: WorkerDeps, tx: Tx, row: ChannelOutbox, outbound: OutboundMessage) {
  const conn = await loadConnection(deps, tx, row.companyId, row.channel as ChannelKind);
  if (!conn) throw new ChannelSendError(`The ${row.channel === 'whatsapp' ? 'WhatsApp' : 'Telegram'} connection is not set up`, false);
  return channelFor(deps.config, row.channel as ChannelKind).send(conn, outbound);
}

type Outcome =
  | { kind: 'sent'; row: ChannelOutbox; delivered: boolean }
  | { kind: 'failed'; row: ChannelOutbox; reason: string }
  | { kind: 'retry' | 'skipped'; row: ChannelOutbox };

async function deliverOne(deps: WorkerDeps): Promise<Outcome | null> {
  return deps.db.$transaction(
    async (tx) => {
      const now = deps.clock.now();
      // Per recipient in order: a row waits while an earlier one to the same address is pending
      // (in backoff, or being sent by another instance: still 'pending' until that commits).
      const [row] = await tx.$queryRaw<ChannelOutbox[]>`
        SELECT * FROM "ChannelOutbox" o WHERE o."status" = 'pending' AND o."nextAttemptAt" <= ${now}
          AND NOT EXISTS (
            SELECT 1 FROM "ChannelOutbox" e
            WHERE e."companyId" = o."companyId" AND e."channel" = o."channel" AND e."to" = o."to" AND e."status" = 'pending'
              AND (e."createdAt", COALESCE(e."seq", 0), e."id") < (o."createdAt", COALESCE(o."seq", 0), o."id"))
        ORDER BY o."createdAt", o."seq" NULLS FIRST LIMIT 1 FOR UPDATE OF o SKIP LOCKED`;
      if (!row) return null;
      const attempts = row.attempts + 1;
      let outbound: OutboundMessage = { to: row.to, text: row.body ?? '' };
      let m: Message | null = null;
      if (row.messageId) {
        m = await tx.message.findUnique({ where: { id: row.messageId } });
        if (!m || m.removed) {
          await tx.channelOutbox.update({ where: { id: row.id }, data: { status: 'skipped', attempts } });
          return { kind: 'skipped', row } as const;
        }
        outbound = { to: row.to, text: m.text };
        // The public page shows stars after the conclusion; on a channel the question is asked.
        if (m.type === 'info' && (m.data as { info?: string } | null)?.info === 'concluded') outbound.text += `\n${RATING_QUESTION}`;
        if (m.fileKey) {
          const url = await deps.storage.presignGet(m.fileKey, FILE_LINK_SECONDS);
          outbound.file = { url, name: m.fileName ?? 'file', mime: m.fileMime, kind: fileKind(m) };
        }
      }
      try {
        const sent =
          row.channel === 'push'
            ? await sendPush(deps, row.to, outbound.text)
            : row.channel === 'email'
              ? await sendEmail(deps, tx, row, m, outbound.text)
              : await sendThroughChannel(deps, tx, row, outbound);
        const status = sent.delivered ? 'delivered' : 'sent';
        const updated = await tx.channelOutbox.update({
          where: { id: row.id },
          data: { status, attempts, externalId: sent.externalId, sentAt: now, lastError: null },
        });
        return { kind: 'sent', row: updated, delivered: !!sent.delivered } as const;
      } catch (err) {
        const reason = err instanceof Error ? err.message : String(err);
        const retry = !(err instanceof ChannelSendError) || err.retry;
        if (retry && attempts < deps.config.channels.maxAttempts) {
          const wait = Math.min(3_600_000, deps.config.channels.retryBaseMs * 2 ** (attempts - 1));
          const updated = await tx.channelOutbox.update({
            where: { id: row.id },
            data: { attempts, lastError: reason, nextAttemptAt: new Date(now.getTime() + wait) },
          });
          deps.logger.warn({ outbox: row.id, channel: row.channel, attempts, reason }, 'channel send failed; will retry');
          return { kind: 'retry', row: updated } as const;
        }
        const updated = await tx.channelOutbox.update({ where: { id: row.id }, data: { status: 'failed', attempts, lastError: reason } });
        deps.logger.warn({ outbox: row.id, channel: row.channel, attempts, reason }, 'channel send failed for good');
        return { kind: 'failed', row: updated, reason } as const;
      }
    },
    { maxWait: 10_000, timeout: 60_000 },
  );
}

/** What the conversation learns after the outcome is committed. */
async function afterOutcome(deps: WorkerDeps, o: Outcome) {
  const { row } = o;
  if (!row.messageId || !row.conversationId || !row.userId || row.seq === null) return;
  if (o.kind === 'sent' && o.delivered) {
    await advanceWatermarkAsServer(deps, { conversationId: row.conversationId, userId: row.userId, kind: 'delivered', uptoSeq: row.seq });
  }
  if (o.kind === 'failed') await failMessage(deps, row, o.reason);
}

export async function failMessage(deps: WorkerDeps, row: ChannelOutbox, reason: string) {
  if (!row.messageId || !row.conversationId) return;
  const company = await deps.db.company.findUnique({ where: { id: row.companyId } });
  if (!company) return;
  await markRelayFailedAsServer(deps, company, { conversationId: row.conversationId, messageId: row.messageId, channel: row.channel, reason });
}

/** Sends every due row; returns how many were handled. */
export async function deliverDue(deps: WorkerDeps): Promise<number> {
  let handled = 0;
  for (;;) {
    const outcome = await deliverOne(deps);
    if (!outcome) return handled;
    handled++;
    try {
      await afterOutcome(deps, outcome);
    } catch (err) {
      deps.logger.error({ err, outbox: outcome.row.id }, 'channel outbox: updating the conversation failed');
    }
  }
}

/** The worker: polls for due rows on every instance; safe because each row is claimed by one. */
export function startChannelWorker(deps: WorkerDeps): { stop(): Promise<void>; nudge(): void } {
  let stopped = false;
  let running: Promise<void> | null = null;
  let timer: NodeJS.Timeout | undefined;
  const run = () => {
    if (stopped || running) return;
    running = deliverDue(deps)
      .catch((err) => deps.logger.error({ err }, 'channel outbox worker failed'))
      .then(() => {
        running = null;
        if (!stopped) timer = setTimeout(run, deps.config.channels.pollMs);
      });
  };
  timer = setTimeout(run, 0);
  return {
    nudge: () => {
      if (!running) {
        clearTimeout(timer);
        run();
      }
    },
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
