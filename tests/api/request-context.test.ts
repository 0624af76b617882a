/**
 * The per-request lookups are raw joins built from the generated client's field lists: they must
 * read exactly what the ORM reads (every column, same types), and read it fresh on every call.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../src/server/db/client';
import { companyAccess } from '../../src/server/modules/company/access';
import { createSession, resolveSession } from '../../src/server/modules/identity/sessions';
import { createTestDatabase } from '../helpers/db';
import { addMember, createCompany, createUser } from '../helpers/fixtures';

let db: Db;
beforeAll(async () => {
  db = createDb(await createTestDatabase(), { poolSize: 2 });
});
afterAll(async () => {
  await db?.$disconnect();
});

describe('resolveSession', () => {
  it('returns the session and user exactly as the ORM reads them, and nothing once the session ends', async () => {
    const user = await createUser(db);
    await db.user.update({ where: { id: user.id }, data: { settings: { playFila: true }, language: 'pt' } });
    const now = new Date();
    const { token } = await createSession(db, user.id, { userAgent: 'vitest', ip: '127.0.0.1' }, now);
    const auth = await resolveSession(db, token, now);
    const orm = await db.session.findFirstOrThrow({ where: { userId: user.id }, include: { user: true } });
    const { user: ormUser, ...ormSession } = orm;
    expect(auth).toEqual({ session: ormSession, user: ormUser });
    expect(Object.keys(auth!.user).sort()).toEqual(Object.keys(ormUser).sort());

    expect(await resolveSession(db, 'not-a-token', now)).toBeNull();
    expect(await resolveSession(db, token, new Date(orm.expiresAt.getTime() + 1))).toBeNull();
    await db.session.delete({ where: { id: orm.id } });
    expect(await resolveSession(db, token, now)).toBeNull();
  });

  it('refreshes lastSeenAt only after the touch interval', async () => {
    const user = await createUser(db);
    const t0 = new Date('2026-01-01T10:00:00Z');
    const { token } = await createSession(db, user.id, {}, t0);
    await resolveSession(db, token, new Date(t0.getTime() + 60_000));
    expect((await db.session.findFirstOrThrow({ where: { userId: user.id } })).lastSeenAt).toEqual(t0);
    const later = new Date(t0.getTime() + 10 * 60_000);
    await resolveSession(db, token, later);
    expect((await db.session.findFirstOrThrow({ where: { userId: user.id } })).lastSeenAt).toEqual(later);
  });
});

describe('companyAccess', () => {
  it('returns the company and membership exactly as the ORM reads them, and the current verifyEmail', async () => {
    const creator = await createUser(db);
    const company = await createCompany(db, creator.id);
    await db.company.update({ where: { id: company.id }, data: { credits: '12.3456', plan: { calls: 1 }, settings: { msgSaudacao: 'Olá' } } });
    const other = await createUser(db);

    const access = await companyAccess(db, company.domain, creator.id);
    const ormCompany = await db.company.findUniqueOrThrow({ where: { id: company.id } });
    const ormMember = await db.member.findUniqueOrThrow({ where: { companyId_userId: { companyId: company.id, userId: creator.id } } });
    expect(access!.company).toEqual(ormCompany);
    expect(access!.company.credits.toString()).toBe('12.3456');
    expect(Object.keys(access!.company).sort()).toEqual(Object.keys(ormCompany).sort());
    expect(access!.member).toEqual(ormMember);
    expect(Object.keys(access!.member!).sort()).toEqual(Object.keys(ormMember).sort());

    expect((await companyAccess(db, company.domain, other.id))!.member).toBeNull();
    expect(await companyAccess(db, 'no-such-domain', creator.id)).toBeNull();

    await db.appConfig.upsert({ where: { id: 1 }, create: { id: 1, verifyEmail: true }, update: { verifyEmail: true } });
    expect((await companyAccess(db, company.domain, creator.id))!.verifyEmail).toBe(true);
    await db.appConfig.update({ where: { id: 1 }, data: { verifyEmail: false } });
    expect((await companyAccess(db, company.domain, creator.id))!.verifyEmail).toBe(false);
  });

  it('reads a block at once (nothing cached)', async () => {
    const creator = await createUser(db);
    const company = await createCompany(db, creator.id);
    const user = await createUser(db);
    const member = await addMember(db, company.id, user.id);
    expect((await companyAccess(db, company.domain, user.id))!.member!.blocked).toBe(false);
    await db.member.update({ where: { id: member.id }, data: { blocked: true } });
    expect((await companyAccess(db, company.domain, user.id))!.member!.blocked).toBe(true);
  });
});
