/**
 * The operator console: who may use it (OPERATOR_EMAILS or an Operator row, never a company
 * admin as such), prices and credit adjustments with the audit log (who, when, before, after).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATOR_MESSAGES } from '../../src/shared/schemas/operator';
import { serviceCompany, type ClientSocket } from '../helpers/service';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
const sockets: ClientSocket[] = [];
const OPERATOR = 'Root@Example.test';
beforeAll(async () => {
  server = await startTestServer({ env: { OPERATOR_EMAILS: `someone@else.test, ${OPERATOR}` } });
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await server?.close();
});

const PRICES = { voice: '0.05', video: '0.12', share: '0.08', recording: '0.03', remote: '0.25', translatePerChar: '0.000400' };

describe('operator console', () => {
  it('is refused to company admins and members; OPERATOR_EMAILS (any case) or an Operator row grants it', async () => {
    const c = await serviceCompany(server, sockets);
    const attendant = await c.attendant('Ana');
    for (const who of [c.admin, attendant]) {
      expect(await who.call('operator.me', {}, 'query')).toEqual({ operator: false });
      expect((await who.attempt('operator.prices', {}, 'query')).error).toMatchObject({ code: 'FORBIDDEN', message: OPERATOR_MESSAGES.notOperator });
      expect((await who.attempt('operator.setPrices', PRICES)).error).toMatchObject({ code: 'FORBIDDEN' });
      expect((await who.attempt('operator.adjustCredits', { companyDomain: c.domain, amount: '1000', note: 'free money' })).error).toMatchObject({ code: 'FORBIDDEN' });
      expect((await who.attempt('operator.audit', { limit: 5 }, 'query')).error).toMatchObject({ code: 'FORBIDDEN' });
    }
    expect((await server.db.company.findUniqueOrThrow({ where: { id: c.company.id } })).credits.toString()).toBe('0');
    await server.db.user.update({ where: { id: attendant.userId }, data: { email: 'root@example.test' } });
    expect(await attendant.call('operator.me', {}, 'query')).toEqual({ operator: true });
    await server.db.operator.create({ data: { userId: c.admin.userId } });
    expect(await c.admin.call('operator.me', {}, 'query')).toEqual({ operator: true });
  });

  it('edits prices and adjusts credits, each change audited with who, before and after', async () => {
    const c = await serviceCompany(server, sockets);
    const ops = await c.attendant('Olga Operadora');
    await server.db.operator.create({ data: { userId: ops.userId } });
    const before = await ops.call('operator.prices', {}, 'query');
    expect(await ops.call('operator.setPrices', PRICES)).toEqual({ voice: '0.05', video: '0.12', share: '0.08', recording: '0.03', remote: '0.25', translatePerChar: '0.0004' });
    expect((await c.admin.call('billing.balance', { domain: c.domain }, 'query')).prices).toMatchObject({ voice: '0.05', video: '0.12' });

    expect(await ops.call('operator.adjustCredits', { companyDomain: c.domain, amount: '25.50', note: 'Welcome credit' })).toEqual({ credits: '25.5' });
    expect(await ops.call('operator.adjustCredits', { companyDomain: c.domain, amount: '-5', note: 'Correction' })).toEqual({ credits: '20.5' });
    const statement = await c.admin.call('billing.statement', { domain: c.domain }, 'query');
    expect(statement.entries.map((e: { action: string; amount: string; name: string }) => [e.action, e.amount, e.name])).toEqual([
      ['adjustment', '-5', 'Correction'],
      ['adjustment', '25.5', 'Welcome credit'],
    ]);

    const audit = await ops.call('operator.audit', { limit: 3 }, 'query');
    expect(audit).toMatchObject([
      { action: 'credits', actor: { id: ops.userId, name: 'Olga Operadora' }, domain: c.domain, before: { credits: '25.5' }, after: { credits: '20.5' }, note: 'Correction' },
      { action: 'credits', domain: c.domain, before: { credits: '0' }, after: { credits: '25.5' }, note: 'Welcome credit' },
      { action: 'prices', actor: { id: ops.userId }, before, after: { voice: '0.05', translatePerChar: '0.0004' } },
    ]);
    expect(Date.now() - new Date(audit[0].createdAt).getTime()).toBeLessThan(60_000);
  });

  it('refuses bad prices, amounts and unknown companies without writing anything', async () => {
    const c = await serviceCompany(server, sockets);
    const ops = await c.attendant('Olga');
    await server.db.operator.create({ data: { userId: ops.userId } });
    const audits = await server.db.operatorAudit.count();
    expect((await ops.attempt('operator.setPrices', { ...PRICES, voice: '-1' })).error).toMatchObject({ code: 'BAD_REQUEST', message: `voice: ${OPERATOR_MESSAGES.price}` });
    expect((await ops.attempt('operator.setPrices', { ...PRICES, video: '0.12345' })).error).toMatchObject({ code: 'BAD_REQUEST' });
    expect((await ops.attempt('operator.adjustCredits', { companyDomain: c.domain, amount: '0', note: 'x' })).error).toMatchObject({ code: 'BAD_REQUEST', message: `amount: ${OPERATOR_MESSAGES.amount}` });
    expect((await ops.attempt('operator.adjustCredits', { companyDomain: c.domain, amount: '1.001', note: 'x' })).error).toMatchObject({ code: 'BAD_REQUEST' });
    expect((await ops.attempt('operator.adjustCredits', { companyDomain: c.domain, amount: '1', note: ' ' })).error).toMatchObject({ code: 'BAD_REQUEST', message: `note: ${OPERATOR_MESSAGES.note}` });
    expect((await ops.attempt('operator.adjustCredits', { companyDomain: 'nosuchcompany', amount: '1', note: 'x' })).error).toMatchObject({ code: 'NOT_FOUND' });
    expect(await server.db.operatorAudit.count()).toBe(audits);
  });
});

describe('npm run operator', () => {
  const run = (...args: string[]) =>
    promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/server/cli/operator.ts', ...args], { env: { ...process.env, DATABASE_URL: server.databaseUrl, OPERATOR_EMAILS: '' } }).then(
      (r) => ({ code: 0, out: r.stdout, err: r.stderr }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout, err: e.stderr }),
    );

  it('grants, lists and revokes the role by e-mail', async () => {
    const c = await serviceCompany(server, sockets);
    const email = `cli-${Date.now()}@example.test`;
    await server.db.user.update({ where: { id: c.admin.userId }, data: { email } });
    expect(await c.admin.call('operator.me', {}, 'query')).toEqual({ operator: false });
    expect(await run('grant', email.toUpperCase())).toMatchObject({ code: 0, out: `Granted the operator role to ${email}.\n` });
    expect(await c.admin.call('operator.me', {}, 'query')).toEqual({ operator: true });
    expect((await run('list')).out).toContain(email);
    expect(await run('revoke', email)).toMatchObject({ code: 0 });
    expect(await c.admin.call('operator.me', {}, 'query')).toEqual({ operator: false });
    expect(await run('grant', 'nobody@example.test')).toMatchObject({ code: 1, err: 'No user with the e-mail nobody@example.test: they must sign up first.\n' });
    expect(await run('promote')).toMatchObject({ code: 2 });
  });
});
