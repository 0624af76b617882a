import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offsetClock } from '../../src/server/clock';
import type { ChatMessageEvent } from '../../src/shared/chat-events';
import { formatProtocol } from '../../src/shared/domain/protocol';
import { team, type ClientSocket, type Person } from '../helpers/chat';
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

let n = 0;
const send = (p: Person, conversationId: string, text: string, extra: Record<string, unknown> = {}) =>
  p.call<ChatMessageEvent>('chat.send', { conversationId, clientId: `r${++n}`, text, ...extra });
const recents = async (p: Person, input: Record<string, unknown> = {}) => (await p.query('chat.recents', input)).items as any[];
const ids = async (p: Person, input: Record<string, unknown> = {}) => (await recents(p, input)).map((r) => r.conversationId);

describe('recents', () => {
  it('give every field a row needs: title, last message, my ticks, unread, avatars of the others', async () => {
    const { people } = await team(server, sockets, 3, ['Ana', 'Bruno', 'Carla']);
    const [a, b, c] = people as [Person, Person, Person];
    await server.db.user.update({ where: { id: b.userId }, data: { avatarKey: 'avatars/x' } });
    const { conversationId } = await a.call('chat.startDirect', { userId: b.userId });
    await send(b, conversationId, 'first');
    const mine = await send(a, conversationId, 'second, mine');

    const [row] = await recents(a);
    expect(row).toMatchObject({
      conversationId,
      title: 'Bruno',
      lastSeq: 2,
      unread: 0,
      mentioned: false,
      removed: false,
      fixed: false,
      lastMessage: { id: mine.id, seq: 2, type: 'texto', text: 'second, mine', authorId: a.userId, authorName: 'Ana', removed: false },
      lastMessageTicks: 'sent',
      others: [{ userId: b.userId, name: 'Bruno', hasAvatar: true, deliveredSeq: 1, readSeq: 1 }],
    });
    await b.call('chat.markDelivered', { conversationId, uptoSeq: 2 });
    expect((await recents(a))[0].lastMessageTicks).toBe('delivered');
    await b.call('chat.markRead', { conversationId, uptoSeq: 2 });
    expect((await recents(a))[0].lastMessageTicks).toBe('read');
    // Not my message: no ticks.
    expect((await recents(b))[0]).toMatchObject({ lastMessageTicks: null, unread: 0, title: 'Ana' });

    const { conversationId: group } = await c.call('chat.startTeam', { title: 'Plantão', userIds: [a.userId, b.userId] });
    await send(c, group, 'one');
    await send(c, group, 'two');
    const page = await a.query('chat.recents');
    expect(page.items[0]).toMatchObject({ conversationId: group, title: 'Plantão', unread: 2 });
    expect(page.totalUnread).toBe(2);
  });

  it('keep what a removed participant saw: up to their removal, no later messages or unread', async () => {
    const { people } = await team(server, sockets, 3, ['Ana', 'Bruno', 'Carla']);
    const [a, b, c] = people as [Person, Person, Person];
    const { conversationId } = await a.call('chat.startTeam', { title: 'Equipe', userIds: [b.userId, c.userId] });
    await send(a, conversationId, 'before');
    await a.call('chat.removeParticipant', { conversationId, userId: c.userId });
    await send(a, conversationId, 'after you left: secret');
    const row = (await recents(c)).find((r) => r.conversationId === conversationId);
    expect(row).toMatchObject({ removed: true, unread: 2, lastMessage: { type: 'info', data: { info: 'participantRemoved', params: { name: 'Carla' } } } });
    expect(JSON.stringify(row)).not.toContain('secret');
  });

  it('search on the server: title, participant, company name, last message, protocol without dashes, date DD/MM/YYYY', async () => {
    const { company, people } = await team(server, sockets, 3, ['Ana', 'Bruno Tavares', 'Carla']);
    const [a, b, c] = people as [Person, Person, Person];
    const { conversationId: withB } = await a.call('chat.startDirect', { userId: b.userId });
    const { conversationId: billing } = await a.call('chat.startTeam', { title: 'Faturamento', userIds: [c.userId] });
    await send(a, withB, 'o boleto 50% vence amanhã');
    await send(c, billing, 'ok');
    const protocol = (await server.db.conversation.findUniqueOrThrow({ where: { id: billing } })).protocol;

    expect(await ids(a, { q: 'fatur' })).toEqual([billing]);
    expect(await ids(a, { q: 'tavares' })).toEqual([withB]);
    expect(await ids(a, { q: 'BOLETO' })).toEqual([withB]);
    expect(await ids(a, { q: '50%' })).toEqual([withB]); // % is a character, not a wildcard
    expect(await ids(a, { q: '5_' })).toEqual([]);
    expect(await ids(a, { q: formatProtocol(protocol) })).toEqual([billing]);
    expect(await ids(a, { q: protocol.slice(3, 11) })).toEqual([billing]);
    expect((await ids(a, { q: company.name })).sort()).toEqual([withB, billing].sort());
    expect(await ids(a, { q: 'nothing like it' })).toEqual([]);

    // A date, in the reader's time zone: 02:30 UTC on the 10th is still the 9th in São Paulo.
    await server.db.conversation.update({ where: { id: withB }, data: { lastMessageAt: new Date('2026-03-10T02:30:00Z'), createdAt: new Date('2026-03-01T12:00:00Z') } });
    expect(await ids(a, { q: '10/03/2026' })).toEqual([withB]);
    expect(await ids(a, { q: '09/03/2026', timeZone: 'America/Sao_Paulo' })).toEqual([withB]);
    expect(await ids(a, { q: '01/03/2026' })).toEqual([withB]);
    expect(await ids(a, { q: '31/02/2026' })).toEqual([]);
    await expect(a.query('chat.recents', { q: 'x', timeZone: 'Mars/Olympus' })).rejects.toThrow('Unknown time zone');
  });

  it('come in pages, pinned first then by latest activity, without repeats or gaps', async () => {
    const { people } = await team(server, sockets, 2, ['Ana', 'Bruno']);
    const [a, b] = people;
    const created: string[] = [];
    for (let i = 0; i < 7; i++) {
      clock.advance(1000);
      const { conversationId } = await a.call('chat.startDirect', { userId: b.userId, force: true });
      await send(a, conversationId, `#${i}`);
      created.push(conversationId);
    }
    await a.call('chat.setFixed', { conversationId: created[2], fixed: true });
    const expected = [created[2], ...created.filter((x) => x !== created[2]).reverse()];
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await a.query('chat.recents', { limit: 3, ...(cursor && { cursor }) });
      expect(page.items.length).toBeLessThanOrEqual(3);
      seen.push(...page.items.map((r: any) => r.conversationId));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(expected);
    await expect(a.query('chat.recents', { cursor: 'garbage' })).rejects.toThrow('Invalid cursor');
  });

  it("list only this company's conversations, and only to members", async () => {
    const one = await team(server, sockets, 2);
    const { conversationId } = await one.people[0].call('chat.startDirect', { userId: one.people[1].userId });
    // The same person is a member of a second company: its recents stay separate.
    const two = await team(server, sockets, 1);
    await server.db.member.create({ data: { companyId: two.company.id, userId: one.people[1].userId, inviteAccepted: true, joinedAt: new Date() } });
    const bInTwo = { ...one.people[1], query: (path: string, input: Record<string, unknown> = {}) => one.people[1].query(path, { domain: two.company.domain, ...input }) };
    expect(await ids(one.people[1])).toEqual([conversationId]);
    expect(await ids(bInTwo as Person)).toEqual([]);
    await expect(two.people[0].query('chat.recents', { domain: one.company.domain })).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});
