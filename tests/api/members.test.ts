import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientToServerEvents, ServerToClientEvents } from '../../src/shared/realtime';
import { addMember, createUser, signIn } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/server';
import { startSmtpServer } from '../helpers/smtp';
import { callProcedure } from '../helpers/trpc';

let server: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
const sockets: Socket[] = [];
let n = 0;
const uniq = () => `${Date.now().toString(36).slice(-5)}${++n}`;

beforeAll(async () => {
  smtp = await startSmtpServer({ reject: /^bounce/ });
  server = await startTestServer({ env: { SMTP_URL: smtp.url } });
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await server?.close();
  await smtp?.close();
});

const q = (path: string, input: unknown, cookie?: string) => callProcedure(server.url, path, input, { cookie, type: 'query' });
const mut = (path: string, input: unknown, cookie?: string) => callProcedure(server.url, path, input, { cookie, type: 'mutation' });

async function person(data: { email?: string; anonymous?: boolean } = {}) {
  const user = data.anonymous ? await server.db.user.create({ data: { anonymous: true } }) : await createUser(server.db, { email: data.email });
  return { user, cookie: await signIn(server.db, user.id) };
}

/** A company registered through the real procedure (default groups, queue, profiles). */
async function company() {
  const admin = await person();
  const domain = `m${uniq()}`;
  const res = await mut('company.register', { domain, name: `Company ${uniq()}` }, admin.cookie);
  expect(res.error).toBeUndefined();
  const row = await server.db.company.findUniqueOrThrow({ where: { domain } });
  const adminMember = await server.db.member.findFirstOrThrow({ where: { companyId: row.id, userId: admin.user.id } });
  return { admin, adminMember, domain, company: row };
}

const memberOf = (companyId: string, userId: string) => server.db.member.findUniqueOrThrow({ where: { companyId_userId: { companyId, userId } } });
const flags = async (companyId: string, userId: string) => {
  const m = await memberOf(companyId, userId);
  return { isAdmin: m.isAdmin, profile: m.profile, inviteAccepted: m.inviteAccepted, blocked: m.blocked, removed: m.removed };
};

function openSocket(cookie: string): Promise<Socket<ServerToClientEvents, ClientToServerEvents>> {
  const socket: Socket<ServerToClientEvents, ClientToServerEvents> = connect(server.url, { path: '/socket.io', transports: ['websocket'], extraHeaders: { cookie }, reconnection: false });
  sockets.push(socket);
  return new Promise((resolve, reject) => {
    socket.once('session:ready', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

/** A user who asked to join and is waiting: the start of most lifecycle tests. */
async function waitingMember(c: Awaited<ReturnType<typeof company>>) {
  const p = await person();
  expect((await mut('company.join', { domain: c.domain }, p.cookie)).data).toEqual({ state: 'waiting' });
  return { ...p, member: await memberOf(c.company.id, p.user.id) };
}

describe('asking to join (company.join)', () => {
  it('creates a waiting member and its invite, and notifies every active admin (row and socket)', async () => {
    const c = await company();
    const otherAdmin = await person();
    await addMember(server.db, c.company.id, otherAdmin.user.id, { isAdmin: true });
    const blockedAdmin = await person();
    await addMember(server.db, c.company.id, blockedAdmin.user.id, { isAdmin: true, blocked: true });
    const plain = await person();
    await addMember(server.db, c.company.id, plain.user.id);
    const socket = await openSocket(c.admin.cookie);
    const pushed = new Promise<{ id: string; title: string; subtitle?: string }>((resolve) => socket.once('notification:new', resolve));

    const joiner = await person();
    expect((await mut('company.join', { domain: c.domain }, joiner.cookie)).data).toEqual({ state: 'waiting' });

    expect(await flags(c.company.id, joiner.user.id)).toEqual({ isAdmin: false, profile: 'M01', inviteAccepted: false, blocked: false, removed: false });
    expect(await server.db.invite.findMany({ where: { companyId: c.company.id, userId: joiner.user.id } })).toEqual([
      expect.objectContaining({ accepted: false, approved: false, cancelled: false }),
    ]);
    const notified = await server.db.notification.findMany({ where: { companyId: c.company.id } });
    expect(notified.map((x) => x.userId).sort()).toEqual([c.admin.user.id, otherAdmin.user.id].sort());
    expect(notified.every((x) => x.adminOnly && x.type === 'memberRequest' && x.action === '/i/settings/members')).toBe(true);
    const event = await pushed;
    expect(notified.map((x) => x.id)).toContain(event.id);
    expect(event.subtitle).toContain(c.company.name);

    // The waiting member is kept out with the route to /{emp}/wait.
    expect((await q('company.current', { domain: c.domain }, joiner.cookie)).error).toMatchObject({ code: 'FORBIDDEN', data: { access: 'notAccepted' } });
    // Asking again changes nothing and notifies nobody twice.
    expect((await mut('company.join', { domain: c.domain }, joiner.cookie)).data).toEqual({ state: 'waiting' });
    expect(await server.db.notification.count({ where: { companyId: c.company.id } })).toBe(2);
    expect(await server.db.invite.count({ where: { companyId: c.company.id, userId: joiner.user.id } })).toBe(1);
  });

  it('short-circuits an active member, refuses a blocked one, anonymous users and unknown domains', async () => {
    const c = await company();
    expect((await mut('company.join', { domain: c.domain }, c.admin.cookie)).data).toEqual({ state: 'active' });
    const blocked = await person();
    await addMember(server.db, c.company.id, blocked.user.id, { blocked: true });
    expect((await mut('company.join', { domain: c.domain }, blocked.cookie)).error).toMatchObject({
      code: 'FORBIDDEN',
      message: 'You no longer have access to this organization!',
      data: { access: 'blocked' },
    });
    const anon = await person({ anonymous: true });
    expect((await mut('company.join', { domain: c.domain }, anon.cookie)).error).toMatchObject({ code: 'UNAUTHORIZED' });
    expect((await mut('company.join', { domain: 'nosuchco' }, (await person()).cookie)).error).toMatchObject({ code: 'NOT_FOUND', message: 'Domain not found' });
  });
});

describe('members lifecycle (admin)', () => {
  it('approve: accepted, joinedAt, approver, default group, invite accepted, the user notified', async () => {
    const c = await company();
    const w = await waitingMember(c);
    const res = await mut('members.approve', { domain: c.domain, memberId: w.member.id }, c.admin.cookie);
    expect(res.data).toEqual({ id: w.member.id, state: 'active', isAdmin: false, profile: 'M01' });
    const m = await memberOf(c.company.id, w.user.id);
    expect(m).toMatchObject({ inviteAccepted: true, approverId: c.admin.user.id, joinedAt: expect.any(Date), profile: 'M01', isAdmin: false });
    const memberGroup = await server.db.group.findFirstOrThrow({ where: { companyId: c.company.id, key: 'member' } });
    expect(await server.db.groupMember.count({ where: { memberId: m.id, groupId: memberGroup.id } })).toBe(1);
    expect(await server.db.invite.findFirst({ where: { companyId: c.company.id, userId: w.user.id } })).toMatchObject({ accepted: true, approved: true });
    expect(await server.db.notification.findFirst({ where: { userId: w.user.id } })).toMatchObject({ type: 'memberApproved', action: `/${c.domain}` });
    expect((await q('company.current', { domain: c.domain }, w.cookie)).data).toMatchObject({ me: { isAdmin: false } });
    // Approving twice is refused clearly.
    expect((await mut('members.approve', { domain: c.domain, memberId: w.member.id }, c.admin.cookie)).error).toMatchObject({
      code: 'BAD_REQUEST',
      message: 'This person is not waiting for approval',
    });
  });

  it('refuse: removed flags, access refused, and asking again re-invites', async () => {
    const c = await company();
    const w = await waitingMember(c);
    expect((await mut('members.refuse', { domain: c.domain, memberId: w.member.id }, c.admin.cookie)).data).toMatchObject({ state: 'removed' });
    expect(await flags(c.company.id, w.user.id)).toEqual({ isAdmin: false, profile: 'M01', inviteAccepted: false, blocked: false, removed: true });
    expect((await q('company.current', { domain: c.domain }, w.cookie)).error).toMatchObject({ message: 'You no longer have access to this organization!', data: { access: 'removed' } });
    expect((await mut('company.join', { domain: c.domain }, w.cookie)).data).toEqual({ state: 'waiting' });
    expect(await flags(c.company.id, w.user.id)).toEqual({ isAdmin: false, profile: 'M01', inviteAccepted: false, blocked: false, removed: false });
    expect(await server.db.invite.count({ where: { companyId: c.company.id, userId: w.user.id, accepted: false, cancelled: false } })).toBe(1);
  });

  it('remove: an admin removed and re-invited comes back as a plain member, out of its groups', async () => {
    const c = await company();
    const other = await person();
    const m = await addMember(server.db, c.company.id, other.user.id, { isAdmin: true });
    const group = await server.db.group.findFirstOrThrow({ where: { companyId: c.company.id, key: 'admin' } });
    await server.db.groupMember.create({ data: { groupId: group.id, memberId: m.id } });
    expect((await mut('members.remove', { domain: c.domain, memberId: m.id }, c.admin.cookie)).data).toMatchObject({ state: 'removed', isAdmin: false, profile: 'M01' });
    expect(await server.db.groupMember.count({ where: { memberId: m.id } })).toBe(0);
    await mut('company.join', { domain: c.domain }, other.cookie);
    await mut('members.approve', { domain: c.domain, memberId: m.id }, c.admin.cookie);
    expect(await flags(c.company.id, other.user.id)).toEqual({ isAdmin: false, profile: 'M01', inviteAccepted: true, blocked: false, removed: false });
  });

  it('block keeps the member out; unblock clears isBloqueado and isRemovido', async () => {
    const c = await company();
    const p = await person();
    const m = await addMember(server.db, c.company.id, p.user.id);
    expect((await mut('members.block', { domain: c.domain, memberId: m.id }, c.admin.cookie)).data).toMatchObject({ state: 'blocked' });
    expect((await q('company.current', { domain: c.domain }, p.cookie)).error).toMatchObject({ data: { access: 'blocked' } });
    expect((await mut('members.unblock', { domain: c.domain, memberId: m.id }, c.admin.cookie)).data).toMatchObject({ state: 'active' });
    expect((await q('company.current', { domain: c.domain }, p.cookie)).error).toBeUndefined();

    // Removed then blocked: unblocking clears both, so the person is waiting again.
    await mut('members.remove', { domain: c.domain, memberId: m.id }, c.admin.cookie);
    await mut('members.block', { domain: c.domain, memberId: m.id }, c.admin.cookie);
    await mut('members.unblock', { domain: c.domain, memberId: m.id }, c.admin.cookie);
    expect(await flags(c.company.id, p.user.id)).toEqual({ isAdmin: false, profile: 'M01', inviteAccepted: false, blocked: false, removed: false });
  });

  it('toggleAdmin switches A01/M01 and never leaves the company without an active admin', async () => {
    const c = await company();
    const p = await person();
    const m = await addMember(server.db, c.company.id, p.user.id);
    expect((await mut('members.toggleAdmin', { domain: c.domain, memberId: m.id }, c.admin.cookie)).data).toMatchObject({ isAdmin: true, profile: 'A01' });
    expect((await q('members.list', { domain: c.domain }, p.cookie)).error).toBeUndefined();
    expect((await mut('members.toggleAdmin', { domain: c.domain, memberId: m.id }, c.admin.cookie)).data).toMatchObject({ isAdmin: false, profile: 'M01' });

    const lastAdmin = 'The company needs at least one administrator: make another member admin first';
    for (const action of ['members.toggleAdmin', 'members.block', 'members.remove']) {
      expect((await mut(action, { domain: c.domain, memberId: c.adminMember.id }, c.admin.cookie)).error, action).toMatchObject({ code: 'BAD_REQUEST', message: lastAdmin });
    }
    const m01 = 'M01';
    expect((await mut('members.setProfile', { domain: c.domain, memberId: c.adminMember.id, profileCode: m01 }, c.admin.cookie)).error).toMatchObject({ message: lastAdmin });
    expect(await flags(c.company.id, c.admin.user.id)).toMatchObject({ isAdmin: true, profile: 'A01', blocked: false, removed: false });
    // A waiting member cannot be made admin.
    const w = await waitingMember(c);
    expect((await mut('members.toggleAdmin', { domain: c.domain, memberId: w.member.id }, c.admin.cookie)).error).toMatchObject({ message: 'Only active members can change role' });
  });

  it('two admins demoting each other at once leave one admin', async () => {
    const c = await company();
    const p = await person();
    const m = await addMember(server.db, c.company.id, p.user.id, { isAdmin: true });
    const results = await Promise.all([
      mut('members.toggleAdmin', { domain: c.domain, memberId: m.id }, c.admin.cookie),
      mut('members.toggleAdmin', { domain: c.domain, memberId: c.adminMember.id }, p.cookie),
    ]);
    expect(await server.db.member.count({ where: { companyId: c.company.id, isAdmin: true } })).toBe(1);
    expect(results.filter((r) => r.error).length).toBeLessThanOrEqual(1);
  });

  it('setGroups replaces the groups with the company own ones only', async () => {
    const c = await company();
    const p = await person();
    const m = await addMember(server.db, c.company.id, p.user.id);
    const groups = await server.db.group.findMany({ where: { companyId: c.company.id }, orderBy: { key: 'asc' } });
    expect((await mut('members.setGroups', { domain: c.domain, memberId: m.id, groupIds: groups.map((g) => g.id) }, c.admin.cookie)).error).toBeUndefined();
    const list = (await q('members.list', { domain: c.domain }, c.admin.cookie)).data as { id: string; groups: { label: string }[]; state: string }[];
    expect(list.find((x) => x.id === m.id)).toMatchObject({ state: 'active', groups: expect.arrayContaining([{ value: groups[0]!.id, label: 'admin' }]) });
    await mut('members.setGroups', { domain: c.domain, memberId: m.id, groupIds: [groups[1]!.id] }, c.admin.cookie);
    expect(await server.db.groupMember.findMany({ where: { memberId: m.id }, select: { groupId: true } })).toEqual([{ groupId: groups[1]!.id }]);
  });
});

describe('ids of another company', () => {
  it("every member action on company B's member, as admin of A, is NOT_FOUND and changes nothing", async () => {
    const a = await company();
    const b = await company();
    const w = await waitingMember(b);
    const before = await memberOf(b.company.id, w.user.id);
    for (const action of ['members.approve', 'members.refuse', 'members.remove', 'members.block', 'members.unblock', 'members.toggleAdmin']) {
      const res = await mut(action, { domain: a.domain, memberId: w.member.id }, a.admin.cookie);
      expect(res.error, action).toMatchObject({ code: 'NOT_FOUND', message: 'Member not found' });
    }
    expect((await mut('members.setProfile', { domain: a.domain, memberId: w.member.id, profileCode: 'A01' }, a.admin.cookie)).error).toMatchObject({ code: 'NOT_FOUND' });
    expect((await mut('members.setGroups', { domain: a.domain, memberId: w.member.id, groupIds: [] }, a.admin.cookie)).error).toMatchObject({ code: 'NOT_FOUND' });
    expect(await memberOf(b.company.id, w.user.id)).toEqual(before);

    // And a group of B cannot be given to a member of A.
    const p = await person();
    const m = await addMember(server.db, a.company.id, p.user.id);
    const bGroup = await server.db.group.findFirstOrThrow({ where: { companyId: b.company.id } });
    expect((await mut('members.setGroups', { domain: a.domain, memberId: m.id, groupIds: [bGroup.id] }, a.admin.cookie)).error).toMatchObject({ code: 'NOT_FOUND', message: 'Group not found' });
    expect(await server.db.groupMember.count({ where: { memberId: m.id } })).toBe(0);
  });

  it('non-admins cannot manage members', async () => {
    const c = await company();
    const p = await person();
    await addMember(server.db, c.company.id, p.user.id);
    const w = await waitingMember(c);
    expect((await mut('members.approve', { domain: c.domain, memberId: w.member.id }, p.cookie)).error).toMatchObject({ code: 'FORBIDDEN' });
    expect((await memberOf(c.company.id, w.user.id)).inviteAccepted).toBe(false);
  });
});

describe('invitations by e-mail', () => {
  it('mails the /{emp}/invite link once per person; the invited person comes in directly', async () => {
    const c = await company();
    const email = `new-${uniq()}@example.test`;
    const res = await mut('members.inviteByEmail', { domain: c.domain, email }, c.admin.cookie);
    expect(res.data).toEqual({ alreadyMember: false, sentTo: email });
    const mail = await smtp.next(email);
    expect(mail.link).toBe(`${server.url}/${c.domain}/invite`);
    await mut('members.inviteByEmail', { domain: c.domain, email: email.toUpperCase() }, c.admin.cookie);
    await smtp.next(email);
    expect(await server.db.invite.count({ where: { companyId: c.company.id, email } })).toBe(1);

    // The person signs up later (no account at invite time), proves the address and sees the invite.
    // (An unverified address: tests/api/ownership-proofs.test.ts.)
    const p = await person({ email });
    await server.db.user.update({ where: { id: p.user.id }, data: { emailVerifiedAt: new Date() } });
    const mine = (await q('invites.mine', undefined, p.cookie)).data as { id: string; approved: boolean; company: { domain: string } }[];
    expect(mine).toEqual([expect.objectContaining({ approved: true, company: expect.objectContaining({ domain: c.domain }) })]);
    expect((await mut('company.join', { domain: c.domain }, p.cookie)).data).toEqual({ state: 'active' });
    expect(await flags(c.company.id, p.user.id)).toEqual({ isAdmin: false, profile: 'M01', inviteAccepted: true, blocked: false, removed: false });
    expect(await server.db.invite.findMany({ where: { companyId: c.company.id } })).toEqual([expect.objectContaining({ userId: p.user.id, email, accepted: true })]);
    // Nobody was asked to approve.
    expect(await server.db.notification.count({ where: { companyId: c.company.id, type: 'memberRequest' } })).toBe(0);
    expect((await q('invites.mine', undefined, p.cookie)).data).toEqual([]);
  });

  it('short-circuits an active member; a waiting one is pre-approved', async () => {
    const c = await company();
    const p = await person();
    await addMember(server.db, c.company.id, p.user.id);
    expect((await mut('members.inviteByEmail', { domain: c.domain, email: p.user.email }, c.admin.cookie)).data).toEqual({ alreadyMember: true, sentTo: null });

    const w = await waitingMember(c);
    await server.db.user.update({ where: { id: w.user.id }, data: { emailVerifiedAt: new Date() } });
    expect((await mut('members.inviteByEmail', { domain: c.domain, email: w.user.email }, c.admin.cookie)).data).toMatchObject({ alreadyMember: false });
    await smtp.next(w.user.email!);
    expect(await server.db.invite.count({ where: { companyId: c.company.id, OR: [{ userId: w.user.id }, { email: w.user.email }] } })).toBe(1);
    expect((await mut('company.join', { domain: c.domain }, w.cookie)).data).toEqual({ state: 'active' });
  });

  it("reports a mail failure with the spec's text", async () => {
    const c = await company();
    const email = `bounce-${uniq()}@example.test`;
    const res = await mut('members.inviteByEmail', { domain: c.domain, email }, c.admin.cookie);
    expect(res.error).toMatchObject({ code: 'BAD_GATEWAY', message: `Não foi possivel enviar o e-mail para ${email}` });
  });
});

describe("the user's own invites", () => {
  it('lists pending requests and cancels one: invite, member record and default company go', async () => {
    const c = await company();
    const w = await waitingMember(c);
    await server.db.user.update({ where: { id: w.user.id }, data: { defaultCompanyId: c.company.id } });
    const mine = (await q('invites.mine', undefined, w.cookie)).data as { id: string; approved: boolean }[];
    expect(mine).toEqual([expect.objectContaining({ approved: false })]);

    const stranger = await person();
    expect((await mut('invites.cancel', { inviteId: mine[0]!.id }, stranger.cookie)).error).toMatchObject({ code: 'NOT_FOUND' });
    expect(await server.db.invite.count({ where: { id: mine[0]!.id } })).toBe(1);

    expect((await mut('invites.cancel', { inviteId: mine[0]!.id }, w.cookie)).data).toEqual({ ok: true });
    expect(await server.db.invite.count({ where: { id: mine[0]!.id } })).toBe(0);
    expect(await server.db.member.count({ where: { companyId: c.company.id, userId: w.user.id } })).toBe(0);
    expect((await server.db.user.findUniqueOrThrow({ where: { id: w.user.id } })).defaultCompanyId).toBeNull();
  });

  it('cannot cancel an accepted membership through its invite', async () => {
    const c = await company();
    const w = await waitingMember(c);
    const invite = await server.db.invite.findFirstOrThrow({ where: { companyId: c.company.id, userId: w.user.id } });
    await mut('members.approve', { domain: c.domain, memberId: w.member.id }, c.admin.cookie);
    expect((await mut('invites.cancel', { inviteId: invite.id }, w.cookie)).error).toMatchObject({ code: 'NOT_FOUND' });
    expect((await memberOf(c.company.id, w.user.id)).inviteAccepted).toBe(true);
  });
});
