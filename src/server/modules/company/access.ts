import { hotQuery, Prisma, type Db } from '../../db/client';
import { batched, perDb } from '../../db/batch';
import { prefixedColumns, unprefix } from '../../db/columns';
import type { Company, Member, User } from '../../../generated/prisma/client';
import { mayAct, type AccessRefusal, type AccessRoute } from '../../../shared/domain/membership';

const ACCESS_COLUMNS = Prisma.sql`${prefixedColumns(Prisma.CompanyScalarFieldEnum, 'c', 'c_')}, ${prefixedColumns(Prisma.MemberScalarFieldEnum, 'm', 'm_')}`;

export type CompanyRef = { domain: string } | { companyId: string };

/**
 * What the member procedure level needs on every call, in one raw statement: the company named by
 * `domain` (or id), the caller's membership in it (null when none) and AppConfig.verifyEmail.
 * Nothing is cached: a member blocked, removed or made admin a moment ago is read as they are now.
 * null when no such company exists.
 */
const accessRow = perDb((db: Db) =>
  batched(
    async (keys: { domain: string; userId: string }[]) => {
      const rows = await hotQuery(db, Prisma.sql`
        SELECT k."i"::int AS "_i", ${ACCESS_COLUMNS}, (SELECT "verifyEmail" FROM "AppConfig" WHERE "id" = 1) AS "verifyEmail"
        FROM unnest(${keys.map((k) => k.domain)}::text[], ${keys.map((k) => k.userId)}::uuid[]) WITH ORDINALITY AS k("domain", "userId", "i")
        JOIN "Company" c ON c."domain" = k."domain" LEFT JOIN "Member" m ON m."companyId" = c."id" AND m."userId" = k."userId"`, { prepared: true });
      return new Map(rows.map((r) => [accessKey(keys[(r._i as number) - 1]!), r]));
    },
    (k) => accessKey(k),
  ),
);
const accessKey = (k: { domain: string; userId: string }) => `${k.userId} ${k.domain}`;

export async function companyAccess(
  db: Db,
  ref: string | CompanyRef,
  userId: string,
): Promise<{ company: Company; member: Member | null; verifyEmail: boolean } | null> {
  const domain = typeof ref === 'string' ? ref : 'domain' in ref ? ref.domain : null;
  // By domain (every member-level call): gathered with the calls arriving together (db/batch.ts).
  const [row] = domain !== null
    ? [await accessRow(db, { domain, userId })]
    : await db.$queryRaw<Record<string, unknown>[]>`
    SELECT ${ACCESS_COLUMNS}, (SELECT "verifyEmail" FROM "AppConfig" WHERE "id" = 1) AS "verifyEmail"
    FROM "Company" c LEFT JOIN "Member" m ON m."companyId" = c."id" AND m."userId" = ${userId}::uuid
    WHERE c."id" = ${(ref as { companyId: string }).companyId}::uuid`;
  const company = row && unprefix<Company>(row, Prisma.CompanyScalarFieldEnum, 'c_');
  if (!company) return null;
  return { company, member: unprefix<Member>(row, Prisma.MemberScalarFieldEnum, 'm_'), verifyEmail: row.verifyEmail === true };
}

export interface AccessDecision {
  company: Company;
  member: Member | null;
  /** null: may act now. */
  refusal: AccessRefusal | null;
}

/**
 * "May this person act for this company now": the one question every channel asks (tRPC levels,
 * socket handshakes and room joins, calls), answered by `mayAct` from src/shared/domain on the
 * membership as it is in the database this instant. null when the company does not exist.
 */
export async function decideAccess(
  db: Db,
  ref: CompanyRef,
  /** Without e-mail fields the e-mail verification rule is not asked (the participant route ignores it). */
  user: Pick<User, 'id'> & Partial<Pick<User, 'email' | 'emailVerifiedAt'>>,
  route: AccessRoute,
): Promise<AccessDecision | null> {
  const access = await companyAccess(db, ref, user.id);
  if (!access) return null;
  const mustVerifyEmail = access.verifyEmail && !!user.email && !user.emailVerifiedAt;
  return { company: access.company, member: access.member, refusal: mayAct(route, access.member, { mustVerifyEmail }) };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const uuidOf = (input: Record<string, unknown>, key: string) => {
  const v = input[key];
  return typeof v === 'string' && UUID.test(v) ? v : null;
};

/**
 * The company a participant-level input reaches: the company it names by domain, or the one of the
 * conversation, call, filled form, call recording, budget or sale it names (the first one present). null when it names none that exists; the
 * procedure then answers its own NOT_FOUND.
 */
export async function companyOfSubject(db: Db, input: unknown): Promise<string | null> {
  if (!input || typeof input !== 'object') return null;
  const i = input as Record<string, unknown>;
  // A customer's request names the company itself (customer.request, contactUs, openServices).
  if (typeof i.domain === 'string' && i.domain.length <= 253) {
    const [company] = await db.$queryRaw<{ id: string }[]>`SELECT "id" FROM "Company" WHERE "domain" = ${i.domain}`;
    return company?.id ?? null;
  }
  const conversationId = uuidOf(i, 'conversationId');
  const callId = uuidOf(i, 'callId');
  const formId = uuidOf(i, 'formId');
  const recordingId = uuidOf(i, 'recordingId');
  const budgetId = uuidOf(i, 'budgetId');
  const saleId = uuidOf(i, 'saleId');
  const [row] = conversationId
    ? await db.$queryRaw<{ companyId: string }[]>`SELECT "companyId" FROM "Conversation" WHERE "id" = ${conversationId}::uuid`
    : callId
      ? await db.$queryRaw<{ companyId: string }[]>`SELECT "companyId" FROM "Call" WHERE "id" = ${callId}::uuid`
      : formId
        ? await db.$queryRaw<{ companyId: string }[]>`SELECT "companyId" FROM "FilledForm" WHERE "id" = ${formId}::uuid`
        : recordingId
          ? await db.$queryRaw<{ companyId: string }[]>`SELECT c."companyId" FROM "CallRecording" r JOIN "Call" c ON c."id" = r."callId" WHERE r."id" = ${recordingId}::uuid`
          : budgetId
            ? await db.$queryRaw<{ companyId: string }[]>`SELECT "companyId" FROM "Budget" WHERE "id" = ${budgetId}::uuid`
            : saleId
              ? await db.$queryRaw<{ companyId: string }[]>`SELECT "companyId" FROM "Sale" WHERE "id" = ${saleId}::uuid`
              : [];
  return row?.companyId ?? null;
}
