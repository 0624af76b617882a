import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offsetClock } from '../../src/server/clock';
import { JOBS } from '../../src/server/jobs';
import { startTestServer, type TestServer } from '../helpers/server';
import { startSmtpServer } from '../helpers/smtp';
import { callProcedure } from '../helpers/trpc';

/**
 * Passwords (issue 12): the spec's minimum of 6, no common password, not the e-mail; failed
 * sign-ins slow down the account + address pair with growing waits instead of locking the owner out.
 */
let server: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
const clock = offsetClock();
let n = 0;
const email = () => `pw${++n}-${Date.now()}@example.test`;
let addresses = 0;
const ip = () => `10.6.${Math.floor(++addresses / 250)}.${addresses % 250}`;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ clock, env: { SMTP_URL: smtp.url } });
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

const call = (path: string, input: unknown, address = ip()) =>
  callProcedure(server.url, path, input, { type: 'mutation', headers: { 'x-forwarded-for': address } });
const signUp = (mail: string, password: string) => call('auth.signUp', { name: 'Caio', email: mail, password, passwordConfirm: password });

describe('choosing a password', () => {
  it.each(['password', '123456789', 'qwerty123', 'Iloveyou', 'abc123'])('refuses the common password %j and creates nothing', async (password) => {
    const mail = email();
    const res = await signUp(mail, password);
    expect(res.status).toBe(400);
    expect(res.error?.message).toBe('This password is too common. Choose another one.');
    expect(await server.db.user.count({ where: { email: mail } })).toBe(0);
  });

  it('refuses the e-mail as the password whatever its case, keeps the spec minimum of 6, accepts an uncommon password', async () => {
    const mail = email();
    expect((await signUp(mail, mail.toUpperCase())).error?.message).toBe('The password cannot be your e-mail.');
    expect((await signUp(email(), 'Xq9!z')).error?.message).toContain('Password too short, minimum 6 characters!');
    expect((await signUp(mail, 'Xq9!zk')).status).toBe(200);
  });

  it('applies the same rules to a new password set through the recovery link, which stays usable', async () => {
    const mail = email();
    await signUp(mail, 'Lantern-42');
    await call('auth.requestPasswordReset', { email: mail });
    const token = new URL((await smtp.next(mail)).link).searchParams.get('token')!;
    expect((await call('auth.resetPassword', { token, password: 'password1', passwordConfirm: 'password1' })).error?.message).toBe(
      'This password is too common. Choose another one.',
    );
    expect((await call('auth.resetPassword', { token, password: mail, passwordConfirm: mail })).error?.message).toBe('The password cannot be your e-mail.');
    // A refused password did not spend the link.
    expect((await call('auth.resetPassword', { token, password: 'Harbor-77', passwordConfirm: 'Harbor-77' })).status).toBe(200);
  });
});

describe('failed sign-ins', () => {
  it('slow down the account + address pair with growing waits; the owner elsewhere is never locked out', async () => {
    const mail = email();
    await signUp(mail, 'Lantern-42');
    const attacker = ip();
    const attempt = (password: string, address = attacker) => call('auth.signIn', { email: mail, password }, address);

    for (let i = 0; i < 5; i++) expect((await attempt('wrong-guess')).status).toBe(401);
    const first = await attempt('wrong-guess');
    expect(first.status).toBe(429);
    expect(first.error?.message).toBe('Too many attempts. Please wait 1 minute and try again.');
    expect(first.error?.data.retryAfterMs).toBeLessThanOrEqual(60_000);

    // The owner, from his own address, signs in while the stranger waits.
    expect((await attempt('Lantern-42', ip())).status).toBe(200);

    // Each further failure doubles the wait: 1, 2, 4 minutes...
    clock.advance(60_000);
    expect((await attempt('wrong-guess')).status).toBe(401);
    const second = await attempt('wrong-guess');
    expect(second.error?.data.retryAfterMs).toBeGreaterThan(60_000);
    expect(second.error?.data.retryAfterMs).toBeLessThanOrEqual(120_000);
    clock.advance(120_000);
    expect((await attempt('wrong-guess')).status).toBe(401);
    expect((await attempt('wrong-guess')).error?.data.retryAfterMs).toBeGreaterThan(120_000);

    // Not a 15-minute flat block: after the wait the right password gets in, and the count is forgotten.
    clock.advance(4 * 60_000);
    expect((await attempt('Lantern-42')).status).toBe(200);
    expect((await attempt('wrong-guess')).status).toBe(401);
  });

  it('are remembered by the hourly purge of spent limits, so the waits keep growing', async () => {
    const mail = email();
    await signUp(mail, 'Lantern-42');
    const address = ip();
    const attempt = () => call('auth.signIn', { email: mail, password: 'wrong-guess' }, address);
    for (let i = 0; i < 5; i++) await attempt();
    expect((await attempt()).status).toBe(429);
    clock.advance(61_000);
    const purge = JOBS.find((j) => j.name === 'purge spent rate-limit windows and e-mail links')!;
    await purge.run({ ...server.server.deps, clock });
    // The sixth failure is counted on top of the five: the next wait is 2 minutes, not a fresh start.
    expect((await attempt()).status).toBe(401);
    expect((await attempt()).error?.data.retryAfterMs).toBeGreaterThan(60_000);
  });

  it('cannot be raced: parallel guesses past the free ones are refused', async () => {
    const mail = email();
    await signUp(mail, 'Lantern-42');
    const address = ip();
    const results = await Promise.all(Array.from({ length: 12 }, () => call('auth.signIn', { email: mail, password: 'wrong-guess' }, address)));
    expect(results.map((r) => r.status).sort(), JSON.stringify(results.map((r) => r.error?.message))).toEqual([...Array(5).fill(401), ...Array(7).fill(429)]);
    expect(results.filter((r) => r.status === 401)).toHaveLength(5);
    expect(results.filter((r) => r.status === 429)).toHaveLength(7);
  });
});
