/**
 * Calls without a media worker (the API tests' default): refusals, access by call id for people
 * outside the call, the statement's access level, and calls left open by a previous run of this
 * instance being ended at start.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALL_MESSAGES as M } from '../../src/shared/domain/calls';
import { addMember, createCompany, createUser, memberOfNewCompany, signIn } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/server';
import { callProcedure } from '../helpers/trpc';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ env: { INSTANCE_ID: 'api-calls' } });
});
afterAll(() => server?.close());

async function as(cookie: string, path: string, input: unknown, type: 'query' | 'mutation' = 'mutation') {
  return callProcedure(server.url, path, input, { cookie, type });
}

/** A call row as the service writes it, without media: enough for access and lifecycle checks. */
async function callBetween(companyId: string, conversationId: string, ownerId: string, others: string[], hostInstance = 'api-calls') {
  return server.db.call.create({
    data: {
      companyId,
      conversationId,
      ownerId,
      type: 2,
      open: true,
      startedAt: new Date(),
      linkKey: `k${Math.random().toString(36).slice(2)}${'x'.repeat(20)}`,
      hostInstance,
      participants: { create: [{ userId: ownerId, accepted: true, connected: true }, ...others.map((userId) => ({ userId, accepted: true, connected: true }))] },
    },
  });
}

describe('calls without media', () => {
  it('refuses to start a call when this server has no media worker', async () => {
    const owner = await memberOfNewCompany(server.db);
    const other = await createUser(server.db, { name: 'Bruno' });
    await addMember(server.db, owner.company.id, other.id);
    const { data } = await as(owner.cookie, 'chat.startDirect', { domain: owner.company.domain, userId: other.id });
    const res = await as(owner.cookie, 'calls.start', { domain: owner.company.domain, conversationId: (data as { conversationId: string }).conversationId, type: 2 });
    expect(res.error).toMatchObject({ code: 'PRECONDITION_FAILED', message: M.callsUnavailable });
    expect(await server.db.call.count({ where: { companyId: owner.company.id } })).toBe(0);
  });

  it('refuses a call to people outside it, whatever their company, by its id', async () => {
    const owner = await memberOfNewCompany(server.db);
    const bruno = await createUser(server.db, { name: 'Bruno' });
    await addMember(server.db, owner.company.id, bruno.id);
    const { data } = await as(owner.cookie, 'chat.startDirect', { domain: owner.company.domain, userId: bruno.id });
    const call = await callBetween(owner.company.id, (data as { conversationId: string }).conversationId, owner.user.id, [bruno.id]);

    // A member of the same company who is not in the conversation, and an admin of another company.
    const colleague = await createUser(server.db);
    await addMember(server.db, owner.company.id, colleague.id);
    const outsider = await memberOfNewCompany(server.db);
    for (const cookie of [await signIn(server.db, colleague.id), outsider.cookie]) {
      expect((await as(cookie, 'calls.get', { callId: call.id }, 'query')).error?.message).toBe(M.notParticipant);
      expect((await as(cookie, 'calls.enter', { callId: call.id })).error?.message).toBe(M.notParticipant);
      expect((await as(cookie, 'calls.accept', { callId: call.id })).error?.code).toBeDefined();
      expect((await as(cookie, 'calls.end', { callId: call.id })).error?.message).toBe(M.onlyOwner);
      expect((await as(cookie, 'calls.command', { callId: call.id, userId: bruno.id, command: 'kick' })).error?.message).toBe(M.onlyOwner);
      expect((await as(cookie, 'calls.startRecording', { callId: call.id })).error?.message).toBe(M.recordOwnerOrAdmin);
    }
    expect(await server.db.callParticipant.count({ where: { callId: call.id } })).toBe(2);
    expect((await server.db.call.findUniqueOrThrow({ where: { id: call.id } })).concluded).toBe(false);
    // The people in it do see it.
    const seen = await as(await signIn(server.db, bruno.id), 'calls.get', { callId: call.id }, 'query');
    expect((seen.data as { state: { participants: unknown[] } }).state.participants).toHaveLength(2);
  });

  it('shows the statement to admins only, the balance to every member', async () => {
    const admin = await memberOfNewCompany(server.db);
    const member = await createUser(server.db);
    await addMember(server.db, admin.company.id, member.id);
    const memberCookie = await signIn(server.db, member.id);
    expect((await as(admin.cookie, 'billing.statement', { domain: admin.company.domain }, 'query')).data).toEqual({ entries: [], nextCursor: null });
    expect((await as(memberCookie, 'billing.statement', { domain: admin.company.domain }, 'query')).error?.code).toBe('FORBIDDEN');
    const balance = await as(memberCookie, 'billing.balance', { domain: admin.company.domain }, 'query');
    expect(balance.data).toMatchObject({ credits: '0', prices: { voice: '0', video: '0', share: '0', recording: '0' } });
  });

  it('ends at start the calls this instance hosted before it stopped, and leaves other instances\' calls alone', async () => {
    const owner = await createUser(server.db);
    const company = await createCompany(server.db, owner.id);
    const other = await createUser(server.db);
    await addMember(server.db, company.id, other.id);
    const conversation = await server.db.conversation.create({
      data: { companyId: company.id, type: 0, protocol: String(Date.now()).padEnd(15, '7'), participants: { create: [{ userId: owner.id }, { userId: other.id }] } },
    });
    const mine = await callBetween(company.id, conversation.id, owner.id, [other.id], 'restarting');
    const theirs = await callBetween(company.id, conversation.id, other.id, [owner.id], 'elsewhere');

    const restarted = await startTestServer({ databaseUrl: server.databaseUrl, env: { INSTANCE_ID: 'restarting' } });
    try {
      const ended = await server.db.call.findUniqueOrThrow({ where: { id: mine.id }, include: { participants: true } });
      expect(ended).toMatchObject({ concluded: true, open: false, endReason: 'mediaFailure' });
      expect(ended.participants.every((p) => !p.connected)).toBe(true);
      expect((await server.db.call.findUniqueOrThrow({ where: { id: theirs.id } })).concluded).toBe(false);
    } finally {
      await restarted.close();
    }
  });
});
