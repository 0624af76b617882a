import { randomBytes } from 'node:crypto';
import type { Db } from '../../src/server/db/client';
import { createSession, SESSION_COOKIE } from '../../src/server/modules/identity/sessions';

const uniq = () => randomBytes(4).toString('hex');

/** Rows a test needs before it can act. They go through the real database, never a mock. */
export async function createUser(db: Db, data: { name?: string; email?: string } = {}) {
  const id = uniq();
  return db.user.create({ data: { name: data.name ?? `User ${id}`, email: data.email ?? `user-${id}@example.test` } });
}

/** A session for the user, as the Cookie header a browser would send. */
export async function signIn(db: Db, userId: string): Promise<string> {
  const { token } = await createSession(db, userId, { userAgent: 'vitest' }, new Date());
  return `${SESSION_COOKIE}=${token}`;
}

export async function createCompany(db: Db, creatorId: string, data: { domain?: string; name?: string } = {}) {
  const id = uniq();
  const company = await db.company.create({
    data: { domain: data.domain ?? `co${id}`, name: data.name ?? `Company ${id}`, creatorId },
  });
  await addMember(db, company.id, creatorId, { isAdmin: true });
  return company;
}

export async function addMember(
  db: Db,
  companyId: string,
  userId: string,
  state: { isAdmin?: boolean; inviteAccepted?: boolean; blocked?: boolean; removed?: boolean } = {},
) {
  const isAdmin = state.isAdmin ?? false;
  return db.member.create({
    data: {
      companyId,
      userId,
      isAdmin,
      profile: isAdmin ? 'A01' : 'M01',
      inviteAccepted: state.inviteAccepted ?? true,
      blocked: state.blocked ?? false,
      removed: state.removed ?? false,
      joinedAt: new Date(),
    },
  });
}

/** A signed-in member of a new company: what most company-scoped tests start from. */
export async function memberOfNewCompany(db: Db, opts: { isAdmin?: boolean } = {}) {
  const creator = await createUser(db);
  const company = await createCompany(db, creator.id);
  if (opts.isAdmin === false) {
    const user = await createUser(db);
    await addMember(db, company.id, user.id);
    return { user, company, cookie: await signIn(db, user.id) };
  }
  return { user: creator, company, cookie: await signIn(db, creator.id) };
}
