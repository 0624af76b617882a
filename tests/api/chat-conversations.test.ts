import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offsetClock } from '../../src/server/clock';
import { mergeAnonymousUser } from '../../src/server/modules/identity/service';
import { CONVERSATION_TYPE } from '../../src/shared/constants';
import type { ChatMessageEvent } from '../../src/shared/chat-events';
import { collect, team, until, type ClientSocket } from '../helpers/chat';
import { createUser } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
const clock = offsetClock();
const sockets: ClientSocket[] = [];
beforeAll(async () => {
  server = await startTestServer({ clock });
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await server?.close();
});

async function trio() {
  const { company, people } = await team(server, sockets, 3, ['Ana', 'Bruno', 'Carla']);
  const [a, b] = people;
  const c = people[2]!;
  const { conversationId } = await a.call('chat.startTeam', { title: 'Suporte', userIds: [b.userId, c.userId] });
  return { company, a, b, c, conversationId };
}

describe('chat.conversation', () => {
  it('opens with the conversation, its people (member or customer, responsible), my draft and watermarks', async () => {
    const { a, b, c, conversationId } = await trio();
    await a.call('chat.send', { conversationId, clientId: 'm1', text: 'hi' });
    await server.db.participant.updateMany({ where: { conversationId, userId: b.userId }, data: { responsible: true } });
    await c.call('chat.saveDraft', { conversationId, text: 'half a thought' });
    const conv = await c.query('chat.conversation', { conversationId });
    expect(conv).toMatchObject({
      conversationId,
      type: CONVERSATION_TYPE.teamChat,
      title: 'Suporte',
      lastSeq: 1,
      lastChangeSeq: 0,
      canDelete: false,
      taskCount: 0,
      me: { draft: 'half a thought', readSeq: 0, deliveredSeq: 0, mentioned: false, fixed: false },
    });
    expect(conv.protocol).toMatch(/^\d{15}$/);
    expect(conv.participants.map((p: any) => [p.name, p.member, p.responsible])).toEqual([
      ['Ana', true, false],
      ['Bruno', true, true],
      ['Carla', true, false],
    ]);
    expect((await a.query('chat.conversation', { conversationId })).canDelete).toBe(true);
  });

  it('names a conversation without a title after the others: about 30 characters, then ", +N"', async () => {
    const { people } = await team(server, sockets, 5, ['Me', 'Alexandra Nogueira', 'Bartolomeu Dias', 'Cecília Meireles', 'Dora']);
    const [me, ...others] = people;
    await server.db.conversation.create({
      data: {
        companyId: me.companyId,
        type: CONVERSATION_TYPE.teamChat,
        protocol: '999990000011111',
        participants: { create: [me, ...others].map((p) => ({ userId: p.userId })) },
      },
    });
    const { items } = await me.query('chat.recents');
    expect(items[0].title).toBe('Alexandra Nogueira, +3');
  });
});

describe('drafts', () => {
  it('are kept per participant and conversation, and deleted when empty', async () => {
    const { a, b, conversationId } = await trio();
    expect(await a.call('chat.saveDraft', { conversationId, text: 'Dear all, ' })).toEqual({ draft: 'Dear all, ' });
    expect((await b.query('chat.conversation', { conversationId })).me.draft).toBe('');
    const { items } = await a.query('chat.recents');
    expect(items.find((r: any) => r.conversationId === conversationId).draft).toBe('Dear all, ');
    await a.call('chat.saveDraft', { conversationId, text: '   ' });
    expect((await server.db.participant.findFirstOrThrow({ where: { conversationId, userId: a.userId } })).draft).toBeNull();
    // Sending clears it too.
    await a.call('chat.saveDraft', { conversationId, text: 'soon sent' });
    await a.call('chat.send', { conversationId, clientId: 'd1', text: 'soon sent' });
    expect((await a.query('chat.conversation', { conversationId })).me.draft).toBe('');
  });
});

describe('pinning', () => {
  it('keeps pinned conversations on top of my recents only, and tells my other tabs', async () => {
    const { a, b, conversationId } = await trio();
    const { conversationId: later } = await a.call('chat.startDirect', { userId: b.userId });
    await a.call('chat.send', { conversationId: later, clientId: 'l1', text: 'newer' });
    const sa = await a.open();
    const updates = collect(sa, 'conversation:updated');
    expect((await a.query('chat.recents')).items.map((r: any) => r.conversationId)).toEqual([later, conversationId]);
    expect(await a.call('chat.setFixed', { conversationId, fixed: true })).toEqual({ fixed: true });
    await until(() => updates.some((u) => u.conversationId === conversationId));
    expect((await a.query('chat.recents')).items.map((r: any) => [r.conversationId, r.fixed])).toEqual([
      [conversationId, true],
      [later, false],
    ]);
    expect((await b.query('chat.recents')).items.map((r: any) => r.conversationId)).toEqual([later, conversationId]);
    await a.call('chat.setFixed', { conversationId, fixed: false });
    expect((await a.query('chat.recents')).items[0].conversationId).toBe(later);
  });
});

describe('message details', () => {
  it('shows, per participant, when they received and read the message', async () => {
    const { a, b, c, conversationId } = await trio();
    const t0 = clock.now().getTime();
    const m = await a.call<ChatMessageEvent>('chat.send', { conversationId, clientId: 'x1', text: 'did everyone get this?' });
    clock.advance(60_000);
    await b.call('chat.markDelivered', { conversationId, uptoSeq: m.seq });
    clock.advance(60_000);
    await b.call('chat.markRead', { conversationId, uptoSeq: m.seq });
    clock.advance(60_000);
    // Reading without a delivery receipt first counts as both.
    await c.call('chat.markRead', { conversationId, uptoSeq: m.seq });
    const details = await a.query('chat.messageDetails', { conversationId, messageId: m.id });
    expect(details.message).toMatchObject({ id: m.id, text: 'did everyone get this?' });
    const byName = Object.fromEntries(details.participants.map((p: any) => [p.name, p]));
    expect(Object.keys(byName).sort()).toEqual(['Bruno', 'Carla']);
    expect(new Date(byName.Bruno.deliveredAt).getTime() - t0).toBeGreaterThanOrEqual(60_000);
    expect(new Date(byName.Bruno.readAt).getTime() - new Date(byName.Bruno.deliveredAt).getTime()).toBeGreaterThanOrEqual(60_000);
    expect(byName.Carla.deliveredAt).toEqual(byName.Carla.readAt);
    // A later message has not been received by anyone yet.
    const m2 = await a.call<ChatMessageEvent>('chat.send', { conversationId, clientId: 'x2', text: 'and this?' });
    const later = await a.query('chat.messageDetails', { conversationId, messageId: m2.id });
    expect(later.participants.map((p: any) => [p.deliveredAt, p.readAt])).toEqual([
      [null, null],
      [null, null],
    ]);
  });
});

describe('notes (anotações)', () => {
  it('let members add notes; only the author edits or deletes; members in the conversation are told', async () => {
    const { a, b, conversationId } = await trio();
    const sb = await b.open();
    const told = collect(sb, 'conversation:notes');
    const { id } = await a.call('chat.addNote', { conversationId, text: 'Customer prefers e-mail' });
    await until(() => told.length === 1);
    const notes = await b.query('chat.notes', { conversationId });
    expect(notes).toMatchObject([{ id, text: 'Customer prefers e-mail', authorId: a.userId, authorName: 'Ana', mine: false, editedAt: null }]);
    await expect(b.call('chat.editNote', { conversationId, noteId: id, text: 'no' })).rejects.toThrow('Only the author can change a note');
    await expect(b.call('chat.deleteNote', { conversationId, noteId: id })).rejects.toThrow('Only the author can change a note');
    await a.call('chat.editNote', { conversationId, noteId: id, text: 'Customer prefers phone' });
    expect((await a.query('chat.notes', { conversationId }))[0]).toMatchObject({ text: 'Customer prefers phone', mine: true });
    expect((await a.query('chat.notes', { conversationId }))[0].editedAt).not.toBeNull();
    await expect(a.call('chat.addNote', { conversationId, text: '  ' })).rejects.toThrow('Write the note first');
    expect(await a.call('chat.deleteNote', { conversationId, noteId: id })).toEqual({ deleted: true });
    expect(await a.query('chat.notes', { conversationId })).toEqual([]);
  });

  it("are closed to people outside the conversation and to other companies", async () => {
    const { a, conversationId, company } = await trio();
    const { id } = await a.call('chat.addNote', { conversationId, text: 'internal' });
    const { people } = await team(server, sockets, 1);
    const outsider = people[0];
    await expect(outsider.query('chat.notes', { conversationId })).rejects.toThrow('Conversation not found');
    await expect(outsider.call('chat.deleteNote', { conversationId, noteId: id })).rejects.toThrow('Conversation not found');
    await expect(outsider.query('chat.notes', { domain: company.domain, conversationId })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(await server.db.conversationNote.count({ where: { conversationId } })).toBe(1);
  });
});

describe('deleting a conversation', () => {
  it('needs REMOVER typed (any case, spaces around), tells everyone in it, and removes it', async () => {
    const { a, b, conversationId } = await trio();
    await a.call('chat.send', { conversationId, clientId: 'z', text: 'bye' });
    const sb = await b.open();
    const removed = collect(sb, 'conversation:removed');
    await expect(a.call('chat.deleteConversation', { conversationId, confirmation: 'REMOVE' })).rejects.toThrow('Type REMOVER to confirm');
    expect(await a.call('chat.deleteConversation', { conversationId, confirmation: '  Remover ' })).toEqual({ removed: true });
    await until(() => removed.length === 1);
    expect(removed[0]).toEqual({ conversationId });
    expect(await server.db.conversation.count({ where: { id: conversationId } })).toBe(0);
    expect(await server.db.message.count({ where: { conversationId } })).toBe(0);
    expect((await b.query('chat.recents')).items).toEqual([]);
    await expect(a.call('chat.deleteConversation', { conversationId, confirmation: 'REMOVER' })).rejects.toThrow('Não foi possível remover o atendimento [404x1B]');
  });

  it('is for its creator or an administrator, and refused while tasks are linked', async () => {
    const { company, a, b, conversationId } = await trio();
    await expect(b.call('chat.deleteConversation', { conversationId, confirmation: 'REMOVER' })).rejects.toThrow(
      'Only the person who opened the conversation or an administrator can remove it',
    );
    const { conversationId: byB } = await b.call('chat.startDirect', { userId: a.userId });
    await server.db.conversation.create({
      data: { companyId: company.id, type: CONVERSATION_TYPE.task, protocol: '888880000022222', parentId: byB, creatorId: b.userId },
    });
    await expect(b.call('chat.deleteConversation', { conversationId: byB, confirmation: 'REMOVER' })).rejects.toThrow(
      'Este atendimento está vinculado a uma ou mais tarefas. Para removê-lo as tarefas precisam ser desvinculadas a ele.',
    );
    // The admin may delete what someone else opened.
    expect(await a.call('chat.deleteConversation', { conversationId, confirmation: 'REMOVER' })).toEqual({ removed: true });
    expect(await server.db.conversation.count({ where: { id: byB } })).toBe(1);
  });

  it("is refused to another company's member, leaving everything in place", async () => {
    const { a, company, conversationId } = await trio();
    const outsider = (await team(server, sockets, 1)).people[0];
    await expect(outsider.call('chat.deleteConversation', { conversationId, confirmation: 'REMOVER' })).rejects.toThrow(
      'Não foi possível remover o atendimento [404x1B]',
    );
    await expect(outsider.call('chat.deleteConversation', { domain: company.domain, conversationId, confirmation: 'REMOVER' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    expect(await a.query('chat.conversation', { conversationId })).toMatchObject({ conversationId });
  });
});

describe('an anonymous visitor who signs in to an account', () => {
  it('keeps their conversations and messages under the account', async () => {
    const { a, conversationId } = await trio();
    const visitor = await server.db.user.create({ data: { name: 'Visitor', anonymous: true } });
    const account = await createUser(server.db, { name: 'Visitor Account' });
    await server.db.participant.create({ data: { conversationId, userId: visitor.id } });
    const m = await server.db.message.create({ data: { conversationId, seq: 99, authorId: visitor.id, clientId: 'v1', text: 'hello from the page' } });
    await a.call('chat.addNote', { conversationId, text: 'visitor came from the site' });
    await mergeAnonymousUser(server.db, visitor.id, account.id);
    expect(await server.db.participant.count({ where: { conversationId, userId: account.id } })).toBe(1);
    expect(await server.db.message.findUniqueOrThrow({ where: { id: m.id } })).toMatchObject({ authorId: account.id, clientId: 'v1' });
    expect(await server.db.user.count({ where: { id: visitor.id } })).toBe(0);
  });
});
