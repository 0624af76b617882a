/**
 * A meeting's conversation (spec: the calendar event's ateId): creating a meeting with colleagues
 * creates its group conversation in the same transaction, changing the participants changes the
 * conversation's, and nobody outside the company reaches it. The e2e joins its call from the calendar.
 */
import { describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server';
import { serverSuite } from '../helpers/suite';
import { serviceCompany } from '../helpers/service';

let server: TestServer;
const sockets = serverSuite((s) => (server = s));

const company = () => serviceCompany(server, sockets, {});
const meeting = (domain: string, extra: Record<string, unknown> = {}) => ({
  domain, title: 'Planning', start: '2026-12-01T12:00:00.000Z', end: '2026-12-01T13:00:00.000Z', timeZone: 'America/Sao_Paulo', isMeeting: true, ...extra,
});
const people = async (conversationId: string) =>
  (await server.db.participant.findMany({ where: { conversationId }, orderBy: { userId: 'asc' } })).map((p) => [p.userId, p.removed] as const);

describe("a meeting's conversation", () => {
  it('is created with the meeting, holding the creator and the participants, and the event points at it', async () => {
    const c = await company();
    const ana = await c.attendant('Ana');
    const bia = await c.attendant('Bia');
    const created = await c.admin.call('calendar.create', meeting(c.domain, { participantIds: [ana.userId, bia.userId] }));
    expect(created.conversationId).toEqual(expect.any(String));
    const conv = await server.db.conversation.findUniqueOrThrow({ where: { id: created.conversationId } });
    expect(conv).toMatchObject({ companyId: c.company.id, type: 3, title: 'Planning', creatorId: c.admin.userId });
    expect(await people(conv.id)).toEqual([[c.admin.userId, false], [ana.userId, false], [bia.userId, false]].sort((a, b) => String(a[0]).localeCompare(String(b[0]))));
    const event = await ana.call('calendar.get', { domain: c.domain, eventId: created.id }, 'query');
    expect(event.conversationId).toBe(conv.id);
    // The participant opens it like any of her conversations.
    const opened = await ana.call('chat.conversation', { domain: c.domain, conversationId: conv.id }, 'query');
    expect(opened).toBeTruthy();
  });

  it('is not made for an event that is not a meeting, nor for a meeting with nobody else', async () => {
    const c = await company();
    const ana = await c.attendant('Ana');
    const plain = await c.admin.call('calendar.create', meeting(c.domain, { isMeeting: false, participantIds: [ana.userId] }));
    const alone = await c.admin.call('calendar.create', meeting(c.domain, { participantIds: [] }));
    expect([plain.conversationId, alone.conversationId]).toEqual([null, null]);
    // Given a colleague later, the lone meeting gets its conversation then.
    await c.admin.call('calendar.update', { domain: c.domain, eventId: alone.id, scope: 'series', participantIds: [ana.userId] });
    const event = await ana.call('calendar.get', { domain: c.domain, eventId: alone.id }, 'query');
    expect(event.conversationId).toEqual(expect.any(String));
    expect(await people(event.conversationId)).toHaveLength(2);
  });

  it("follows the meeting's participants: one added joins, one taken off leaves", async () => {
    const c = await company();
    const ana = await c.attendant('Ana');
    const bia = await c.attendant('Bia');
    const { id, conversationId } = await c.admin.call('calendar.create', meeting(c.domain, { participantIds: [ana.userId] }));
    await c.admin.call('calendar.update', { domain: c.domain, eventId: id, scope: 'series', participantIds: [bia.userId] });
    const rows = new Map(await people(conversationId));
    expect(rows.get(c.admin.userId)).toBe(false);
    expect(rows.get(bia.userId)).toBe(false);
    expect(rows.get(ana.userId)).toBe(true);
    expect((await ana.attempt('chat.conversation', { domain: c.domain, conversationId }, 'query')).error).toBeTruthy();
  });

  it('belongs to its company: another company cannot be invited or reach the conversation, and a failed creation leaves nothing', async () => {
    const c = await company();
    const other = await company();
    const ana = await c.attendant('Ana');
    const stranger = await other.attendant('Zé');
    const before = await server.db.conversation.count({ where: { companyId: c.company.id } });
    const refused = await c.admin.attempt('calendar.create', meeting(c.domain, { participantIds: [stranger.userId] }));
    expect(refused.error).toMatchObject({ code: 'BAD_REQUEST' });
    expect(await server.db.conversation.count({ where: { companyId: c.company.id } })).toBe(before);
    const { conversationId } = await c.admin.call('calendar.create', meeting(c.domain, { participantIds: [ana.userId] }));
    expect((await other.admin.attempt('chat.conversation', { domain: other.domain, conversationId }, 'query')).error).toBeTruthy();
    expect((await stranger.attempt('calls.start', { domain: other.domain, conversationId, type: 2 })).error).toBeTruthy();
  });
});
