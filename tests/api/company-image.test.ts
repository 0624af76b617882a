import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createUser, memberOfNewCompany, signIn } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const put = (domain: string, cookie: string | undefined, body: Buffer) =>
  fetch(`${server.url}/uploads/company/${domain}/image`, {
    method: 'PUT',
    headers: cookie ? { cookie } : {},
    body: new Blob([new Uint8Array(body)]),
  });

describe('company image', () => {
  it('lets an admin set it, serves it publicly, and replaces the old one', async () => {
    const { company, cookie } = await memberOfNewCompany(server.db);
    expect((await put(company.domain, cookie, png)).status).toBe(200);
    const first = (await server.db.company.findUniqueOrThrow({ where: { id: company.id } })).imageKey!;
    expect(first).toMatch(new RegExp(`^companies/${company.domain}/image/`));

    const redirect = await fetch(`${server.url}/companies/${company.domain}/image`, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    const image = await fetch(redirect.headers.get('location')!);
    expect(image.headers.get('content-type')).toBe('image/png');

    expect((await put(company.domain, cookie, png)).status).toBe(200);
    await expect(server.server.deps.storage.stat(first)).rejects.toThrow();
  });

  it('refuses a file that is not an image', async () => {
    const { company, cookie } = await memberOfNewCompany(server.db);
    const res = await put(company.domain, cookie, Buffer.from('GIF? no: <svg onload=alert(1)>'));
    expect(res.status).toBe(415);
    expect(await res.json()).toEqual({ error: 'The file must be an image (PNG, JPEG, GIF or WebP)' });
  });

  it('refuses members who are not admins, other companies, and nobody signed in', async () => {
    const { company } = await memberOfNewCompany(server.db);
    const member = await createUser(server.db);
    await addMember(server.db, company.id, member.id);
    const outsider = await memberOfNewCompany(server.db);

    expect((await put(company.domain, await signIn(server.db, member.id), png)).status).toBe(403);
    const res = await put(company.domain, outsider.cookie, png);
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: 'Atendente nao cadastrado' });
    expect((await put(company.domain, undefined, png)).status).toBe(401);
    expect((await put('nosuchco', outsider.cookie, png)).status).toBe(404);
    expect((await server.db.company.findUniqueOrThrow({ where: { id: company.id } })).imageKey).toBeNull();
  });

  it('answers 404 for a company without an image', async () => {
    const { company } = await memberOfNewCompany(server.db);
    expect((await fetch(`${server.url}/companies/${company.domain}/image`, { redirect: 'manual' })).status).toBe(404);
  });
});
