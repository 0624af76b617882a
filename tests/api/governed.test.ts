/**
 * Profiles and plans enforced by the server (issue 12): every procedure of the one list in
 * src/server/modules/governed.ts declares its permission and plan in meta, no procedure declares
 * one without being listed, and each is refused over real HTTP for a member whose profile lacks
 * the permission and for a company whose plan lacks the flag. The rules services apply themselves
 * (Contact Us tickets, voice messages) are driven through their real doors too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAN_FEATURE_MESSAGES, PLAN_FEATURES } from '../../src/shared/domain/company';
import { PERMISSION_KEYS } from '../../src/shared/domain/profiles';
import { GOVERNED, governedProcedures } from '../../src/server/modules/governed';
import { PERMISSION_DENIED } from '../../src/server/modules/profiles/permissions';
import { appRouter } from '../../src/server/router';
import { listProcedures } from '../helpers/procedures';
import { startTestServer, type TestServer } from '../helpers/server';
import { anonymousVisitor, serviceCompany, type ClientSocket } from '../helpers/service';
import { callProcedure } from '../helpers/trpc';

let server: TestServer;
const sockets: ClientSocket[] = [];
beforeAll(async () => {
  server = await startTestServer();
}, 60_000);
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await server?.close();
});

const procedures = listProcedures(appRouter).filter((p) => p.type !== 'subscription');
const metaOf = (path: string) => (appRouter._def.procedures as unknown as Record<string, { _def: { meta?: Record<string, unknown> } }>)[path]!._def.meta ?? {};
const governed = governedProcedures(procedures.map((p) => p.path));

/** A company whose attendant has a profile with none of the eight permissions. */
async function companyWithBareProfile(plan?: Record<string, number>) {
  const c = await serviceCompany(server, sockets, { plan });
  await server.db.profile.create({
    data: { companyId: c.company.id, code: 'P01', name: 'Nothing', permissions: Object.fromEntries(PERMISSION_KEYS.map((k) => [k, false])) },
  });
  const bare = await c.attendant('Bruno', { groupIds: [c.group('member')] });
  await server.db.member.update({ where: { companyId_userId: { companyId: c.company.id, userId: bare.userId } }, data: { profile: 'P01' } });
  return { ...c, bare };
}

describe('governed procedures', () => {
  it('the list names real procedures, and each declares exactly its permission and plan in meta', () => {
    const paths = new Set(procedures.map((p) => p.path));
    for (const key of Object.keys(GOVERNED)) {
      if (key.endsWith('.*')) expect([...paths].some((p) => p.startsWith(key.slice(0, -1))), key).toBe(true);
      else expect(paths.has(key), key).toBe(true);
    }
    const wrong: string[] = [];
    for (const p of procedures) {
      const rule = governed.get(p.path);
      const meta = metaOf(p.path);
      if (rule && (p.level === 'member' || p.level === 'admin')) {
        if (meta.permission !== rule.permission || meta.plan !== rule.plan) wrong.push(`${p.path}: meta ${JSON.stringify({ permission: meta.permission, plan: meta.plan })}, list ${JSON.stringify(rule)}`);
      } else if (meta.permission || meta.plan) {
        // One list: a procedure governed in meta but missing from it is a mistake too.
        wrong.push(`${p.path}: declares ${JSON.stringify({ permission: meta.permission, plan: meta.plan })} but is not in GOVERNED`);
      }
    }
    expect(wrong).toEqual([]);
    // Every permission the profile editor offers and that has a procedure is governed somewhere.
    const permissions = new Set([...governed.values()].map((g) => g.permission).filter(Boolean));
    expect([...permissions].sort()).toEqual(['addContacts', 'createService', 'editContacts', 'integrateSingleService', 'viewReports', 'voiceCall']);
    expect(PLAN_FEATURES).toContain('calls');
  });

  it('a member whose profile lacks the permission is refused every permission-governed procedure', async () => {
    // Plan flags that default to off are on, so only the permission can refuse.
    const c = await companyWithBareProfile({ intmail: 1 });
    const problems: string[] = [];
    for (const [path, rule] of governed) {
      if (!rule.permission) continue;
      const p = procedures.find((x) => x.path === path)!;
      const res = await callProcedure(server.url, path, { domain: c.domain }, { cookie: c.bare.cookie, type: p.type === 'mutation' ? 'mutation' : 'query' });
      if (res.error?.code !== 'FORBIDDEN' || res.error.message !== PERMISSION_DENIED) problems.push(`${path}: ${res.status} ${res.error?.code} ${res.error?.message}`);
    }
    expect(problems).toEqual([]);
    // The admin of the same company passes the permission (and fails later, on the rest of the input).
    const asAdmin = await callProcedure(server.url, 'contacts.create', { domain: c.domain }, { cookie: c.admin.cookie, type: 'mutation' });
    expect(asAdmin.error?.message).not.toBe(PERMISSION_DENIED);
  });

  it('a company whose plan lacks the flag is refused every plan-governed procedure, admins included', async () => {
    const off = Object.fromEntries(PLAN_FEATURES.map((f) => [f, 0]));
    const c = await serviceCompany(server, sockets, { plan: off });
    const problems: string[] = [];
    let checked = 0;
    for (const [path, rule] of governed) {
      if (!rule.plan) continue;
      checked++;
      const p = procedures.find((x) => x.path === path)!;
      const res = await callProcedure(server.url, path, { domain: c.domain }, { cookie: c.admin.cookie, type: p.type === 'mutation' ? 'mutation' : 'query' });
      if (res.error?.code !== 'FORBIDDEN' || res.error.message !== PLAN_FEATURE_MESSAGES[rule.plan]) problems.push(`${path}: ${res.status} ${res.error?.message}`);
    }
    expect(checked).toBeGreaterThan(20);
    expect(problems).toEqual([]);
  });

  it('in the services: taking a Contact Us ticket needs serveContactUs; a voice message needs sendAudio', async () => {
    const c = await companyWithBareProfile();
    const visitor = await anonymousVisitor(server, sockets);
    const ticket = await visitor.call('customer.contactUs', { domain: c.domain, values: { name: 'Vera', email: 'vera@example.test', message: 'Olá' } });
    const conversationId = ticket.conversationId as string;
    const take = await c.bare.attempt('service.take', { domain: c.domain, conversationId });
    expect(take.error).toMatchObject({ code: 'FORBIDDEN', message: PERMISSION_DENIED });
    await c.admin.call('service.take', { domain: c.domain, conversationId });

    const { conversationId: chatId } = await c.admin.call('chat.startDirect', { domain: c.domain, userId: c.bare.userId });
    const audio = Buffer.from('OggS fake audio');
    const upload = (cookie: string) =>
      fetch(`${server.url}/uploads/chat/${c.domain}/${chatId}?clientId=v${Date.now()}&name=voice.ogg&recording=1&durationMs=1000`, {
        method: 'PUT',
        headers: { cookie, 'content-type': 'audio/ogg' },
        body: new Blob([new Uint8Array(audio)]),
      });
    const refused = await upload(c.bare.cookie);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: PERMISSION_DENIED });
  });
});
