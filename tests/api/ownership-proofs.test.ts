import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offsetClock } from '../../src/server/clock';
import { createUser, signIn } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/server';
import { startSmsGateway } from '../helpers/sms';
import { startSmtpServer } from '../helpers/smtp';
import { callProcedure } from '../helpers/trpc';

/**
 * Ownership proofs (issue 12): an e-mail invitation, a phone number and a client-company
 * invitation belong to whoever proves them, and a session token never survives a change of
 * identity.
 */
let server: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let sms: Awaited<ReturnType<typeof startSmsGateway>>;
const clock = offsetClock();
let n = 0;
const uniq = () => `${Date.now().toString(36).slice(-5)}${++n}`;
/** Each test comes from its own address, so per-IP limits do not leak between tests. */
const ip = () => `10.7.${Math.floor(n / 250)}.${n % 250}`;
/** A fresh Brazilian mobile number per call. */
const phoneNumber = () => `119${randomInt(10_000_000, 100_000_000)}`;

beforeAll(async () => {
  [smtp, sms] = await Promise.all([startSmtpServer(), startSmsGateway()]);
  server = await startTestServer({ clock, env: { SMTP_URL: smtp.url, SMS_URL: sms.url, SMS_TOKEN: sms.token } });
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
  await sms?.close();
});

/** A browser: keeps its session cookie between calls and comes from its own address. */
function browser(address = ip(), cookie?: string) {
  const call = async (path: string, input: unknown = undefined, type: 'query' | 'mutation' = 'mutation') => {
    const res = await callProcedure(server.url, path, input, { cookie, type, headers: { 'x-forwarded-for': address } });
    const sid = res.cookies.find((c) => c.startsWith('atende_sid='));
    if (sid) cookie = sid === 'atende_sid=' ? undefined : sid;
    return res;
  };
  return { call, get cookie() { return cookie; } };
}
const me = async (cookie: string | undefined) => ((await callProcedure(server.url, 'auth.me', undefined, { cookie, type: 'query' })).data as any).user;

/** A company registered through the real procedure, with its signed-in admin. */
async function registered(domain = `p${uniq()}`) {
  const admin = await createUser(server.db);
  const cookie = await signIn(server.db, admin.id);
  const res = await callProcedure(server.url, 'company.register', { domain, name: `Company ${uniq()}` }, { cookie, type: 'mutation' });
  expect(res.error).toBeUndefined();
  return { admin, cookie, domain, company: await server.db.company.findUniqueOrThrow({ where: { domain } }) };
}
const mut = (path: string, input: unknown, cookie?: string) => callProcedure(server.url, path, input, { cookie, type: 'mutation' });
const q = (path: string, input: unknown, cookie?: string) => callProcedure(server.url, path, input, { cookie, type: 'query' });

describe('an e-mail invitation belongs to the owner of the address', () => {
  it('is accepted only once the address is verified; the verification is sent on the spot (verifyEmail off)', async () => {
    const config = await server.db.appConfig.findUniqueOrThrow({ where: { id: 1 } });
    expect(config.verifyEmail).toBe(false);
    const c = await registered();
    const email = `invited-${uniq()}@example.test`;
    expect((await mut('members.inviteByEmail', { domain: c.domain, email }, c.cookie)).data).toMatchObject({ sentTo: email });
    await smtp.next(email);

    // Someone signs up with the invited address without owning it.
    const b = browser();
    expect((await b.call('auth.signUp', { name: 'Squatter', email, password: 'Vq7-lantern', passwordConfirm: 'Vq7-lantern' })).status).toBe(200);
    expect((await b.call('invites.mine', undefined, 'query')).data).toEqual([]);
    const refused = await b.call('company.join', { domain: c.domain });
    expect(refused.error).toMatchObject({ code: 'FORBIDDEN', message: 'Verifique o e-mail para continuar!' });
    const userId = (await me(b.cookie)).id;
    expect(await server.db.member.count({ where: { companyId: c.company.id, userId } })).toBe(0);

    // The owner of the mailbox follows the link sent on the spot, and the invitation opens.
    const link = new URL((await smtp.next(email)).link);
    expect(link.pathname).toBe('/i/emailVerification');
    expect(link.searchParams.get('redirect')).toBe(`/${c.domain}/invite`);
    expect((await browser().call('auth.verifyEmail', { token: link.searchParams.get('token') })).status).toBe(200);
    expect((await b.call('company.join', { domain: c.domain })).data).toEqual({ state: 'active' });
  });

  it('also holds for an account that existed when the admin invited it', async () => {
    const c = await registered();
    const user = await createUser(server.db);
    const cookie = await signIn(server.db, user.id);
    await mut('members.inviteByEmail', { domain: c.domain, email: user.email }, c.cookie);
    await smtp.next(user.email!);
    expect((await mut('company.join', { domain: c.domain }, cookie)).error?.message).toBe('Verifique o e-mail para continuar!');
    expect((await smtp.next(user.email!)).link).toContain('/i/emailVerification');
    await server.db.user.update({ where: { id: user.id }, data: { emailVerifiedAt: new Date() } });
    expect((await mut('company.join', { domain: c.domain }, cookie)).data).toEqual({ state: 'active' });
  });
});

describe('a phone number belongs to whoever proves it', () => {
  it('is attached to an account only after the SMS code comes back', async () => {
    const b = browser();
    await b.call('auth.signUp', { name: 'Ana', email: `ana-${uniq()}@example.test`, password: 'Vq7-lantern', passwordConfirm: 'Vq7-lantern' });
    const phone = phoneNumber();
    const full = `55${phone}`;

    const typed = await b.call('account.update', { name: 'Ana', phone });
    expect(typed.error).toMatchObject({ code: 'BAD_REQUEST', message: 'Confirm the new number with the code sent to it by SMS.' });
    expect((await me(b.cookie)).phone).toBeNull();

    expect((await b.call('account.requestPhoneChange', { phone })).data).toMatchObject({ attempt: 1 });
    const code = sms.lastCode(full);
    expect((await b.call('account.confirmPhoneChange', { phone, code: code === '000000' ? '111111' : '000000' })).error?.message).toBe('Invalid code');
    expect((await me(b.cookie)).phone).toBeNull();
    const confirmed = await b.call('account.confirmPhoneChange', { phone, code });
    expect(confirmed.data).toMatchObject({ user: { phone: full, phoneVerified: true } });
    // Sending the same number back with the rest of the form is no change; an empty one removes it.
    expect((await b.call('account.update', { name: 'Ana S.', phone })).status).toBe(200);
    expect((await b.call('account.update', { phone: '' })).data).toMatchObject({ user: { phone: null, phoneVerified: false } });
  });

  it('never signs in to an account whose number was typed but not proven', async () => {
    // An account that holds a number nobody proved (typed before proofs existed).
    const phone = phoneNumber();
    const full = `55${phone}`;
    const victim = await server.db.user.create({ data: { name: 'Victim', email: `victim-${uniq()}@example.test`, phone: full } });

    const owner = browser();
    await owner.call('auth.requestPhoneCode', { phone });
    const res = await owner.call('auth.verifyPhoneCode', { phone, code: sms.lastCode(full) });
    expect(res.status).toBe(200);
    expect((res.data as any).user.id).not.toBe(victim.id);
    expect((res.data as any).user.phone).toBe(full);
    // The number went to whoever proved it.
    expect((await server.db.user.findUniqueOrThrow({ where: { id: victim.id } })).phone).toBeNull();
  });

  it('signs in to the account that proved the number, and a proven number is not taken by another account', async () => {
    const phone = phoneNumber();
    const full = `55${phone}`;
    const first = browser();
    await first.call('auth.requestPhoneCode', { phone });
    const account = ((await first.call('auth.verifyPhoneCode', { phone, code: sms.lastCode(full) })).data as any).user;

    clock.advance(2 * 60_000);
    const again = browser();
    await again.call('auth.requestPhoneCode', { phone });
    expect(((await again.call('auth.verifyPhoneCode', { phone, code: sms.lastCode(full) })).data as any).user.id).toBe(account.id);

    clock.advance(4 * 60_000);
    const other = browser();
    await other.call('auth.signUp', { name: 'Other', email: `other-${uniq()}@example.test`, password: 'Vq7-lantern', passwordConfirm: 'Vq7-lantern' });
    await other.call('account.requestPhoneChange', { phone });
    const taken = await other.call('account.confirmPhoneChange', { phone, code: sms.lastCode(full) });
    expect(taken.error).toMatchObject({ code: 'CONFLICT', message: 'This phone number is already in use' });
  });
});

describe('no session token survives a change of identity', () => {
  it('an anonymous visitor who becomes a guest gets a new token; the old one opens nothing', async () => {
    const b = browser();
    await b.call('auth.anonymous');
    const anonymousCookie = b.cookie;
    const guest = (await b.call('auth.guest', { name: 'Visitor' })).data as any;
    expect(b.cookie).not.toBe(anonymousCookie);
    expect(await me(b.cookie)).toMatchObject({ id: guest.user.id, guest: true });
    expect(await me(anonymousCookie)).toBeNull();
  });

  it('signing in from an anonymous or a guest session ends that session', async () => {
    const email = `account-${uniq()}@example.test`;
    await browser().call('auth.signUp', { name: 'Owner', email, password: 'Vq7-lantern', passwordConfirm: 'Vq7-lantern' });

    const anon = browser();
    await anon.call('auth.anonymous');
    const anonymousCookie = anon.cookie;
    expect((await anon.call('auth.signIn', { email, password: 'Vq7-lantern' })).status).toBe(200);
    expect(anon.cookie).not.toBe(anonymousCookie);
    expect(await me(anonymousCookie)).toBeNull();

    const guest = browser();
    await guest.call('auth.guest', { name: 'Visitor' });
    const guestCookie = guest.cookie;
    expect((await guest.call('auth.signIn', { email, password: 'Vq7-lantern' })).status).toBe(200);
    expect(await me(guest.cookie)).toMatchObject({ email });
    expect(await me(guestCookie)).toBeNull();
  });
});

describe('a client-company invitation to a domain that does not exist yet', () => {
  it('is not claimed by whoever registers the domain later until the inviting company confirms', async () => {
    const origin = await registered();
    const later = `z${uniq()}`;
    const email = `client-${uniq()}@example.test`;
    expect((await mut('clients.invite', { domain: origin.domain, clientDomain: later, email }, origin.cookie)).data).toEqual({ alreadyClient: false, sentTo: email });
    await smtp.next(email);
    expect((await q('clients.list', { domain: origin.domain }, origin.cookie)).data).toEqual([
      expect.objectContaining({ clientDomain: later, state: 'pending', needsConfirmation: true, canConfirm: false }),
    ]);
    // Nothing to confirm while nobody holds the domain.
    expect((await mut('clients.confirm', { domain: origin.domain, clientDomain: later }, origin.cookie)).error).toMatchObject({
      code: 'BAD_REQUEST',
      message: 'No company has registered this domain yet',
    });

    // A stranger registers the domain and accepts: the link does not take effect.
    const stranger = await registered(later);
    const accepted = await mut('clients.accept', { domain: later, originDomain: origin.domain }, stranger.cookie);
    expect(accepted.data).toMatchObject({ accepted: false, state: 'awaitingConfirmation' });
    const link = () => server.db.clientCompanyLink.findUniqueOrThrow({ where: { companyId_clientDomain: { companyId: origin.company.id, clientDomain: later } } });
    expect((await link()).accepted).toBe(false);
    expect((await q('clients.invitations', { domain: later }, stranger.cookie)).data).toEqual([
      expect.objectContaining({ originDomain: origin.domain, accepted: false, state: 'awaitingConfirmation' }),
    ]);
    // Inviting again does not vouch for the newcomer.
    await mut('clients.invite', { domain: origin.domain, clientDomain: later, email }, origin.cookie);
    await smtp.next(email);
    expect((await link()).accepted).toBe(false);

    // Only the inviting company's admins confirm; the newcomer cannot confirm for them.
    expect((await mut('clients.confirm', { domain: later, clientDomain: later }, stranger.cookie)).error).toMatchObject({ code: 'NOT_FOUND' });
    expect((await q('clients.list', { domain: origin.domain }, origin.cookie)).data).toEqual([
      expect.objectContaining({ clientDomain: later, name: stranger.company.name, state: 'awaitingConfirmation', canConfirm: true }),
    ]);
    expect((await mut('clients.confirm', { domain: origin.domain, clientDomain: later }, origin.cookie)).data).toEqual({ clientDomain: later, state: 'accepted' });
    expect((await link()).accepted).toBe(true);
  });

  it('an invitation confirmed before acceptance takes effect when the client accepts; an existing domain needs no confirmation', async () => {
    const origin = await registered();
    const later = `y${uniq()}`;
    await mut('clients.invite', { domain: origin.domain, clientDomain: later, email: `c-${uniq()}@example.test` }, origin.cookie);
    const client = await registered(later);
    expect((await mut('clients.confirm', { domain: origin.domain, clientDomain: later }, origin.cookie)).data).toEqual({ clientDomain: later, state: 'pending' });
    expect((await mut('clients.accept', { domain: later, originDomain: origin.domain }, client.cookie)).data).toMatchObject({ accepted: true, state: 'accepted' });

    const existing = await registered();
    await mut('clients.invite', { domain: origin.domain, clientDomain: existing.domain, email: `e-${uniq()}@example.test` }, origin.cookie);
    expect((await mut('clients.accept', { domain: existing.domain, originDomain: origin.domain }, existing.cookie)).data).toMatchObject({ accepted: true });
  });
});
