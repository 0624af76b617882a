/**
 * Notes (/i/notes): a member's own notes in a company, private until the owner shares one with
 * colleagues (to read, or to edit too). The body is a TipTap/ProseMirror document checked by
 * shared/domain/note-doc.ts, never HTML; its plain text is kept beside it for search. The
 * conversation annotations (chat module, /anotacoes) are listed here too, read from the chat's
 * own storage.
 */
import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import type { z } from 'zod';
import type { Prisma } from '../../../generated/prisma/client';
import { FILE_LINK_SECONDS } from '../../../shared/domain/files';
import { emptyNoteDoc, parseNoteDoc, type NoteDoc } from '../../../shared/domain/note-doc';
import { NOTE_MESSAGES as M, type noteShareInput, type notesListInput } from '../../../shared/schemas/notes';
import { fail } from '../feeds/errors';
import type { FeedsContext as MemberContext } from '../feeds/service';
import { assertFitsQuota, declaredSize, storeBody } from '../../uploads/module-files';

export type NotesContext = MemberContext;

/** Note ids matching `q` in title or text, accents and case ignored (unaccent, like contact search). */
async function matchingIds(ctx: NotesContext, q: string): Promise<string[]> {
  const pattern = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rows = await ctx.db.$queryRaw<{ id: string }[]>`
    SELECT id FROM "Note" WHERE "companyId" = ${ctx.company.id}::uuid
      AND unaccent(title || ' ' || text) ILIKE unaccent(${pattern})`;
  return rows.map((r) => r.id);
}

/** Mine, shared with me, or both; in this company. */
function reachable(ctx: NotesContext, scope: 'all' | 'mine' | 'shared'): Prisma.NoteWhereInput {
  const mine = { ownerId: ctx.user.id };
  const shared = { shares: { some: { userId: ctx.user.id } } };
  return { companyId: ctx.company.id, ...(scope === 'mine' ? mine : scope === 'shared' ? shared : { OR: [mine, shared] }) };
}

async function names(ctx: NotesContext, ids: string[]) {
  const rows = ids.length ? await ctx.db.user.findMany({ where: { id: { in: [...new Set(ids)] } }, select: { id: true, name: true } }) : [];
  return new Map(rows.map((u) => [u.id, u.name]));
}

export async function listNotes(ctx: NotesContext, input: z.output<typeof notesListInput>) {
  const ids = input.q ? await matchingIds(ctx, input.q) : null;
  const rows = await ctx.db.note.findMany({
    where: { ...reachable(ctx, input.scope), ...(ids && { id: { in: ids } }) },
    orderBy: [{ updatedAt: 'desc' }, { id: 'desc' }],
    take: 200,
    include: { shares: { select: { userId: true, canEdit: true } }, _count: { select: { attachments: true } } },
  });
  const owners = await names(ctx, rows.map((r) => r.ownerId));
  return rows.map((n) => ({
    id: n.id,
    title: n.title,
    excerpt: n.text.slice(0, 200),
    mine: n.ownerId === ctx.user.id,
    ownerName: owners.get(n.ownerId) ?? null,
    sharedWith: n.ownerId === ctx.user.id ? n.shares.length : 0,
    attachments: n._count.attachments,
    updatedAt: n.updatedAt,
  }));
}

/** The note and what this member may do with it, or NOT_FOUND (a private note of someone else does not exist for them). */
async function access(ctx: NotesContext, noteId: string) {
  const note = await ctx.db.note.findFirst({ where: { id: noteId, ...reachable(ctx, 'all') }, include: { shares: true } });
  if (!note) throw fail('NOT_FOUND', M.notFound);
  const owner = note.ownerId === ctx.user.id;
  const canEdit = owner || note.shares.some((s) => s.userId === ctx.user.id && s.canEdit);
  return { note, owner, canEdit };
}

function tell(ctx: NotesContext, note: { id: string; ownerId: string }, userIds: string[], change: 'updated' | 'removed' | 'shared') {
  ctx.realtime.toUsers(new Set([note.ownerId, ...userIds]), 'note:changed', { noteId: note.id, change });
}

export async function getNote(ctx: NotesContext, noteId: string) {
  const { note, owner, canEdit } = await access(ctx, noteId);
  const attachments = await ctx.db.noteAttachment.findMany({ where: { noteId }, orderBy: { createdAt: 'asc' } });
  const people = await names(ctx, [note.ownerId, ...note.shares.map((s) => s.userId)]);
  return {
    id: note.id,
    title: note.title,
    doc: note.doc as unknown as NoteDoc,
    mine: owner,
    canEdit,
    ownerName: people.get(note.ownerId) ?? null,
    // Who else reads it: the owner's business, and the colleagues', so they know who sees their edits.
    shares: note.shares.map((s) => ({ userId: s.userId, name: people.get(s.userId) ?? null, canEdit: s.canEdit })),
    attachments: await Promise.all(
      attachments.map(async (a) => ({
        id: a.id,
        name: a.name,
        size: Number(a.size),
        mime: a.mime,
        isImage: a.isImage,
        url: await ctx.storage.presignGet(a.key, FILE_LINK_SECONDS, a.isImage ? undefined : { downloadName: a.name }),
      })),
    ),
    createdAt: note.createdAt,
    updatedAt: note.updatedAt,
  };
}

export async function createNote(ctx: NotesContext, input: { title: string; doc?: NoteDoc }) {
  const parsed = parseNoteDoc(input.doc ?? emptyNoteDoc());
  if (!parsed.ok) throw fail('BAD_REQUEST', parsed.error);
  const now = ctx.clock.now();
  const note = await ctx.db.note.create({
    data: { companyId: ctx.company.id, ownerId: ctx.user.id, title: input.title, doc: parsed.doc as unknown as Prisma.InputJsonValue, text: parsed.text, createdAt: now, updatedAt: now },
  });
  return { id: note.id };
}

/** Saves title and body (the owner, or a colleague it was shared with to edit). Last save wins. */
export async function updateNote(ctx: NotesContext, input: { noteId: string; title: string; doc: NoteDoc }) {
  const { note, canEdit } = await access(ctx, input.noteId);
  if (!canEdit) throw fail('FORBIDDEN', M.readOnly);
  const parsed = parseNoteDoc(input.doc);
  if (!parsed.ok) throw fail('BAD_REQUEST', parsed.error);
  const updatedAt = ctx.clock.now();
  await ctx.db.note.update({ where: { id: note.id }, data: { title: input.title, doc: parsed.doc as unknown as Prisma.InputJsonValue, text: parsed.text, updatedAt } });
  tell(ctx, note, note.shares.map((s) => s.userId), 'updated');
  return { id: note.id, updatedAt };
}

export async function removeNote(ctx: NotesContext, noteId: string) {
  const { note, owner } = await access(ctx, noteId);
  if (!owner) throw fail('FORBIDDEN', M.onlyOwner);
  const files = await ctx.db.noteAttachment.findMany({ where: { noteId }, select: { key: true } });
  await ctx.db.note.delete({ where: { id: note.id } });
  await Promise.all(files.map((f) => ctx.storage.delete(f.key).catch(() => undefined)));
  tell(ctx, note, note.shares.map((s) => s.userId), 'removed');
  return { removed: true };
}

/** Replaces who the note is shared with: active colleagues of this company only; empty = private. */
export async function shareNote(ctx: NotesContext, input: z.output<typeof noteShareInput>) {
  const { note, owner } = await access(ctx, input.noteId);
  if (!owner) throw fail('FORBIDDEN', M.onlyOwner);
  const wanted = new Map(input.shares.filter((s) => s.userId !== ctx.user.id).map((s) => [s.userId, s.canEdit]));
  const colleagues = await ctx.db.member.findMany({ where: { userId: { in: [...wanted.keys()] }, companyId: ctx.company.id, inviteAccepted: true, blocked: false, removed: false }, select: { userId: true } });
  if (colleagues.length !== wanted.size) throw fail('BAD_REQUEST', M.notColleague);
  const before = note.shares.map((s) => s.userId);
  await ctx.db.$transaction([
    ctx.db.noteShare.deleteMany({ where: { noteId: note.id } }),
    ctx.db.noteShare.createMany({ data: [...wanted].map(([userId, canEdit]) => ({ noteId: note.id, userId, canEdit, createdAt: ctx.clock.now() })) }),
  ]);
  tell(ctx, note, [...before, ...wanted.keys()], 'shared');
  return { sharedWith: wanted.size };
}

export async function removeAttachment(ctx: NotesContext, noteId: string, attachmentId: string) {
  const { note, canEdit } = await access(ctx, noteId);
  if (!canEdit) throw fail('FORBIDDEN', M.readOnly);
  const file = await ctx.db.noteAttachment.findFirst({ where: { id: attachmentId, noteId } });
  if (!file) throw fail('NOT_FOUND', M.attachmentNotFound);
  await ctx.db.noteAttachment.delete({ where: { id: file.id } });
  await ctx.storage.delete(file.key).catch(() => undefined);
  tell(ctx, note, note.shares.map((s) => s.userId), 'updated');
  return { removed: true };
}

/** PUT /uploads/note/:domain/:noteId?name= — a file kept with a note (who may edit it). */
export async function uploadNoteFile(ctx: NotesContext, req: Request, noteId: string, rawName: string) {
  const { note, canEdit } = await access(ctx, noteId);
  if (!canEdit) throw fail('FORBIDDEN', M.readOnly);
  const size = declaredSize(req, ctx.config.maxUploadBytes);
  await assertFitsQuota(ctx.db, ctx.company.id, size);
  const id = randomUUID();
  const stored = await storeBody(ctx, req, size, rawName, (name) => `${ctx.company.domain}/notes/${note.id}/${id}/${name}`);
  try {
    await ctx.db.$transaction(async (tx) => {
      await assertFitsQuota(tx, ctx.company.id, size, true);
      await tx.noteAttachment.create({
        data: { id, noteId: note.id, companyId: ctx.company.id, uploaderId: ctx.user.id, key: stored.key, name: stored.name, size: stored.size, mime: stored.mime, isImage: stored.isImage, createdAt: ctx.clock.now() },
      });
    });
  } catch (err) {
    await ctx.storage.delete(stored.key).catch(() => undefined);
    throw err;
  }
  tell(ctx, note, note.shares.map((s) => s.userId), 'updated');
  return { id, name: stored.name, size: stored.size, mime: stored.mime, isImage: stored.isImage };
}

/**
 * The conversation annotations (anotações) of this company's conversations the member takes part
 * in, newest first, to open them where they live (/i/recent/chat/{id}/anotacoes).
 */
export async function listAnnotations(ctx: NotesContext, q: string | undefined) {
  const rows = await ctx.db.conversationNote.findMany({
    where: {
      conversation: { companyId: ctx.company.id, participants: { some: { userId: ctx.user.id, removed: false } } },
      ...(q && { text: { contains: q, mode: 'insensitive' } }),
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: 100,
    include: { conversation: { select: { id: true, title: true, protocol: true } } },
  });
  const authors = await names(ctx, rows.map((r) => r.authorId).filter((id): id is string => !!id));
  return rows.map((r) => ({
    id: r.id,
    conversationId: r.conversation.id,
    conversationTitle: r.conversation.title,
    protocol: r.conversation.protocol,
    text: r.text,
    authorName: (r.authorId && authors.get(r.authorId)) || null,
    mine: r.authorId === ctx.user.id,
    createdAt: r.createdAt,
  }));
}
