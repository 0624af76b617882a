import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offsetClock } from '../../src/server/clock';
import { purgeExpiredGuests } from '../../src/server/modules/identity/service';
import { GUEST_ACCOUNT_TTL_MS } from '../../src/shared/constants';
import { addMember, createCompany, createUser } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/server';
import { startSmsGateway } from '../helpers/sms';
import { startSmtpServer } from '../helpers/smtp';
import { callProcedure } from '../helpers/trpc';

let server: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let sms: Awaited<ReturnType<typeof startSmsGateway>>;
const clock = offsetClock();
let n = 0;
const email = () => `person${++n}-${Date.now()}@example.test`;
/** Each test gets its own client address, so the per-IP limits of one test do not leak into others. */
const ip = () => `10.1.${Math.floor(n / 250)}.${n % 250}`;

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
function browser(address = ip()) {
  let cookie: string | undefined;
  const call = async (path: string, input: unknown = undefined, type: 'query' | 'mutation' = 'mutation') => {
    const res = await callProcedure(server.url, path, input, { cookie, type, headers: { 'x-forwarded-for': address } });
    const sid = res.cookies.find((c) => c.startsWith('atende_sid='));
    if (sid) cookie = sid === 'atende_sid=' ? undefined : sid;
    return res;
  };
  return { call, get cookie() { return cookie; } };
}

const signUpInput = (mail: string, extra: Record<string, unknown> = {}) => ({ name: 'Ana Souza', email: mail, password: 'Lantern-42', passwordConfirm: 'Lantern-42', ...extra });

describe('sign up with e-mail and password', () => {
  it('creates the account, hashes the password with argon2id and signs in', async () => {
    const b = browser();
    const mail = email();
    const res = await b.call('auth.signUp', signUpInput(mail));
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ user: { email: mail, name: 'Ana Souza', anonymous: false } });
    const row = await server.db.user.findUniqueOrThrow({ where: { email: mail } });
    expect(row.passwordHash).toMatch(/^\$argon2id\$/);
    expect((await b.call('auth.me', undefined, 'query')).data).toMatchObject({ user: { email: mail } });
  });

  it.each([
    [{ email: 'not-an-email' }, 'Invalid email'],
    [{ password: '12345', passwordConfirm: '12345' }, 'Password too short, minimum 6 characters!'],
    [{ passwordConfirm: 'different' }, 'Passwords do not match'],
  ])('refuses %j with the spec text', async (override, message) => {
    const res = await browser().call('auth.signUp', signUpInput(email(), override));
    expect(res.status).toBe(400);
    expect(res.error?.message).toContain(message);
  });

  it("refuses an e-mail already in use with 'Email is already in use!' and writes nothing", async () => {
    const mail = email();
    await browser().call('auth.signUp', signUpInput(mail));
    const before = await server.db.user.count();
    const res = await browser().call('auth.signUp', signUpInput(mail.toUpperCase()));
    expect(res.status).toBe(409);
    expect(res.error?.message).toBe('Email is already in use!');
    expect(await server.db.user.count()).toBe(before);
  });
});

describe('sign in and out', () => {
  it('signs in with the right password and out again', async () => {
    const mail = email();
    await browser().call('auth.signUp', signUpInput(mail));
    const b = browser();
    const res = await b.call('auth.signIn', { email: mail, password: 'Lantern-42' });
    expect(res.status).toBe(200);
    expect(b.cookie).toBeDefined();
    const out = await b.call('auth.signOut');
    expect(out.status).toBe(200);
    expect((await callProcedure(server.url, 'auth.me', undefined, { cookie: res.cookies[0] })).data).toMatchObject({ user: null });
  });

  // An unknown user and a wrong password get one answer: tests/api/sign-in-privacy.test.ts.
  it("answers a wrong password with 'Invalid password'", async () => {
    const mail = email();
    await browser().call('auth.signUp', signUpInput(mail));
    expect((await browser().call('auth.signIn', { email: mail, password: 'wrong-one' })).error?.message).toBe('Invalid password');
  });

  it('slows down repeated failures from one address with 429 and a clear message', async () => {
    const mail = email();
    await browser().call('auth.signUp', signUpInput(mail));
    const address = ip();
    const results = [];
    for (let i = 0; i < 6; i++) results.push(await browser(address).call('auth.signIn', { email: mail, password: 'wrong-one' }));
    expect(results.slice(0, 5).every((r) => r.status === 401)).toBe(true);
    expect(results[5]!.status).toBe(429);
    expect(results[5]!.error?.message).toMatch(/Too many attempts\. Please wait \d+ minutes? and try again\./);
  });

  it('limits sign-in attempts per IP across accounts', async () => {
    const address = ip();
    let last;
    for (let i = 0; i < 31; i++) last = await browser(address).call('auth.signIn', { email: email(), password: 'whatever' });
    expect(last!.status).toBe(429);
  });

  it('limits sign-ups per IP, with the wait in the error data, apart from anonymous visitors', async () => {
    const address = ip();
    // Many anonymous visitors behind one address do not use up its sign-ups.
    for (let i = 0; i < 40; i++) expect((await browser(address).call('auth.anonymous')).status).toBe(200);
    const results = [];
    for (let i = 0; i < 31; i++) results.push(await browser(address).call('auth.signUp', signUpInput(email())));
    expect(results.slice(0, 30).map((r) => r.status)).toEqual(Array(30).fill(200));
    expect(results[30]!.status).toBe(429);
    expect(results[30]!.error?.data.retryAfterMs).toBeGreaterThan(59 * 60_000);
  });
});

describe('password recovery', () => {
  it('mails a single-use link that sets the password and ends the old sessions', async () => {
    const mail = email();
    const first = browser();
    await first.call('auth.signUp', signUpInput(mail));
    const res = await browser().call('auth.requestPasswordReset', { email: mail });
    expect(res.data).toEqual({ sentTo: mail });

    const received = await smtp.next(mail);
    expect(received.subject).toBe('Reset your password');
    const token = new URL(received.link).searchParams.get('token')!;
    expect(new URL(received.link).pathname).toBe('/i/login/mail/recovery');

    const b = browser();
    const reset = await b.call('auth.resetPassword', { token, password: 'newsecret', passwordConfirm: 'newsecret' });
    expect(reset.status).toBe(200);
    expect((await first.call('auth.me', undefined, 'query')).data).toMatchObject({ user: null });
    expect((await b.call('auth.me', undefined, 'query')).data).toMatchObject({ user: { email: mail } });
    expect((await browser().call('auth.signIn', { email: mail, password: 'newsecret' })).status).toBe(200);

    const again = await browser().call('auth.resetPassword', { token, password: 'another-42', passwordConfirm: 'another-42' });
    expect(again.error?.message).toBe('This link has expired or was already used.');
  });

  it('refuses an expired link', async () => {
    const mail = email();
    await browser().call('auth.signUp', signUpInput(mail));
    await browser().call('auth.requestPasswordReset', { email: mail });
    const token = new URL((await smtp.next(mail)).link).searchParams.get('token')!;
    clock.advance(61 * 60_000);
    const res = await browser().call('auth.resetPassword', { token, password: 'newsecret', passwordConfirm: 'newsecret' });
    expect(res.error?.message).toBe('This link has expired or was already used.');
  });

  it('answers an unknown e-mail as a known one, and mails nothing', async () => {
    const unknown = email();
    expect((await browser().call('auth.requestPasswordReset', { email: unknown })).data).toEqual({ sentTo: unknown });
  });
});

describe('e-mail verification', () => {
  it('is asked for when AppConfig.verifyEmail is on, and the mailed link verifies', async () => {
    await server.db.appConfig.update({ where: { id: 1 }, data: { verifyEmail: true } });
    try {
      const mail = email();
      const b = browser();
      const res = await b.call('auth.signUp', signUpInput(mail));
      expect(res.data).toMatchObject({ app: { verifyEmail: true }, user: { emailVerified: false, needsEmailVerification: true } });

      // A company refuses an unverified member while verification is on.
      const company = await createCompany(server.db, (await createUser(server.db)).id);
      await addMember(server.db, company.id, (res.data as any).user.id);
      const refused = await b.call('company.current', { domain: company.domain }, 'query');
      expect(refused.status).toBe(403);
      expect(refused.error?.message).toBe('Verifique o e-mail para continuar!');

      const link = new URL((await smtp.next(mail)).link);
      expect(link.pathname).toBe('/i/emailVerification');
      const verified = await browser().call('auth.verifyEmail', { token: link.searchParams.get('token') });
      expect(verified.data).toEqual({ email: mail });
      expect((await b.call('auth.me', undefined, 'query')).data).toMatchObject({ user: { emailVerified: true, needsEmailVerification: false } });
      expect((await b.call('company.current', { domain: company.domain }, 'query')).status).toBe(200);
    } finally {
      await server.db.appConfig.update({ where: { id: 1 }, data: { verifyEmail: false } });
    }
  });
});

describe('phone sign-in', () => {
  it('sends a 6-digit code by SMS and signs in with it', async () => {
    const b = browser();
    const sent = await b.call('auth.requestPhoneCode', { phone: '(11) 98765-4321' });
    expect(sent.data).toEqual({ attempt: 1, resendInMs: 90_000 });
    const code = sms.lastCode('5511987654321');
    expect((await b.call('auth.verifyPhoneCode', { phone: '11987654321', code: code === '000000' ? '111111' : '000000' })).error?.message).toBe('Invalid code');
    const res = await b.call('auth.verifyPhoneCode', { phone: '11987654321', code });
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ user: { phone: '5511987654321' } });
    expect((await b.call('auth.verifyPhoneCode', { phone: '11987654321', code })).error?.message).toBe('This code has expired. Request a new one.');
  });

  it('makes the resend wait 90 s times the attempt number', async () => {
    const b = browser();
    const phone = '1133224455';
    expect((await b.call('auth.requestPhoneCode', { phone })).data).toEqual({ attempt: 1, resendInMs: 90_000 });
    const early = await b.call('auth.requestPhoneCode', { phone });
    expect(early.status).toBe(429);
    expect(early.error?.message).toMatch(/^Wait \d+ seconds before asking for a new code\.$/);
    expect(early.error?.data.retryAfterMs).toBeGreaterThan(80_000);
    clock.advance(90_000);
    expect((await b.call('auth.requestPhoneCode', { phone })).data).toEqual({ attempt: 2, resendInMs: 180_000 });
    clock.advance(90_000);
    expect((await b.call('auth.requestPhoneCode', { phone })).status).toBe(429);
    clock.advance(90_000);
    expect((await b.call('auth.requestPhoneCode', { phone })).data).toEqual({ attempt: 3, resendInMs: 270_000 });
  });

  it('refuses a malformed phone number', async () => {
    const res = await browser().call('auth.requestPhoneCode', { phone: '12' });
    expect(res.error?.message).toContain('Invalid phone number');
  });
});

describe('anonymous users, guests and linking', () => {
  it('signs a first visitor in anonymously, once', async () => {
    const b = browser();
    const first = await b.call('auth.anonymous');
    expect(first.data).toMatchObject({ user: { anonymous: true } });
    const again = await b.call('auth.anonymous');
    expect((again.data as any).user.id).toBe((first.data as any).user.id);
  });

  it('keeps the anonymous user (same id) when it signs up', async () => {
    const b = browser();
    const anon = (await b.call('auth.anonymous')).data as any;
    const res = await b.call('auth.signUp', signUpInput(email()));
    expect((res.data as any).user.id).toBe(anon.user.id);
    expect((res.data as any).user.anonymous).toBe(false);
  });

  it('moves what the anonymous user had to the account it signs in to, then deletes it', async () => {
    const mail = email();
    const owner = browser();
    const account = (await owner.call('auth.signUp', signUpInput(mail))).data as any;
    const b = browser();
    const anon = (await b.call('auth.anonymous')).data as any;
    const company = await createCompany(server.db, (await createUser(server.db)).id);
    await server.db.invite.create({ data: { companyId: company.id, userId: anon.user.id } });

    // Signing up with the taken e-mail is what makes the client offer 'Vincular Contas'.
    expect((await b.call('auth.signUp', signUpInput(mail))).error?.message).toBe('Email is already in use!');
    const linked = await b.call('auth.signIn', { email: mail, password: 'Lantern-42' });
    expect((linked.data as any).user.id).toBe(account.user.id);
    expect(await server.db.user.findUnique({ where: { id: anon.user.id } })).toBeNull();
    expect(await server.db.invite.findFirst({ where: { companyId: company.id } })).toMatchObject({ userId: account.user.id });
  });

  it('gives a guest an account that a job removes 24 h after creation, with its sessions', async () => {
    const b = browser();
    const guest = (await b.call('auth.guest', { name: 'Visitor' })).data as any;
    expect(guest.user).toMatchObject({ name: 'Visitor', guest: true, anonymous: false });
    expect(new Date(guest.user.guestExpiresAt).getTime() - clock.now().getTime()).toBeGreaterThan(GUEST_ACCOUNT_TTL_MS - 5000);

    clock.advance(GUEST_ACCOUNT_TTL_MS - 60_000);
    expect(await purgeExpiredGuests({ db: server.db, clock })).toBe(0);
    expect((await b.call('auth.me', undefined, 'query')).data).toMatchObject({ user: { id: guest.user.id } });

    clock.advance(2 * 60_000);
    // Past its 24 h the session no longer counts, even before the job runs.
    expect((await b.call('auth.me', undefined, 'query')).data).toMatchObject({ user: null });
    expect(await purgeExpiredGuests({ db: server.db, clock })).toBeGreaterThanOrEqual(1);
    expect(await server.db.user.findUnique({ where: { id: guest.user.id } })).toBeNull();
    expect(await server.db.session.count({ where: { userId: guest.user.id } })).toBe(0);
  });
});

describe('the account page', () => {
  it('lists the sessions and revokes one, and only the caller can', async () => {
    const mail = email();
    const a = browser();
    await a.call('auth.signUp', signUpInput(mail));
    const other = browser();
    await other.call('auth.signIn', { email: mail, password: 'Lantern-42' });
    const sessions = (await a.call('account.sessions', undefined, 'query')).data as any[];
    expect(sessions).toHaveLength(2);
    expect(sessions.filter((s) => s.current)).toHaveLength(1);
    const otherSession = sessions.find((s) => !s.current);

    const stranger = browser();
    await stranger.call('auth.signUp', signUpInput(email()));
    await stranger.call('account.revokeSession', { id: otherSession.id });
    expect((await other.call('auth.me', undefined, 'query')).data).toMatchObject({ user: { email: mail } });

    await a.call('account.revokeSession', { id: otherSession.id });
    expect((await other.call('auth.me', undefined, 'query')).data).toMatchObject({ user: null });
  });

  it('updates name, language, presence and the sound flags (allowed while unset)', async () => {
    const b = browser();
    const me = (await b.call('auth.signUp', signUpInput(email()))).data as any;
    expect(me.user.settings).toEqual({ playMessagensReceive: true, playFila: true, playNotificationFila: true });
    const res = await b.call('account.update', { name: 'Ana S.', language: 'pt', presence: 'beRightBack', settings: { playFila: false } });
    expect(res.data).toMatchObject({ user: { name: 'Ana S.', language: 'pt', presence: 'beRightBack', settings: { playFila: false, playMessagensReceive: true } } });
    expect((await b.call('account.update', { presence: 'away' })).status).toBe(400);
  });

  it('needs a session', async () => {
    expect((await callProcedure(server.url, 'account.sessions', undefined)).status).toBe(401);
  });
});

describe('avatar upload', () => {
  const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000' + '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082', 'hex');

  it('stores an image, serves it through a short-lived link, and replaces the old one', async () => {
    const b = browser();
    const me = (await b.call('auth.signUp', signUpInput(email()))).data as any;
    const put = (body: Buffer, type = 'image/png') =>
      // fetch takes typed arrays, not Node Buffers.
      fetch(`${server.url}/uploads/avatar`, { method: 'PUT', headers: { cookie: b.cookie!, 'content-type': type }, body: new Blob([new Uint8Array(body)]) });

    expect((await put(png)).status).toBe(200);
    const first = await server.db.user.findUniqueOrThrow({ where: { id: me.user.id } });
    const redirect = await fetch(`${server.url}/avatars/${me.user.id}`, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    const image = await fetch(redirect.headers.get('location')!);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await image.arrayBuffer())).toEqual(png);

    expect((await put(png)).status).toBe(200);
    await expect(server.server.deps.storage.stat(first.avatarKey!)).rejects.toThrow();
  });

  it('refuses a file that is not an image, whatever it claims to be', async () => {
    const b = browser();
    await b.call('auth.signUp', signUpInput(email()));
    const res = await fetch(`${server.url}/uploads/avatar`, {
      method: 'PUT',
      headers: { cookie: b.cookie!, 'content-type': 'image/png' },
      body: new Blob(['<html><script>alert(1)</script></html>']),
    });
    expect(res.status).toBe(415);
    expect(await res.json()).toEqual({ error: 'The file must be an image (PNG, JPEG, GIF or WebP)' });
  });

  it('refuses an anonymous upload and an image over 5 MB', async () => {
    expect((await fetch(`${server.url}/uploads/avatar`, { method: 'PUT', body: new Blob([new Uint8Array(png)]) })).status).toBe(401);
    const b = browser();
    await b.call('auth.signUp', signUpInput(email()));
    const big = Buffer.concat([png, Buffer.alloc(5 * 1024 * 1024)]);
    const res = await fetch(`${server.url}/uploads/avatar`, { method: 'PUT', headers: { cookie: b.cookie! }, body: new Blob([new Uint8Array(big)]) });
    expect(res.status).toBe(413);
  });
});
