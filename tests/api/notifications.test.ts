/**
 * Notifications: the user's list with read/unread, who may receive them (spec 5), the 7-day
 * clean-up, and e-mail to participants who are away (at most one per 4 hours), through a real
 * SMTP server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offsetClock } from '../../src/server/clock';
import { emailOfflineParticipants, purgeOldNotifications, createNotifications } from '../../src/server/modules/notifications/service';
import { EMAIL_RESEND_INTERVAL_MS } from '../../src/shared/constants';
import { addMember, createUser } from '../helpers/fixtures';
import { anonymousVisitor, customer, serviceCompany, type ClientSocket } from '../helpers/service';
import { startTestServer, type TestServer } from '../helpers/server';
import { startSmtpServer } from '../helpers/smtp';

let server: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
const clock = offsetClock();
const sockets: ClientSocket[] = [];
beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ clock, env: { SMTP_URL: smtp.url } });
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await server?.close();
  await smtp?.close();
});

const company = () => serviceCompany(server, sockets);
const mailDeps = () => ({ ...server.server.deps, publicUrl: server.server.deps.config.publicUrl });

describe('the notifications page', () => {
  it('lists newest first with the unread count; marks some, then all, read; only one’s own', async () => {
    const c = await company();
    const bia = await c.attendant('Bia', { groupIds: [c.group('member')] });
    for (const name of ['Um', 'Dois', 'Três']) {
      const v = await anonymousVisitor(server, sockets);
      await v.call('customer.request', { domain: c.domain, queueKey: 'faleconosco', name });
    }
    const list = await bia.call('notifications.list', {}, 'query');
    expect(list.unread).toBe(3);
    expect(list.items.map((n: { subtitle: string }) => n.subtitle)).toEqual(['Três · Fale Conosco', 'Dois · Fale Conosco', 'Um · Fale Conosco']);
    expect(list.items[0]).toMatchObject({ type: 'queueRequest', read: false, company: { domain: c.domain }, action: `/i/recent/queue/${c.queue.id}` });

    const socket = await bia.open();
    const reads: unknown[] = [];
    socket.on('notification:read', (p) => reads.push(p));
    expect(await bia.call('notifications.markRead', { ids: [list.items[0].id] })).toEqual({ marked: 1 });
    expect((await bia.call('notifications.list', { unreadOnly: true }, 'query')).items).toHaveLength(2);
    const stranger = await c.attendant('Estranho');
    expect((await stranger.attempt('notifications.markRead', { ids: [list.items[1].id] })).error).toMatchObject({ code: 'NOT_FOUND', message: 'Notification not found' });
    expect(await bia.call('notifications.markAllRead')).toEqual({ marked: 2 });
    expect((await bia.call('notifications.list', {}, 'query')).unread).toBe(0);
    await new Promise((r) => setTimeout(r, 100));
    expect(reads).toEqual([{ ids: [list.items[0].id] }, { ids: 'all' }]);
    expect((await bia.attempt('notifications.markRead', { ids: ['not-a-uuid'] })).error?.code).toBe('BAD_REQUEST');
  });

  it('goes only to accepted, non-blocked attendants, and admin-only ones only to admins (spec 5)', async () => {
    const c = await company();
    const active = await c.attendant('Ativo');
    const blockedUser = await createUser(server.db, { name: 'Bloqueado' });
    await addMember(server.db, c.company.id, blockedUser.id, { blocked: true });
    const waitingUser = await createUser(server.db, { name: 'Aguardando' });
    await addMember(server.db, c.company.id, waitingUser.id, { inviteAccepted: false });
    const outsider = await createUser(server.db, { name: 'De fora' });
    const row = (userId: string, adminOnly = false) => ({ companyId: c.company.id, userId, type: 'test', title: 't', adminOnly });
    const written = await server.db.$transaction((tx) =>
      createNotifications(tx, [row(active.userId), row(blockedUser.id), row(waitingUser.id), row(outsider.id), row(active.userId, true), row(c.admin.userId, true)]),
    );
    expect(written.map((n) => [n.userId, n.adminOnly])).toEqual([
      [active.userId, false],
      [c.admin.userId, true],
    ]);
  });

  it('are deleted after 7 days', async () => {
    const c = await company();
    const now = clock.now().getTime();
    const day = 24 * 3_600_000;
    await server.db.notification.createMany({
      data: [
        { companyId: c.company.id, userId: c.admin.userId, type: 't', title: 'old', createdAt: new Date(now - 7 * day - 60_000) },
        { companyId: c.company.id, userId: c.admin.userId, type: 't', title: 'recent', createdAt: new Date(now - 6 * day) },
      ],
    });
    expect(await purgeOldNotifications(server.server.deps)).toBeGreaterThanOrEqual(1);
    expect((await server.db.notification.findMany({ where: { userId: c.admin.userId } })).map((n) => n.title)).toEqual(['recent']);
  });
});

describe('e-mail to participants who are away', () => {
  it('mails an offline customer about unread messages, then not again for 4 hours (14400000 ms)', async () => {
    const c = await company();
    const bia = await c.attendant('Bia', { groupIds: [c.group('member')] });
    const carlos = await customer(server, sockets, 'Carlos', `carlos-${Date.now()}@example.test`);
    const email = (await server.db.user.findUniqueOrThrow({ where: { id: carlos.userId } })).email!;
    const { conversationId } = await carlos.call('customer.request', { domain: c.domain, queueKey: 'faleconosco' });
    await bia.call('service.take', { domain: c.domain, conversationId });
    await bia.call('chat.send', { domain: c.domain, conversationId, clientId: 'a', text: 'Olá Carlos' });
    await bia.call('chat.send', { domain: c.domain, conversationId, clientId: 'b', text: 'nota', isComment: true });

    // Not yet: someone online reads within the minute.
    expect(await emailOfflineParticipants(mailDeps())).toBe(0);
    clock.advance(61_000);
    // (The every-minute job may get there first on this clock: either way, one e-mail.)
    await emailOfflineParticipants(mailDeps());
    const mail = await smtp.next(email);
    expect(mail.subject).toBe(`${c.company.name}: 1 new message`);
    expect(mail.link).toBe(`${server.url}/${c.domain}/chat/${conversationId}`);

    await bia.call('chat.send', { domain: c.domain, conversationId, clientId: 'c', text: 'Está aí?' });
    clock.advance(3_600_000);
    await emailOfflineParticipants(mailDeps());
    clock.advance(EMAIL_RESEND_INTERVAL_MS - 3_600_000 - 61_000);
    await emailOfflineParticipants(mailDeps());
    expect(smtp.inbox.filter((m) => m.to === email)).toEqual([]);
    clock.advance(61_000);
    await emailOfflineParticipants(mailDeps());
    expect((await smtp.next(email)).subject).toBe(`${c.company.name}: 2 new messages`);
  });

  it('does not mail people who are connected or have read, nor visitors without an e-mail', async () => {
    const c = await company();
    const bia = await c.attendant('Bia', { groupIds: [c.group('member')] });
    const online = await customer(server, sockets, 'Online', `online-${Date.now()}@example.test`);
    const reader = await customer(server, sockets, 'Leitor', `reader-${Date.now()}@example.test`);
    const anon = await anonymousVisitor(server, sockets);
    const ids: string[] = [];
    for (const [p, name] of [[online, undefined], [reader, undefined], [anon, 'Anônimo']] as const) {
      const { conversationId } = await p.call('customer.request', { domain: c.domain, queueKey: 'faleconosco', ...(name && { name }) });
      await bia.call('service.take', { domain: c.domain, conversationId });
      const m = await bia.call('chat.send', { domain: c.domain, conversationId, clientId: 'x', text: 'Olá' });
      ids.push(conversationId);
      if (p === reader) await reader.call('customer.markRead', { conversationId, uptoSeq: m.seq });
    }
    await online.open();
    clock.advance(61_000);
    await emailOfflineParticipants(mailDeps());
    const participants = await server.db.participant.findMany({ where: { conversationId: { in: ids }, userId: { in: [online.userId, reader.userId, anon.userId] } } });
    expect(participants.map((p) => p.emailedAt)).toEqual([null, null, null]);
  });

  it('mails an attendant who is away, with the link into the app', async () => {
    const c = await company();
    const adminEmail = (await server.db.user.findUniqueOrThrow({ where: { id: c.admin.userId } })).email!;
    const v = await anonymousVisitor(server, sockets);
    const { conversationId } = await v.call('customer.request', { domain: c.domain, queueKey: 'faleconosco', name: 'Vera' });
    await c.admin.call('service.take', { domain: c.domain, conversationId });
    await v.call('customer.send', { conversationId, clientId: 'v', text: 'Oi?' });
    clock.advance(61_000);
    await emailOfflineParticipants(mailDeps());
    expect((await smtp.next(adminEmail)).link).toBe(`${server.url}/i/recent/chat/${conversationId}`);
  });
});
