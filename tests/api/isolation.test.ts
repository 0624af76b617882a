import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRouter } from '../../src/server/router';
import { authedProcedure, createCallerFactory, router } from '../../src/server/trpc';
import { domainSchema } from '../../src/shared/schemas/company';
import { memberOfNewCompany } from '../helpers/fixtures';
import { findIsolationViolations, isCompanyScoped, listProcedures, NON_MEMBER_COMPANY_PROCEDURES, participantLevelViolations } from '../helpers/procedures';
import { startTestServer, type TestServer } from '../helpers/server';
import { callProcedure } from '../helpers/trpc';

let server: TestServer;
let victim: Awaited<ReturnType<typeof memberOfNewCompany>>;
let outsider: Awaited<ReturnType<typeof memberOfNewCompany>>;

beforeAll(async () => {
  server = await startTestServer();
  victim = await memberOfNewCompany(server.db);
  // Every plan feature on, so a FORBIDDEN below can only be the membership check (plan flags have their own tests).
  await server.db.company.update({ where: { id: victim.company.id }, data: { plan: { ...(victim.company.plan as object), sla: 1, kanban: 1, timesheet: 1, invent: 1, whatsapp: 1, intmail: 1, calendar: 1 } } });
  outsider = await memberOfNewCompany(server.db);
});
afterAll(() => server?.close());

describe('tenant isolation across the whole app router', () => {
  const procedures = listProcedures(appRouter);

  it('finds the company-scoped procedures it must check', () => {
    expect(procedures.filter(isCompanyScoped).map((p) => p.path)).toEqual(
      expect.arrayContaining(['company.current', 'company.select', 'members.list', 'members.approve', 'profiles.delete', 'settings.updatePublicPage', 'clients.accept']),
    );
  });

  it('keeps the non-member exceptions explicit: each exists, and none is a member or admin procedure', () => {
    for (const path of Object.keys(NON_MEMBER_COMPANY_PROCEDURES)) {
      const p = procedures.find((x) => x.path === path);
      expect(p, path).toBeDefined();
      expect(['public', 'authed', 'participant'], path).toContain(p!.level);
    }
  });

  it('makes every procedure reached through a conversation, call, form or recording ask the access rule (participant level or above)', () => {
    // tests/realtime/access-revocation.test.ts calls each of them as a blocked member.
    expect(participantLevelViolations(procedures)).toEqual([]);
    expect(participantLevelViolations([{ path: 'rogue', type: 'query', level: 'authed', inputKeys: ['conversationId'] }])).toEqual([
      'rogue: reaches a company through conversationId but is "authed"',
    ]);
  });

  it('refuses every company-scoped procedure to an admin of another company', async () => {
    const violations = await findIsolationViolations(procedures, async (p) => {
      const res = await callProcedure(server.url, p.path, { domain: victim.company.domain }, { cookie: outsider.cookie, type: p.type === 'mutation' ? 'mutation' : 'query' });
      return { code: res.error?.code, message: res.error?.message };
    });
    expect(violations).toEqual([]);
  });

  it('lets the company own members through the same calls (the check is not refusing everyone)', async () => {
    for (const p of procedures.filter(isCompanyScoped)) {
      const res = await callProcedure(server.url, p.path, { domain: victim.company.domain }, { cookie: victim.cookie, type: p.type === 'mutation' ? 'mutation' : 'query' });
      expect(res.error?.code, p.path).not.toBe('FORBIDDEN');
    }
  });

  it('catches a company procedure that skips the membership check', async () => {
    // What a careless change would add: a procedure naming a company but built on `authed`.
    const rogue = router({
      leak: authedProcedure.input(z.object({ domain: domainSchema })).query(({ ctx, input }) => ctx.db.company.findUnique({ where: { domain: input.domain } })),
    });
    const caller = createCallerFactory(rogue)({
      ...server.server.deps,
      req: {} as never,
      res: {} as never,
      log: server.server.deps.logger,
      user: outsider.user,
      session: await server.db.session.findFirstOrThrow({ where: { userId: outsider.user.id } }),
    });
    const violations = await findIsolationViolations(listProcedures(rogue), async () => {
      try {
        await caller.leak({ domain: victim.company.domain });
        return {};
      } catch (err: any) {
        return { code: err.code, message: err.message };
      }
    });
    expect(violations).toEqual([
      'leak: takes a company in its input but is "authed", not member or admin',
      'leak: an outsider got success (data) instead of FORBIDDEN',
    ]);
  });
});
