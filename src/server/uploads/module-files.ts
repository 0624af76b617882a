/**
 * Uploads of files that belong to a module rather than to a conversation: feed posts, notes and
 * CSV imports. The same rules as a chat upload (src/server/uploads/attachments.ts): a raw body so
 * the browser reports progress, the member's access checked like memberProcedure, the size
 * limit and the company's storage quota checked before a byte is stored, the kind of an image
 * recognised by its bytes, nothing left behind when anything fails.
 */
import { Readable } from 'node:stream';
import type { Request, Response } from 'express';
import type { Company, Member, Prisma, User } from '../../generated/prisma/client';
import { cleanMime, detectChatImage, fileTooLargeText, sanitizeFileName } from '../../shared/domain/files';
import { accessRefusal } from '../../shared/domain/membership';
import { domainSchema } from '../../shared/schemas/company';
import type { AppDeps } from '../deps';
import type { Db } from '../db/client';
import { companyStorageUsage, UPLOAD_MESSAGES, UploadRefused } from '../modules/chat/files';
import { ObjectSizeMismatchError } from '../storage';
import { requireUser } from './images';

export { UploadRefused };

export interface UploadMember {
  user: User;
  company: Company;
  member: Member;
}

/** The signed-in, active member of the company named in the path, or the refusal answered. */
export async function uploadingMember(deps: AppDeps, req: Request, res: Response): Promise<UploadMember | null> {
  const auth = await requireUser(deps, req, res);
  if (!auth) return null;
  const domain = domainSchema.safeParse(req.params.domain);
  const company = domain.success ? await deps.db.company.findUnique({ where: { domain: domain.data } }) : null;
  if (!company) return refuse(res, 404, 'Domain not found', 'domainNotFound');
  const [member, appConfig] = await Promise.all([
    deps.db.member.findUnique({ where: { companyId_userId: { companyId: company.id, userId: auth.user.id } } }),
    deps.db.appConfig.findUnique({ where: { id: 1 } }),
  ]);
  const refusal = accessRefusal(member, { mustVerifyEmail: !!appConfig?.verifyEmail && !!auth.user.email && !auth.user.emailVerifiedAt });
  if (refusal) return refuse(res, 403, refusal.message, refusal.reason);
  return { user: auth.user, company, member: member! };
}

export function refuse(res: Response, status: number, error: string, code: string, extra: Record<string, unknown> = {}): null {
  if (!res.headersSent) res.status(status).json({ error, code, ...extra });
  return null;
}

/** Answers a refusal thrown by the rules, or a 500 for anything else (logged). */
export function answerUploadError(req: Request, res: Response, err: unknown, what: string) {
  if (err instanceof UploadRefused) return void refuse(res, err.status, err.message, err.code, err.extra);
  const trpc = err as { code?: string; message?: string; name?: string };
  if (trpc?.name === 'TRPCError') {
    const status = trpc.code === 'NOT_FOUND' ? 404 : trpc.code === 'FORBIDDEN' ? 403 : trpc.code === 'BAD_REQUEST' ? 400 : 0;
    if (status) return void refuse(res, status, trpc.message ?? '', trpc.code ?? '');
  }
  req.log.error({ err }, `${what} upload failed`);
  refuse(res, 500, 'Something went wrong; try again', 'internal');
}

/** The bytes of a company's module files (feeds, notes): stored like chat files, counted on the same quota. */
async function moduleBytes(db: Db | Prisma.TransactionClient, companyId: string): Promise<number> {
  const [row] = await db.$queryRaw<{ bytes: bigint | null }[]>`
    SELECT (SELECT coalesce(sum(size), 0) FROM "FeedAttachment" WHERE "companyId" = ${companyId}::uuid)
         + (SELECT coalesce(sum(size), 0) FROM "NoteAttachment" WHERE "companyId" = ${companyId}::uuid) AS bytes`;
  return Number(row?.bytes ?? 0);
}

/**
 * Refuses a file that does not fit what the company has left. Inside a transaction it first takes
 * the company's quota lock (the key chat uploads use), so two uploads cannot both take the last space.
 */
export async function assertFitsQuota(db: Db | Prisma.TransactionClient, companyId: string, size: number, locked = false) {
  if (locked) await db.$queryRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`storage-quota:${companyId}`}, 0))::text AS locked`;
  const usage = await companyStorageUsage(db, companyId);
  const used = usage.totalBytes + (await moduleBytes(db, companyId));
  if (used + size > usage.limitBytes) throw new UploadRefused(507, UPLOAD_MESSAGES.quota, 'quotaExceeded', { freeBytes: Math.max(0, usage.limitBytes - used) });
}

/** The declared length of the body, checked against the limit (before a byte is read). */
export function declaredSize(req: Request, maxBytes: number): number {
  const length = Number(req.headers['content-length']);
  if (!Number.isSafeInteger(length) || length < 0) throw new UploadRefused(411, UPLOAD_MESSAGES.noLength, 'noLength');
  if (length === 0) throw new UploadRefused(400, UPLOAD_MESSAGES.empty, 'empty');
  if (length > maxBytes) throw new UploadRefused(413, fileTooLargeText(maxBytes), 'fileTooLarge', { maxBytes });
  return length;
}

export interface StoredFile {
  key: string;
  name: string;
  size: number;
  mime: string;
  isImage: boolean;
}

/**
 * Streams the body to storage under `keyFor(safeName)`. An image is recognised by its first bytes
 * (and stored with its real type); anything else keeps the declared type when it looks like one.
 */
export async function storeBody(deps: Pick<AppDeps, 'storage'>, req: Request, size: number, rawName: string, keyFor: (name: string) => string): Promise<StoredFile> {
  const chunks = req[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let head: Buffer = Buffer.alloc(0);
  let ended = false;
  while (head.length < Math.min(64, size) && !ended) {
    const next = await chunks.next();
    if (next.done) ended = true;
    else head = head.length ? Buffer.concat([head, next.value]) : next.value;
  }
  const image = detectChatImage(head);
  const mime = image ?? cleanMime(req.headers['content-type']);
  const name = sanitizeFileName(rawName);
  const key = keyFor(name);
  const body = Readable.from(
    (async function* () {
      if (head.length) yield head;
      if (ended) return;
      for (;;) {
        const next = await chunks.next();
        if (next.done) return;
        yield next.value;
      }
    })(),
  );
  try {
    await deps.storage.put(key, body, { size, contentType: mime });
  } catch (err) {
    await deps.storage.delete(key).catch(() => undefined);
    if (err instanceof ObjectSizeMismatchError) throw new UploadRefused(400, UPLOAD_MESSAGES.cutShort, 'cutShort');
    throw err;
  }
  return { key, name, size, mime, isImage: !!image };
}

/** Reads a small body whole (a CSV to import), refusing it past `maxBytes`. */
export async function readSmallBody(req: Request, maxBytes: number, tooLarge: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw new UploadRefused(413, tooLarge, 'fileTooLarge', { maxBytes });
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
