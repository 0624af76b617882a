/**
 * The dashboard's figures, computed in SQL from the rows themselves (no counters to drift):
 * the spec's storage and service figures plus conversations per day, first-response and
 * resolution times, SLA, ratings, call minutes and credits by kind. Filters: a period of whole
 * days in the viewer's time zone, a queue, an attendant (the member who took the conversation).
 * Customer-service conversations are types 0 (direct request) and 1 (Contact Us ticket).
 */
import { TRPCError } from '@trpc/server';
import type { Company, Member } from '../../../generated/prisma/client';
import { Prisma, type Db } from '../../db/client';
import type { ReportInput } from '../../../shared/schemas/reports';

export const REPORT_SCOPE_DENIED = 'Your profile does not allow reports of this attendant';

const SERVICE_TYPES = Prisma.sql`(0, 1)`;

/**
 * Whose work the viewer may see: everyone for admins; otherwise their own and that of members
 * whose profile their profile lists in reportProfiles ("reports of listed profiles").
 */
async function attendantScope(db: Db, company: Company, member: Member): Promise<string[] | null> {
  if (member.isAdmin) return null;
  const profile = await db.profile.findUnique({ where: { companyId_code: { companyId: company.id, code: member.profile } } });
  const listed = Array.isArray(profile?.reportProfiles) ? (profile.reportProfiles as unknown[]).filter((c): c is string => typeof c === 'string') : [];
  const members = await db.member.findMany({ where: { companyId: company.id, OR: [{ userId: member.userId }, { profile: { in: listed } }] }, select: { userId: true } });
  return members.map((m) => m.userId);
}

const local = (column: Prisma.Sql, tz: string) => Prisma.sql`((${column} AT TIME ZONE 'UTC') AT TIME ZONE ${tz})`;

export async function dashboard(db: Db, ctx: { company: Company; member: Member }, input: ReportInput, now: Date) {
  const scope = await attendantScope(db, ctx.company, ctx.member);
  if (scope && input.attendantId && !scope.includes(input.attendantId)) throw new TRPCError({ code: 'FORBIDDEN', message: REPORT_SCOPE_DENIED });
  const tz = input.timeZone;
  const companyId = ctx.company.id;
  const inPeriod = (column: Prisma.Sql) => Prisma.sql`${local(column, tz)}::date BETWEEN ${input.from}::date AND ${input.to}::date`;
  // Filters on the conversation (alias c).
  const filters = Prisma.sql`
    ${input.queueId ? Prisma.sql`AND c."queueId" = ${input.queueId}::uuid` : Prisma.empty}
    ${input.attendantId ? Prisma.sql`AND c."takenById" = ${input.attendantId}::uuid` : Prisma.empty}
    ${scope ? Prisma.sql`AND c."takenById" IN (${Prisma.join(scope.map((id) => Prisma.sql`${id}::uuid`))})` : Prisma.empty}`;
  const service = Prisma.sql`c."companyId" = ${companyId}::uuid AND c."type" IN ${SERVICE_TYPES} ${filters}`;

  const [opened, concluded, totals, times, sla, ratings, attachments, calls, credits, storage] = await Promise.all([
    db.$queryRaw<{ day: string; n: number }[]>`
      SELECT to_char(${local(Prisma.sql`c."createdAt"`, tz)}::date, 'YYYY-MM-DD') AS day, count(*)::int AS n
      FROM "Conversation" c WHERE ${service} AND ${inPeriod(Prisma.sql`c."createdAt"`)} GROUP BY 1 ORDER BY 1`,
    db.$queryRaw<{ day: string; n: number }[]>`
      SELECT to_char(${local(Prisma.sql`c."concludedAt"`, tz)}::date, 'YYYY-MM-DD') AS day, count(*)::int AS n
      FROM "Conversation" c WHERE ${service} AND c."concludedAt" IS NOT NULL AND ${inPeriod(Prisma.sql`c."concludedAt"`)} GROUP BY 1 ORDER BY 1`,
    db.$queryRaw<{ services: number; customers: number }[]>`
      SELECT count(*)::int AS services, count(DISTINCT c."creatorId")::int AS customers
      FROM "Conversation" c WHERE ${service} AND ${inPeriod(Prisma.sql`c."createdAt"`)}`,
    // First response: the first message of someone other than the customer who opened it
    // (server info lines and internal comments do not answer anyone).
    db.$queryRaw<{ first_median: number | null; first_p90: number | null; res_median: number | null; res_p90: number | null }[]>`
      WITH conv AS (
        SELECT c."createdAt", c."concludedAt",
          (SELECT min(m."createdAt") FROM "Message" m WHERE m."conversationId" = c."id" AND m."authorId" IS NOT NULL
             AND m."authorId" IS DISTINCT FROM c."creatorId" AND m."type" <> 'info' AND NOT m."isComment") AS first_at
        FROM "Conversation" c WHERE ${service} AND ${inPeriod(Prisma.sql`c."createdAt"`)}
      )
      SELECT
        percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM first_at - "createdAt")) AS first_median,
        percentile_cont(0.9) WITHIN GROUP (ORDER BY extract(epoch FROM first_at - "createdAt")) AS first_p90,
        percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM "concludedAt" - "createdAt")) AS res_median,
        percentile_cont(0.9) WITHIN GROUP (ORDER BY extract(epoch FROM "concludedAt" - "createdAt")) AS res_p90
      FROM conv`,
    db.$queryRaw<{ met: number; missed: number }[]>`
      SELECT count(*) FILTER (WHERE c."concludedAt" IS NOT NULL AND c."concludedAt" <= c."slaDueAt")::int AS met,
             count(*) FILTER (WHERE coalesce(c."concludedAt", ${now}) > c."slaDueAt")::int AS missed
      FROM "Conversation" c WHERE ${service} AND c."slaDueAt" IS NOT NULL AND ${inPeriod(Prisma.sql`c."createdAt"`)}`,
    db.$queryRaw<{ stars: number; n: number }[]>`
      SELECT c."rating" AS stars, count(*)::int AS n FROM "Conversation" c
      WHERE ${service} AND c."rating" IS NOT NULL AND ${inPeriod(Prisma.sql`c."createdAt"`)} GROUP BY 1 ORDER BY 1`,
    db.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM "Message" m JOIN "Conversation" c ON c."id" = m."conversationId"
      WHERE c."companyId" = ${companyId}::uuid ${filters} AND m."fileKey" IS NOT NULL AND NOT m."removed" AND ${inPeriod(Prisma.sql`m."createdAt"`)}`,
    db.$queryRaw<{ voice: number; video: number; share: number; recording: number; remote: number }[]>`
      SELECT coalesce(sum(k."voiceSeconds"), 0)::int AS voice, coalesce(sum(k."videoSeconds"), 0)::int AS video,
             coalesce(sum(k."shareSeconds"), 0)::int AS share, coalesce(sum(k."recordingSeconds"), 0)::int AS recording,
             coalesce(sum(k."remoteSeconds"), 0)::int AS remote
      FROM "Call" k JOIN "Conversation" c ON c."id" = k."conversationId"
      WHERE k."companyId" = ${companyId}::uuid ${filters} AND ${inPeriod(Prisma.sql`k."createdAt"`)}`,
    db.$queryRaw<{ tag: string; amount: string }[]>`
      SELECT r."tag", sum(r."amount")::text AS amount
      FROM "ChargeRecord" r LEFT JOIN "Call" k ON k."id" = r."callId" LEFT JOIN "Conversation" c ON c."id" = k."conversationId"
      WHERE r."companyId" = ${companyId}::uuid ${filters} AND ${inPeriod(Prisma.sql`r."createdAt"`)} GROUP BY 1 ORDER BY 1`,
    storageOf(db, ctx.company),
  ]);

  const rated = ratings.reduce((s, r) => s + r.n, 0);
  const round = (v: number | null) => (v === null ? null : Math.round(v));
  return {
    storage,
    // The company's rating as the spec keeps it (avaliacao: total is the average, avaliacoesFeitas the count).
    companyRating: { average: ctx.company.ratingTotal, count: ctx.company.ratingCount },
    customersServed: totals[0]!.customers,
    services: totals[0]!.services,
    attachments: attachments[0]!.n,
    perDay: mergeDays(input.from, input.to, opened, concluded),
    firstResponseSeconds: { median: round(times[0]!.first_median), p90: round(times[0]!.first_p90) },
    resolutionSeconds: { median: round(times[0]!.res_median), p90: round(times[0]!.res_p90) },
    sla: sla[0]!,
    ratings: {
      count: rated,
      average: rated ? Math.round((ratings.reduce((s, r) => s + r.stars * r.n, 0) / rated) * 100) / 100 : null,
      distribution: [1, 2, 3, 4, 5].map((stars) => ({ stars, count: ratings.find((r) => r.stars === stars)?.n ?? 0 })),
    },
    callMinutes: Object.fromEntries(Object.entries(calls[0]!).map(([k, s]) => [k, Math.round((s / 60) * 100) / 100])) as Record<'voice' | 'video' | 'share' | 'recording' | 'remote', number>,
    creditsByKind: credits.map((c) => ({ kind: c.tag, amount: c.amount })),
  };
}

/** What the company stores (messages, attachments and recordings) against its plan's size. */
export async function storageOf(db: Db, company: Pick<Company, 'id' | 'storageBytes'>) {
  const rows = await db.$queryRaw<{ messages: bigint; attachments: bigint }[]>`
    SELECT coalesce(sum("bytesMessages"), 0)::bigint AS messages, coalesce(sum("bytesAttachments"), 0)::bigint AS attachments
    FROM "Conversation" WHERE "companyId" = ${company.id}::uuid`;
  const planBytes = Number(company.storageBytes);
  const bytesMessages = Number(rows[0]!.messages);
  const bytesAttachments = Number(rows[0]!.attachments);
  const totalBytes = bytesMessages + bytesAttachments;
  return { bytesMessages, bytesAttachments, planBytes, totalBytes, freeBytes: Math.max(0, planBytes - totalBytes) };
}

/** Every day of the period, with zeros where nothing happened (a chart without gaps). */
function mergeDays(from: string, to: string, opened: { day: string; n: number }[], concluded: { day: string; n: number }[]) {
  const out: { day: string; opened: number; concluded: number }[] = [];
  for (let d = new Date(`${from}T00:00:00Z`); d <= new Date(`${to}T00:00:00Z`); d = new Date(d.getTime() + 86_400_000)) {
    const day = d.toISOString().slice(0, 10);
    out.push({ day, opened: opened.find((o) => o.day === day)?.n ?? 0, concluded: concluded.find((o) => o.day === day)?.n ?? 0 });
  }
  return out;
}

/** Filter choices: the company's queues and the attendants the viewer may see. */
export async function filterOptions(db: Db, ctx: { company: Company; member: Member }) {
  const scope = await attendantScope(db, ctx.company, ctx.member);
  const [queues, members] = await Promise.all([
    db.queue.findMany({ where: { companyId: ctx.company.id }, select: { id: true, name: true }, orderBy: { name: 'asc' } }),
    db.member.findMany({
      where: { companyId: ctx.company.id, inviteAccepted: true, removed: false, ...(scope && { userId: { in: scope } }) },
      select: { userId: true, user: { select: { name: true } } },
    }),
  ]);
  return { queues, attendants: members.map((m) => ({ id: m.userId, name: m.user.name })).sort((a, b) => a.name.localeCompare(b.name)) };
}
