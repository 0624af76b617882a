/**
 * Saved replies (canned responses): admins keep the company's list, every member reads it for
 * the composer, nobody else sees or touches it, and a shortcut names one reply per company.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPLY_MESSAGES as M } from '../../src/shared/schemas/replies';
import { startTestServer, type TestServer } from '../helpers/server';
import { serviceCompany, type ClientSocket } from '../helpers/service';

let server: TestServer;
const sockets: ClientSocket[] = [];
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await server?.close();
});

describe('saved replies', () => {
  it('admins create, edit and remove them; members list them in shortcut order', async () => {
    const c = await serviceCompany(server, sockets);
    const bia = await c.attendant('Bia');
    const hello = await c.admin.call('replies.save', { domain: c.domain, shortcut: '/Hello', title: 'Greeting', text: 'Hello {customer}!' });
    expect(hello).toMatchObject({ shortcut: 'hello', title: 'Greeting', text: 'Hello {customer}!' });
    await c.admin.call('replies.save', { domain: c.domain, shortcut: 'bye', text: 'Bye' });
    expect((await bia.call('replies.list', { domain: c.domain }, 'query')).map((r: { shortcut: string }) => r.shortcut)).toEqual(['bye', 'hello']);

    const edited = await c.admin.call('replies.save', { domain: c.domain, replyId: hello.id, shortcut: 'hi', title: 'Greeting', text: 'Hi {customer}' });
    expect(edited).toMatchObject({ id: hello.id, shortcut: 'hi', text: 'Hi {customer}' });
    const row = await server.db.savedReply.findUniqueOrThrow({ where: { id: hello.id } });
    expect(row.updatedById).toBe(c.admin.userId);

    expect(await c.admin.call('replies.remove', { domain: c.domain, replyId: hello.id })).toEqual({ removed: true });
    expect((await bia.call('replies.list', { domain: c.domain }, 'query')).map((r: { shortcut: string }) => r.shortcut)).toEqual(['bye']);
    expect((await c.admin.attempt('replies.remove', { domain: c.domain, replyId: hello.id })).error).toMatchObject({ code: 'NOT_FOUND', message: M.notFound });
  });

  it('refuses a taken shortcut, a bad one and an empty text with the texts the screen shows', async () => {
    const c = await serviceCompany(server, sockets);
    await c.admin.call('replies.save', { domain: c.domain, shortcut: 'pix', text: 'Our key is...' });
    const taken = await c.admin.attempt('replies.save', { domain: c.domain, shortcut: 'PIX', text: 'Other' });
    expect(taken.error).toMatchObject({ code: 'CONFLICT', message: M.shortcutTaken });
    // Two admins saving the same new shortcut at once: one reply, the other told why.
    const racing = await Promise.all([1, 2, 3].map((i) => c.admin.attempt('replies.save', { domain: c.domain, shortcut: 'race', text: `t${i}` })));
    expect(racing.filter((r) => r.data).length).toBe(1);
    expect(racing.filter((r) => r.error?.message === M.shortcutTaken).length).toBe(2);
    expect((await c.admin.attempt('replies.save', { domain: c.domain, shortcut: 'two words', text: 'x' })).error?.code).toBe('BAD_REQUEST');
    expect((await c.admin.attempt('replies.save', { domain: c.domain, shortcut: 'ok', text: '  ' })).error?.code).toBe('BAD_REQUEST');
    expect(await server.db.savedReply.count({ where: { companyId: c.company.id } })).toBe(2);
  });

  it('members cannot change them; other companies neither see nor touch them', async () => {
    const c = await serviceCompany(server, sockets);
    const bia = await c.attendant('Bia');
    const reply = await c.admin.call('replies.save', { domain: c.domain, shortcut: 'secret', text: 'Internal' });
    expect((await bia.attempt('replies.save', { domain: c.domain, shortcut: 'mine', text: 'x' })).error?.code).toBe('FORBIDDEN');
    expect((await bia.attempt('replies.remove', { domain: c.domain, replyId: reply.id })).error?.code).toBe('FORBIDDEN');

    const other = await serviceCompany(server, sockets);
    expect((await other.admin.attempt('replies.list', { domain: c.domain }, 'query')).error?.code).toBe('FORBIDDEN');
    // Their own domain with our reply's id: not found, and ours is untouched.
    expect((await other.admin.attempt('replies.remove', { domain: other.domain, replyId: reply.id })).error?.code).toBe('NOT_FOUND');
    expect((await other.admin.attempt('replies.save', { domain: other.domain, replyId: reply.id, shortcut: 'secret', text: 'Mine now' })).error?.code).toBe('NOT_FOUND');
    expect(await other.admin.call('replies.list', { domain: other.domain }, 'query')).toEqual([]);
    expect((await server.db.savedReply.findUniqueOrThrow({ where: { id: reply.id } })).text).toBe('Internal');
  });
});
