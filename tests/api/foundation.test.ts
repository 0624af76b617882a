import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgConnectionFields } from '../../src/server/db/url';
import { addMember, createCompany, createUser, signIn } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/server';
import { callProcedure } from '../helpers/trpc';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

describe('the server on a fresh database', () => {
  it('answers /healthz with 200 and the state of each part', async () => {
    const res = await fetch(`${server.url}/healthz`);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ ok: true, db: { up: true }, storage: { driver: 'local', up: true } });
    expect(body.media).toMatchObject({ available: false });
    expect(body.media.reason).toEqual(expect.any(String));
  });

  it('tags every response with a request id, keeping a sane one the caller sent', async () => {
    const own = await fetch(`${server.url}/healthz`, { headers: { 'x-request-id': 'abc-123' } });
    expect(own.headers.get('x-request-id')).toBe('abc-123');
    const generated = await fetch(`${server.url}/healthz`, { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('exposes Prometheus metrics: HTTP latency, open sockets, event-loop lag', async () => {
    await fetch(`${server.url}/trpc/system.health`);
    const text = await (await fetch(`${server.url}/metrics`)).text();
    expect(text).toContain('http_request_duration_seconds_bucket');
    expect(text).toContain('route="/trpc/system.health"');
    expect(text).toContain('socketio_open_sockets');
    expect(text).toContain('nodejs_eventloop_lag_seconds');
  });

  it('answers an unknown procedure with 404', async () => {
    const res = await callProcedure(server.url, 'nothing.here', {});
    expect(res.status).toBe(404);
    expect(res.error?.code).toBe('NOT_FOUND');
  });

  it('answers bad input with the validation message and 400, never a 500 or a stack', async () => {
    const user = await createUser(server.db);
    const cookie = await signIn(server.db, user.id);
    for (const input of [{ domain: 'Not A Domain' }, { domain: 42 }, {}, null, 'x'.repeat(5000)]) {
      const res = await callProcedure(server.url, 'company.current', input, { cookie });
      expect(res.status, JSON.stringify(input)).toBe(400);
      expect(res.error?.code).toBe('BAD_REQUEST');
      if (input && typeof input === 'object') expect(res.error?.message).toMatch(/^domain: /);
      expect(res.raw).not.toMatch(/stack|at \w+ \(/);
    }
  });

  it('refuses a request body over the limit with 413', async () => {
    const res = await fetch(`${server.url}/trpc/auth.signIn`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ json: { email: 'x'.repeat(2_000_000), password: 'x' } }),
    });
    expect(res.status).toBe(413);
  });

  it('asks anonymous callers of a signed-in procedure to sign in (401)', async () => {
    const res = await callProcedure(server.url, 'company.current', { domain: 'acme' });
    expect(res.status).toBe(401);
    expect(res.error?.code).toBe('UNAUTHORIZED');
  });
});

describe('the member procedure level', () => {
  async function setup(state: Parameters<typeof addMember>[3] | 'none') {
    const owner = await createUser(server.db);
    const company = await createCompany(server.db, owner.id);
    const user = await createUser(server.db);
    if (state !== 'none') await addMember(server.db, company.id, user.id, state);
    return { company, cookie: await signIn(server.db, user.id) };
  }

  it.each([
    ['a non-member', 'none', 'Atendente nao cadastrado', 'notMember'],
    ['a blocked member', { blocked: true }, 'You no longer have access to this organization!', 'blocked'],
    ['a removed member', { removed: true }, 'You no longer have access to this organization!', 'removed'],
    ['a member whose invite is not accepted', { inviteAccepted: false }, 'Access blocked!', 'notAccepted'],
  ] as const)('refuses %s with the spec text', async (_label, state, message, access) => {
    const { company, cookie } = await setup(state as never);
    const res = await callProcedure(server.url, 'company.current', { domain: company.domain }, { cookie });
    expect(res.status).toBe(403);
    expect(res.error).toMatchObject({ code: 'FORBIDDEN', message });
    expect(res.error?.data.access).toBe(access);
  });

  it('lets an accepted member in and tells who they are', async () => {
    const { company, cookie } = await setup({});
    const res = await callProcedure(server.url, 'company.current', { domain: company.domain }, { cookie });
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ domain: company.domain, name: company.name, me: { isAdmin: false, profile: 'M01' } });
  });

  it("answers an unknown company with 'Domain not found'", async () => {
    const { cookie } = await setup({});
    const res = await callProcedure(server.url, 'company.current', { domain: 'nosuchco' }, { cookie });
    expect(res.status).toBe(404);
    expect(res.error?.message).toBe('Domain not found');
  });

  it('keeps admin procedures for admins', async () => {
    const { company, cookie } = await setup({});
    const refused = await callProcedure(server.url, 'members.list', { domain: company.domain }, { cookie });
    expect(refused.status).toBe(403);
    const admin = await server.db.member.findFirstOrThrow({ where: { companyId: company.id, isAdmin: true } });
    const adminCookie = await signIn(server.db, admin.userId);
    const ok = await callProcedure(server.url, 'members.list', { domain: company.domain }, { cookie: adminCookie });
    expect(ok.status).toBe(200);
    expect(ok.data).toHaveLength(2);
  });
});

describe('health when the database goes away', () => {
  it('answers /healthz with 503', async () => {
    const doomed = await startTestServer();
    try {
      const admin = new pg.Client(pgConnectionFields(doomed.databaseUrl.replace(/\/[^/]+$/, '/postgres')));
      await admin.connect();
      await admin.query(`DROP DATABASE "${new URL(doomed.databaseUrl).pathname.slice(1)}" WITH (FORCE)`);
      await admin.end();
      const res = await fetch(`${doomed.url}/healthz`);
      expect(res.status).toBe(503);
      expect((await res.json()).db.up).toBe(false);
    } finally {
      await doomed.close();
    }
  });
});
