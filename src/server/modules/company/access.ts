import { Prisma, type Db } from '../../db/client';
import { prefixedColumns, unprefix } from '../../db/columns';
import type { Company, Member } from '../../../generated/prisma/client';

const ACCESS_COLUMNS = Prisma.sql`${prefixedColumns(Prisma.CompanyScalarFieldEnum, 'c', 'c_')}, ${prefixedColumns(Prisma.MemberScalarFieldEnum, 'm', 'm_')}`;

/**
 * What the member procedure level needs on every call, in one raw statement: the company named by
 * `domain`, the caller's membership in it (null when none) and AppConfig.verifyEmail. Nothing is
 * cached: a member blocked, removed or made admin a moment ago is read as they are now.
 * null when no company has that domain.
 */
export async function companyAccess(
  db: Db,
  domain: string,
  userId: string,
): Promise<{ company: Company; member: Member | null; verifyEmail: boolean } | null> {
  const [row] = await db.$queryRaw<Record<string, unknown>[]>`
    SELECT ${ACCESS_COLUMNS}, (SELECT "verifyEmail" FROM "AppConfig" WHERE "id" = 1) AS "verifyEmail"
    FROM "Company" c LEFT JOIN "Member" m ON m."companyId" = c."id" AND m."userId" = ${userId}::uuid
    WHERE c."domain" = ${domain}`;
  const company = row && unprefix<Company>(row, Prisma.CompanyScalarFieldEnum, 'c_');
  if (!company) return null;
  return { company, member: unprefix<Member>(row, Prisma.MemberScalarFieldEnum, 'm_'), verifyEmail: row.verifyEmail === true };
}
