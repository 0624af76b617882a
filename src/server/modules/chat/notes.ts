/**
 * Notes on a conversation (anotações, /i/recent/chat/{id}/anotacoes): internal, so only company
 * members who take part in it read or write them; customers never do. Everyone may add; only the
 * author edits or deletes their own. Changes are pushed to the members in the conversation.
 */
import { TRPCError } from '@trpc/server';
import { CHAT_MESSAGES as M } from '../../../shared/schemas/chat';
import { activeMemberOf, participation, seesComments, type ChatContext } from './context';

async function memberParticipation(ctx: ChatContext, conversationId: string) {
  const p = await participation(ctx, conversationId);
  if (!seesComments(ctx)) throw new TRPCError({ code: 'FORBIDDEN', message: M.notesMembersOnly });
  return p;
}

async function tellMembers(ctx: ChatContext, conversationId: string) {
  const rows = await ctx.db.participant.findMany({
    where: { conversationId, removed: false, user: activeMemberOf(ctx.company.id) },
    select: { userId: true },
  });
  ctx.realtime.toUsers(rows.map((r) => r.userId), 'conversation:notes', { conversationId });
}

export async function listNotes(ctx: ChatContext, conversationId: string) {
  await memberParticipation(ctx, conversationId);
  const notes = await ctx.db.conversationNote.findMany({ where: { conversationId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  const authors = await ctx.db.user.findMany({
    where: { id: { in: [...new Set(notes.map((n) => n.authorId).filter((id): id is string => !!id))] } },
    select: { id: true, name: true, avatarKey: true },
  });
  const byId = new Map(authors.map((a) => [a.id, a]));
  return notes.map((n) => ({
    id: n.id,
    text: n.text,
    authorId: n.authorId,
    authorName: (n.authorId && byId.get(n.authorId)?.name) ?? null,
    authorHasAvatar: !!(n.authorId && byId.get(n.authorId)?.avatarKey),
    createdAt: n.createdAt,
    editedAt: n.editedAt,
    mine: n.authorId === ctx.userId,
  }));
}

export async function addNote(ctx: ChatContext, conversationId: string, text: string) {
  await memberParticipation(ctx, conversationId);
  const note = await ctx.db.conversationNote.create({ data: { conversationId, authorId: ctx.userId, text, createdAt: ctx.clock.now() } });
  await tellMembers(ctx, conversationId);
  return { id: note.id };
}

/** The caller's own note in this conversation, or a refusal that says which. */
async function ownNote(ctx: ChatContext, conversationId: string, noteId: string) {
  await memberParticipation(ctx, conversationId);
  const note = await ctx.db.conversationNote.findFirst({ where: { id: noteId, conversationId } });
  if (!note) throw new TRPCError({ code: 'NOT_FOUND', message: M.noteNotFound });
  if (note.authorId !== ctx.userId) throw new TRPCError({ code: 'FORBIDDEN', message: M.onlyAuthorNote });
  return note;
}

export async function editNote(ctx: ChatContext, conversationId: string, noteId: string, text: string) {
  const note = await ownNote(ctx, conversationId, noteId);
  await ctx.db.conversationNote.update({ where: { id: note.id }, data: { text, editedAt: ctx.clock.now() } });
  await tellMembers(ctx, conversationId);
  return { id: note.id };
}

export async function deleteNote(ctx: ChatContext, conversationId: string, noteId: string) {
  const note = await ownNote(ctx, conversationId, noteId);
  await ctx.db.conversationNote.delete({ where: { id: note.id } });
  await tellMembers(ctx, conversationId);
  return { deleted: true };
}
