/**
 * The spec's customer-area texts of issue 12 (calls-errors-constants §8), where docs/decisions.md
 * puts them: 'Invalid Access' for a request opened by someone who is not in it, 'User not found in
 * domain' for a person who is not an active member of the company, 'Error starting voice call'
 * when a voice call cannot start.
 */
import { describe, expect, it } from 'vitest';
import { addMember, createUser, signIn } from '../helpers/fixtures';
import { anonymousVisitor, serviceCompany } from '../helpers/service';
import type { TestServer } from '../helpers/server';
import { serverSuite } from '../helpers/suite';
import { callProcedure } from '../helpers/trpc';

let server: TestServer;
// No media worker: this server cannot hold a call.
const sockets = serverSuite((s) => (server = s));

const company = () => serviceCompany(server, sockets);
const visitor = () => anonymousVisitor(server, sockets);

describe("the customer area's texts", () => {
  it("answers a request link opened by someone who is not in it with 'Invalid Access'", async () => {
    const c = await company();
    const owner = await visitor();
    const { conversationId } = await owner.call('customer.request', { domain: c.domain, queueKey: 'faleconosco', name: 'Vera', text: 'Oi' });
    const stranger = await visitor();
    for (const [path, input, type] of [
      ['customer.conversation', {}, 'query'],
      ['customer.messages', {}, 'query'],
      ['customer.send', { clientId: 'x', text: 'hi' }, 'mutation'],
    ] as const) {
      expect((await stranger.attempt(path, { conversationId, ...input }, type)).error, path).toMatchObject({ code: 'FORBIDDEN', message: 'Invalid Access' });
    }
  });

  it("answers a person who is not an active member of the company with 'User not found in domain'", async () => {
    const c = await company();
    const bia = await c.attendant('Bia', { groupIds: [c.group('member')] });
    const v = await visitor();
    const { conversationId } = await v.call('customer.request', { domain: c.domain, queueKey: 'faleconosco', name: 'Vera', text: 'Oi' });
    await bia.call('service.take', { domain: c.domain, conversationId });
    const other = await company();
    const res = await bia.attempt('service.transfer', { domain: c.domain, conversationId, target: { kind: 'attendant', userId: other.admin.userId } });
    expect(res.error).toMatchObject({ code: 'NOT_FOUND', message: 'User not found in domain' });
  });

  it("answers a voice call that cannot start with 'Error starting voice call'", async () => {
    const c = await company();
    const other = await createUser(server.db, { name: 'Bruno' });
    await addMember(server.db, c.company.id, other.id);
    const cookie = c.admin.cookie;
    const direct = await callProcedure(server.url, 'chat.startDirect', { domain: c.domain, userId: other.id }, { cookie, type: 'mutation' });
    const conversationId = (direct.data as { conversationId: string }).conversationId;
    const voice = await callProcedure(server.url, 'calls.start', { domain: c.domain, conversationId, type: 1 }, { cookie, type: 'mutation' });
    expect(voice.error).toMatchObject({ code: 'PRECONDITION_FAILED', message: 'Error starting voice call' });
    expect(await server.db.call.count({ where: { companyId: c.company.id } })).toBe(0);
    // The callee's own session sees the same text.
    const callee = await callProcedure(server.url, 'calls.start', { domain: c.domain, conversationId, type: 1 }, { cookie: await signIn(server.db, other.id), type: 'mutation' });
    expect(callee.error?.message).toBe('Error starting voice call');
  });
});
