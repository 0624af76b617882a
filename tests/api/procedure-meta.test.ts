import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAN_FEATURE_MESSAGES } from '../../src/shared/domain/company';
import { PERMISSION_DENIED } from '../../src/server/modules/profiles/permissions';
import { adminProcedure, createCallerFactory, memberProcedure, router } from '../../src/server/trpc';
import { addMember, createCompany, createUser } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * What a procedure declares in its meta beyond its level — a plan flag and a profile permission —
 * is enforced by the level itself, so a feature cannot forget the check.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const probe = router({
  reports: memberProcedure.meta({ permission: 'viewReports' }).query(() => 'ok'),
  forms: memberProcedure.meta({ plan: 'forms' }).query(() => 'ok'),
  stock: adminProcedure.meta({ plan: 'invent' }).mutation(() => 'ok'),
});

async function callerFor(userId: string) {
  const user = await server.db.user.findUniqueOrThrow({ where: { id: userId } });
  return createCallerFactory(probe)({
    ...server.server.deps,
    req: {} as never,
    res: {} as never,
    log: server.server.deps.logger,
    user,
    session: { id: 'test' } as never,
  });
}

describe('procedure meta: permission and plan', () => {
  it('refuses a profile without the permission and lets admins and permitted profiles through', async () => {
    const owner = await createUser(server.db);
    const company = await createCompany(server.db, owner.id);
    const plain = await createUser(server.db);
    await addMember(server.db, company.id, plain.id); // M01: viewReports off by default
    await expect((await callerFor(plain.id)).reports({ domain: company.domain })).rejects.toMatchObject({ code: 'FORBIDDEN', message: PERMISSION_DENIED });
    await expect((await callerFor(owner.id)).reports({ domain: company.domain })).resolves.toBe('ok');

    await server.db.profile.upsert({
      where: { companyId_code: { companyId: company.id, code: 'M01' } },
      update: { permissions: { viewReports: true } },
      create: { companyId: company.id, code: 'M01', name: 'Membro', permissions: { viewReports: true } },
    });
    await expect((await callerFor(plain.id)).reports({ domain: company.domain })).resolves.toBe('ok');
  });

  it('refuses a feature the plan lacks, with its sentence, for admins too', async () => {
    const owner = await createUser(server.db);
    const company = await createCompany(server.db, owner.id);
    const caller = await callerFor(owner.id);
    await expect(caller.forms({ domain: company.domain })).resolves.toBe('ok'); // default plan has forms
    await expect(caller.stock({ domain: company.domain })).rejects.toMatchObject({ code: 'FORBIDDEN', message: PLAN_FEATURE_MESSAGES.invent });
    await server.db.company.update({ where: { id: company.id }, data: { plan: { invent: 1, forms: 0 } } });
    await expect(caller.stock({ domain: company.domain })).resolves.toBe('ok');
    await expect(caller.forms({ domain: company.domain })).rejects.toMatchObject({ message: PLAN_FEATURE_MESSAGES.forms });
  });
});
