/**
 * Files, images and voice messages: the rules of an upload (who, how big, which quota, what kind),
 * download links, the company's storage use, and which stored objects may be deleted (forwards
 * share the original's object, so an object goes only when no other message shows it).
 */
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { z } from 'zod';
import type { Prisma } from '../../../generated/prisma/client';
import { cleanMime, detectAudioType, detectChatImage, FILE_LINK_SECONDS, fileKey, fileTooLargeText, sanitizeFileName, thumbKey } from '../../../shared/domain/files';
import { CHAT_MESSAGES as M, type fileLinksInput, type uploadQuery } from '../../../shared/schemas/chat';
import type { Db } from '../../db/client';
import { ObjectSizeMismatchError } from '../../storage';
import { assertMayWork, MESSAGE_INCLUDE, WRITE_TX, participation, seesComments, toMessage, visibleMessages, type ChatContext } from './context';
import { checkReply } from './messages';
import { appendMessage, emitMessage, type ChatMessage } from './service';

/** Why an upload was refused: an HTTP status, a text for people, a code for programs. */
export class UploadRefused extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const UPLOAD_MESSAGES = {
  noLength: 'The upload needs a Content-Length',
  empty: 'The file is empty',
  quota: 'The company has no storage space left for this file. Remove files or ask an administrator to increase the plan.',
  badThumb: 'The thumbnail must be a small image',
  notAudio: 'A voice message must be audio',
  cutShort: 'The upload was interrupted; send the file again',
} as const;

/** What the browser checks before sending a file (the same limit checkUpload enforces). */
export function uploadLimits(ctx: ChatContext) {
  return { maxUploadBytes: ctx.config.maxUploadBytes };
}

/** What the company stores (spec: Dashboard bytesMensagens, bytesAnexos, tamanhoPlanoBytes). */
export async function companyStorageUsage(db: Db | Prisma.TransactionClient, companyId: string) {
  const [[sums], company] = await Promise.all([
    db.$queryRaw<{ messages: bigint | null; attachments: bigint | null }[]>`
      SELECT sum("bytesMessages")::bigint AS "messages", sum("bytesAttachments")::bigint AS "attachments"
      FROM "Conversation" WHERE "companyId" = ${companyId}::uuid`,
    db.company.findUniqueOrThrow({ where: { id: companyId }, select: { storageBytes: true } }),
  ]);
  const bytesMessages = Number(sums?.messages ?? 0);
  const bytesAttachments = Number(sums?.attachments ?? 0);
  const limitBytes = Number(company.storageBytes);
  const totalBytes = bytesMessages + bytesAttachments;
  return { bytesMessages, bytesAttachments, totalBytes, limitBytes, freeBytes: Math.max(0, limitBytes - totalBytes) };
}

/**
 * Takes a transaction-scoped lock per stored object key, in key order (no deadlocks between two
 * lockers). Removal and forwarding of messages that share an object take it, so a forward can never
 * point at an object a concurrent removal is deleting.
 */
export async function lockFileKeys(tx: Prisma.TransactionClient, keys: string[]) {
  if (keys.length === 0) return;
  await tx.$queryRaw`
    SELECT count(pg_advisory_xact_lock(hashtextextended(k, 0)))::int AS n
    FROM (SELECT DISTINCT k FROM unnest(${keys}::text[]) AS k ORDER BY k) AS sorted`;
}

/**
 * Uploads of one company take turns from here to their commit, so the quota check and the usage
 * update that follows (appendMessage adds the file to the conversation's bytes) are one step: two
 * uploads that only fit one at a time cannot both pass. Only uploads wait on it.
 */
async function lockCompanyQuota(tx: Prisma.TransactionClient, companyId: string) {
  await tx.$queryRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`storage-quota:${companyId}`}, 0))::text AS locked`;
}

/** Refuses a file that does not fit what the company has left. */
async function assertFitsQuota(db: Db | Prisma.TransactionClient, companyId: string, size: number) {
  const usage = await companyStorageUsage(db, companyId);
  if (usage.totalBytes + size > usage.limitBytes) throw new UploadRefused(507, UPLOAD_MESSAGES.quota, 'quotaExceeded', { freeBytes: usage.freeBytes });
}

/**
 * Files another module keeps for a conversation (a filled form's attachments) follow the chat's
 * rules: `checkConversationFile` is the first look before a byte is stored (size limit, quota);
 * `chargeConversationFile`, inside the transaction that records the file, checks the quota again
 * under the company's quota lock and counts the bytes in the conversation's attachments (what
 * storage use adds up); `refundConversationFile` gives them back when the file is deleted.
 */
export async function checkConversationFile(deps: { db: Db; config: Pick<ChatContext['config'], 'maxUploadBytes'> }, companyId: string, size: number) {
  if (size <= 0) throw new UploadRefused(400, UPLOAD_MESSAGES.empty, 'empty');
  const max = deps.config.maxUploadBytes;
  if (size > max) throw new UploadRefused(413, fileTooLargeText(max), 'fileTooLarge', { maxBytes: max });
  await assertFitsQuota(deps.db, companyId, size);
}

export async function chargeConversationFile(tx: Prisma.TransactionClient, companyId: string, conversationId: string, size: number) {
  await lockCompanyQuota(tx, companyId);
  await assertFitsQuota(tx, companyId, size);
  await tx.$executeRaw`UPDATE "Conversation" SET "bytesAttachments" = "bytesAttachments" + ${size}::bigint WHERE "id" = ${conversationId}::uuid`;
}

export async function refundConversationFile(tx: Prisma.TransactionClient, conversationId: string, size: number) {
  await tx.$executeRaw`
    UPDATE "Conversation" SET "bytesAttachments" = GREATEST(0, "bytesAttachments" - ${size}::bigint) WHERE "id" = ${conversationId}::uuid`;
}

/** Of `keys`, those no other message uses: outside a conversation, or other than one message. */
export async function unsharedFileKeys(
  tx: Prisma.TransactionClient,
  keys: string[],
  scope: { notInConversation: string } | { exceptMessage: string },
): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows =
    'notInConversation' in scope
      ? await tx.$queryRaw<{ k: string }[]>`
          SELECT k FROM unnest(${keys}::text[]) AS k
          WHERE NOT EXISTS (SELECT 1 FROM "Message" m WHERE m."fileKey" = k AND m."conversationId" <> ${scope.notInConversation}::uuid)`
      : await tx.$queryRaw<{ k: string }[]>`
          SELECT k FROM unnest(${keys}::text[]) AS k
          WHERE NOT EXISTS (SELECT 1 FROM "Message" m WHERE m."fileKey" = k AND m."id" <> ${scope.exceptMessage}::uuid)`;
  return new Set(rows.map((r) => r.k));
}

/**
 * Set by the telemedicine module: a consultation's files and recordings are health data, so a read is
 * written to its access log before any link is made, and the link lasts a minute. Answers the
 * link's lifetime in seconds, or null for a conversation that is not a consultation.
 */
export const healthDataHooks: {
  fileRead?: (db: Db, read: { conversationId: string; userId: string; what: 'file' | 'recording'; at: Date }) => Promise<number | null>;
} = {};

/** The lifetime of the links about to be handed out for this conversation (logging a health-data read). */
export async function fileLinkSeconds(db: Db, read: { conversationId: string; userId: string; what: 'file' | 'recording'; at: Date }): Promise<number> {
  return (await healthDataHooks.fileRead?.(db, read)) ?? FILE_LINK_SECONDS;
}

type FileRow = { id: string; fileKey: string | null; thumbKey: string | null; fileName: string | null; isRecording: boolean };

/** Signed links to message files, for both sides of a conversation (members and customers). */
export async function signFileLinks(
  deps: { db: Db; storage: ChatContext['storage']; clock: ChatContext['clock'] },
  userId: string,
  conversationId: string,
  rows: FileRow[],
  input: { variant: 'file' | 'thumb'; download: boolean },
) {
  const now = deps.clock.now();
  const withKey = rows.filter((row) => (input.variant === 'thumb' ? row.thumbKey : row.fileKey));
  const seconds = withKey.length
    ? await fileLinkSeconds(deps.db, { conversationId, userId, what: withKey.some((r) => r.isRecording) ? 'recording' : 'file', at: now })
    : FILE_LINK_SECONDS;
  const links = [];
  for (const row of withKey) {
    const key = (input.variant === 'thumb' ? row.thumbKey : row.fileKey)!;
    const url = await deps.storage.presignGet(key, seconds, input.download && row.fileName ? { downloadName: row.fileName } : undefined);
    links.push({ messageId: row.id, url });
  }
  return { links, expiresAt: new Date(now.getTime() + seconds * 1000) };
}

/** Short-lived links to files of messages the caller can see (participants only). */
export async function fileLinks(ctx: ChatContext, input: z.output<typeof fileLinksInput>) {
  await participation(ctx, input.conversationId);
  const rows = await ctx.db.message.findMany({
    where: { id: { in: input.messageIds }, conversationId: input.conversationId, removed: false, fileKey: { not: null }, ...visibleMessages(ctx) },
    select: FILE_ROW,
  });
  return signFileLinks(ctx, ctx.userId, input.conversationId, rows, input);
}

export const FILE_ROW = { id: true, fileKey: true, thumbKey: true, fileName: true, isRecording: true } as const;

export type UploadParams = z.output<typeof uploadQuery> & { conversationId: string; size: number; declaredType: string | undefined };

/**
 * The checks made before a byte is stored: may work, takes part, the file fits the size limit and
 * the company's quota, the reply is valid. A retried upload (same clientId) answers its message.
 */
export async function checkUpload(ctx: ChatContext, p: UploadParams): Promise<{ existing: ChatMessage } | { replyIsComment: boolean }> {
  assertMayWork(ctx);
  await participation(ctx, p.conversationId);
  if (p.isComment === '1' && !seesComments(ctx)) throw new UploadRefused(403, M.commentsMembersOnly, 'commentsMembersOnly');
  const earlier = await ctx.db.message.findUnique({
    where: { conversationId_authorId_clientId: { conversationId: p.conversationId, authorId: ctx.userId, clientId: p.clientId } },
    include: MESSAGE_INCLUDE,
  });
  if (earlier) return { existing: toMessage(earlier) };
  if (p.size <= 0) throw new UploadRefused(400, UPLOAD_MESSAGES.empty, 'empty');
  const max = ctx.config.maxUploadBytes;
  if (p.size > max) throw new UploadRefused(413, fileTooLargeText(max), 'fileTooLarge', { maxBytes: max });
  // A first look, so a file that cannot fit is refused before a byte is sent; the binding check
  // is made again, under the company's quota lock, when the message is written.
  await assertFitsQuota(ctx.db, ctx.company.id, p.size);
  const reply = p.replyToId ? await checkReply(ctx, p.conversationId, p.replyToId) : null;
  return { replyIsComment: !!reply?.isComment };
}

/**
 * Stores the file (and its thumbnail) under {domain}/{conversationId}/{messageId}/{filename},
 * then writes the message. The kind comes from the bytes: an image becomes an 'imagem' message
 * (a thumbnail is kept only for images), a voice message must be audio. Nothing is left behind
 * when anything fails.
 */
export async function storeFileMessage(
  ctx: ChatContext,
  p: UploadParams & { replyIsComment: boolean },
  body: { head: Buffer; stream: Readable; thumb: Buffer | null },
): Promise<ChatMessage> {
  const thumbType = body.thumb ? detectChatImage(body.thumb) : null;
  if (body.thumb && !thumbType) throw new UploadRefused(415, UPLOAD_MESSAGES.badThumb, 'badThumb');
  const image = detectChatImage(body.head);
  const recording = p.recording === '1';
  const audio = recording ? detectAudioType(body.head) : null;
  if (recording && !audio) throw new UploadRefused(415, UPLOAD_MESSAGES.notAudio, 'notAudio');
  const mime = image ?? audio ?? cleanMime(p.declaredType);
  const messageId = randomUUID();
  const name = sanitizeFileName(p.name);
  const key = fileKey(ctx.company.domain, p.conversationId, messageId, name);
  const thumb = image && body.thumb ? thumbKey(ctx.company.domain, p.conversationId, messageId) : undefined;
  const stored: string[] = [];
  const cleanUp = () => Promise.all(stored.map((k) => ctx.storage.delete(k).catch(() => undefined)));
  try {
    if (thumb) {
      await ctx.storage.put(thumb, body.thumb!, { size: body.thumb!.length, contentType: thumbType! });
      stored.push(thumb);
    }
    stored.push(key);
    await ctx.storage.put(key, body.stream, { size: p.size, contentType: mime });
  } catch (err) {
    await cleanUp();
    if (err instanceof ObjectSizeMismatchError) throw new UploadRefused(400, UPLOAD_MESSAGES.cutShort, 'cutShort');
    throw err;
  }
  try {
    const appended = await ctx.db.$transaction(async (tx) => {
      await lockCompanyQuota(tx, ctx.company.id);
      await assertFitsQuota(tx, ctx.company.id, p.size);
      return appendMessage(
        tx,
        ctx.company.domain,
        {
          id: messageId,
          conversationId: p.conversationId,
          authorId: ctx.userId,
          clientId: p.clientId,
          type: image ? 'imagem' : 'arquivo',
          text: p.text ?? '',
          replyToId: p.replyToId,
          isComment: p.isComment === '1' || p.replyIsComment,
          file: { key, name, size: p.size, mime, thumbKey: thumb, isRecording: recording, durationMs: recording ? p.durationMs : undefined },
        },
        ctx.clock.now(),
      );
    }, WRITE_TX);
    emitMessage(ctx.realtime, appended);
    return appended.message;
  } catch (err) {
    await cleanUp();
    // The same upload retried while this one was storing: the first message stands.
    if ((err as { code?: string }).code === 'P2002') {
      const first = await ctx.db.message.findUnique({
        where: { conversationId_authorId_clientId: { conversationId: p.conversationId, authorId: ctx.userId, clientId: p.clientId } },
        include: MESSAGE_INCLUDE,
      });
      if (first) return toMessage(first);
    }
    throw err;
  }
}

/**
 * A file a channel customer sent (WhatsApp, Telegram), already downloaded from the provider by the
 * channels module: stored and written as their message like an upload, under the same size limit
 * and company quota. Idempotent by clientId (the provider's message id).
 */
export async function storeRelayedFile(
  deps: Pick<ChatContext, 'db' | 'clock' | 'realtime' | 'storage' | 'config'>,
  company: ChatContext['company'],
  input: { conversationId: string; authorId: string; clientId: string; name: string; mime: string | null; bytes: Buffer; text?: string; isRecording?: boolean },
): Promise<ChatMessage> {
  const max = deps.config.maxUploadBytes;
  if (input.bytes.length > max) throw new UploadRefused(413, fileTooLargeText(max), 'fileTooLarge', { maxBytes: max });
  await assertFitsQuota(deps.db, company.id, input.bytes.length);
  const image = detectChatImage(input.bytes);
  const mime = image ?? cleanMime(input.mime ?? undefined);
  const messageId = randomUUID();
  const name = sanitizeFileName(input.name);
  const key = fileKey(company.domain, input.conversationId, messageId, name);
  await deps.storage.put(key, input.bytes, { size: input.bytes.length, contentType: mime });
  try {
    const appended = await deps.db.$transaction(async (tx) => {
      await lockCompanyQuota(tx, company.id);
      await assertFitsQuota(tx, company.id, input.bytes.length);
      return appendMessage(
        tx,
        company.domain,
        {
          id: messageId,
          conversationId: input.conversationId,
          authorId: input.authorId,
          clientId: input.clientId,
          type: image ? 'imagem' : 'arquivo',
          text: input.text ?? '',
          file: { key, name, size: input.bytes.length, mime, isRecording: !!input.isRecording },
        },
        deps.clock.now(),
      );
    }, WRITE_TX);
    emitMessage(deps.realtime, appended);
    return appended.message;
  } catch (err) {
    await deps.storage.delete(key).catch(() => undefined);
    throw err;
  }
}
