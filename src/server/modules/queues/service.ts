import { TRPCError } from '@trpc/server';
import type { z } from 'zod';
import type { Prisma } from '../../../generated/prisma/client';
import { QUEUE_MESSAGES as M, type createGroupInput, type createQueueInput, type updateGroupInput, type updateQueueInput } from '../../../shared/schemas/queues';
import { requirePlan } from '../company/plan';
import type { CompanyContext } from '../company/service';
import { readContactUs } from '../settings/service';
import type { AppDeps } from '../../deps';
import { followQueuePeople, tellFollowed, type Followed } from '../appointments/queues';

type Tx = Prisma.TransactionClient;
/** Changes of who serves a queue: its future appointments' events follow them (appointments/queues.ts). */
type Following = CompanyContext & Pick<AppDeps, 'clock' | 'realtime'>;

const notFound = (message: string) => new TRPCError({ code: 'NOT_FOUND', message });
const refuse = (message: string) => new TRPCError({ code: 'BAD_REQUEST', message });

/**
 * The stable name of a queue in links (/{emp}/direct/queue/{key}): its name without accents,
 * lower-case letters and digits. Chosen once, at creation, so links survive renames.
 */
export function queueKeyFromName(name: string): string {
  const base = name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '')
    .slice(0, 30);
  return base || 'fila';
}

async function freeQueueKey(tx: Tx, companyId: string, name: string): Promise<string> {
  const base = queueKeyFromName(name);
  const taken = new Set(
    (await tx.queue.findMany({ where: { companyId, key: { startsWith: base } }, select: { key: true } })).map((q) => q.key),
  );
  if (!taken.has(base)) return base;
  for (let i = 2; ; i++) if (!taken.has(`${base}${i}`)) return `${base}${i}`;
}

/** Every id must name something of this company: another company's id is "not found". */
async function assertGroupsOfCompany(tx: Tx, companyId: string, groupIds: string[]) {
  const found = await tx.group.count({ where: { companyId, id: { in: groupIds } } });
  if (found !== new Set(groupIds).size) throw notFound(M.groupNotFound);
}
async function assertQueuesOfCompany(tx: Tx, companyId: string, queueIds: string[]) {
  const found = await tx.queue.count({ where: { companyId, id: { in: queueIds } } });
  if (found !== new Set(queueIds).size) throw notFound(M.queueNotFound);
}
async function assertMembersOfCompany(tx: Tx, companyId: string, memberIds: string[]) {
  const found = await tx.member.count({ where: { companyId, id: { in: memberIds }, removed: false } });
  if (found !== new Set(memberIds).size) throw notFound(M.memberNotFound);
}

/** Serializes edits of one company's queue/group links, so "at least one group" holds under concurrency. */
async function lockQueues(tx: Tx, companyId: string) {
  await tx.$queryRaw`SELECT pg_advisory_xact_lock(hashtext(${`atende:queues:${companyId}`}))::text`;
}

// ---- queues -----------------------------------------------------------------------------------

const queueInclude = { groups: { include: { group: { select: { id: true, name: true } } } } } as const;
type QueueRow = Prisma.QueueGetPayload<{ include: typeof queueInclude }>;

function presentQueue(q: QueueRow, waiting: number) {
  return {
    id: q.id,
    key: q.key,
    name: q.name,
    active: q.active,
    internal: q.internal,
    sla: q.sla,
    slaServiceTime: q.slaServiceTime,
    groups: q.groups.map((g) => ({ value: g.group.id, label: g.group.name })).sort((a, b) => a.label.localeCompare(b.label)),
    /** Requests waiting in it now. */
    waiting,
  };
}

async function waitingByQueue(db: CompanyContext['db'], companyId: string) {
  const rows = await db.conversation.groupBy({ by: ['queueId'], where: { companyId, inQueue: true }, _count: { _all: true } });
  return new Map(rows.map((r) => [r.queueId, r._count._all]));
}

export async function listQueues({ db, company }: CompanyContext) {
  const [queues, waiting] = await Promise.all([
    db.queue.findMany({ where: { companyId: company.id }, include: queueInclude, orderBy: [{ createdAt: 'asc' }] }),
    waitingByQueue(db, company.id),
  ]);
  return queues.map((q) => presentQueue(q, waiting.get(q.id) ?? 0));
}

export async function getQueue({ db, company }: CompanyContext, queueId: string) {
  const q = await db.queue.findFirst({ where: { id: queueId, companyId: company.id }, include: queueInclude });
  if (!q) throw notFound(M.queueNotFound);
  const waiting = await db.conversation.count({ where: { companyId: company.id, queueId, inQueue: true } });
  return presentQueue(q, waiting);
}

/** A queue can be made an SLA queue only when the plan includes SLA (switching it off is always allowed). */
function assertSlaAllowed(company: CompanyContext['company'], sla: boolean | undefined) {
  if (sla) requirePlan(company, 'sla');
}

export async function createQueue({ db, company }: CompanyContext, input: z.output<typeof createQueueInput>) {
  assertSlaAllowed(company, input.sla);
  const created = await db.$transaction(async (tx) => {
    await lockQueues(tx, company.id);
    await assertGroupsOfCompany(tx, company.id, input.groupIds);
    return tx.queue.create({
      data: {
        companyId: company.id,
        key: await freeQueueKey(tx, company.id, input.name),
        name: input.name,
        active: input.active,
        internal: input.internal,
        sla: input.sla,
        slaServiceTime: input.slaServiceTime,
        groups: { create: [...new Set(input.groupIds)].map((groupId) => ({ groupId })) },
      },
      include: queueInclude,
    });
  });
  return presentQueue(created, 0);
}

export async function updateQueue(ctx: Following, input: z.output<typeof updateQueueInput>) {
  const { db, company } = ctx;
  assertSlaAllowed(company, input.sla);
  let followed: Followed = [];
  await db.$transaction(async (tx) => {
    await lockQueues(tx, company.id);
    const queue = await tx.queue.findFirst({ where: { id: input.queueId, companyId: company.id }, select: { id: true } });
    if (!queue) throw notFound(M.queueNotFound);
    if (input.groupIds) {
      await assertGroupsOfCompany(tx, company.id, input.groupIds);
      await tx.queueGroup.deleteMany({ where: { queueId: queue.id } });
      await tx.queueGroup.createMany({ data: [...new Set(input.groupIds)].map((groupId) => ({ queueId: queue.id, groupId })) });
      followed = await followQueuePeople(tx, company.id, ctx.clock.now());
    }
    await tx.queue.update({
      where: { id: queue.id },
      data: { name: input.name, active: input.active, internal: input.internal, sla: input.sla, slaServiceTime: input.slaServiceTime },
    });
  });
  tellFollowed(ctx.realtime, followed);
  return getQueue(ctx, input.queueId);
}

/**
 * Removes a queue. Not while people wait in it (they would vanish from every attendant's view),
 * nor while Contact Us sends its requests there. Conversations it served keep its name.
 */
export async function deleteQueue(ctx: CompanyContext, queueId: string) {
  const { db, company } = ctx;
  await db.$transaction(async (tx) => {
    await lockQueues(tx, company.id);
    const queue = await tx.queue.findFirst({ where: { id: queueId, companyId: company.id } });
    if (!queue) throw notFound(M.queueNotFound);
    if (readContactUs(ctx).defaultQueueKey === queue.key) throw refuse(M.contactUsQueue);
    if (await tx.conversation.count({ where: { queueId, inQueue: true } })) throw refuse(M.queueHasWaiting);
    await tx.queue.delete({ where: { id: queue.id } });
  });
  return { ok: true };
}

// ---- groups -----------------------------------------------------------------------------------

const groupInclude = {
  queues: { include: { queue: { select: { id: true, name: true } } } },
  members: { include: { member: { select: { id: true, removed: true, user: { select: { name: true } } } } } },
} as const;
type GroupRow = Prisma.GroupGetPayload<{ include: typeof groupInclude }>;

function presentGroup(g: GroupRow) {
  const members = g.members.filter((m) => !m.member.removed);
  return {
    id: g.id,
    key: g.key,
    name: g.name,
    /** nrIntegrantes */
    memberCount: members.length,
    members: members.map((m) => ({ value: m.member.id, label: m.member.user.name })).sort((a, b) => a.label.localeCompare(b.label)),
    queues: g.queues.map((q) => ({ value: q.queue.id, label: q.queue.name })).sort((a, b) => a.label.localeCompare(b.label)),
  };
}

export async function listGroups({ db, company }: CompanyContext) {
  const groups = await db.group.findMany({ where: { companyId: company.id }, include: groupInclude, orderBy: { createdAt: 'asc' } });
  return groups.map(presentGroup);
}

export async function getGroup({ db, company }: CompanyContext, groupId: string) {
  const g = await db.group.findFirst({ where: { id: groupId, companyId: company.id }, include: groupInclude });
  if (!g) throw notFound(M.groupNotFound);
  return presentGroup(g);
}

/** Queues that would be left without any group if `groupId` stopped serving them. */
async function queuesOnlyServedBy(tx: Tx, groupId: string, queueIds?: string[]) {
  const links = await tx.queueGroup.findMany({
    where: { groupId, ...(queueIds && { queueId: { in: queueIds } }) },
    select: { queueId: true, queue: { select: { _count: { select: { groups: true } } } } },
  });
  return links.filter((l) => l.queue._count.groups <= 1).map((l) => l.queueId);
}

export async function createGroup({ db, company, clock, realtime }: Following, input: z.output<typeof createGroupInput>) {
  let followed: Followed = [];
  const created = await db.$transaction(async (tx) => {
    await lockQueues(tx, company.id);
    await assertMembersOfCompany(tx, company.id, input.memberIds);
    await assertQueuesOfCompany(tx, company.id, input.queueIds);
    const group = await tx.group.create({
      data: {
        companyId: company.id,
        name: input.name,
        members: { create: [...new Set(input.memberIds)].map((memberId) => ({ memberId })) },
        queues: { create: [...new Set(input.queueIds)].map((queueId) => ({ queueId })) },
      },
      include: groupInclude,
    });
    followed = await followQueuePeople(tx, company.id, clock.now());
    return group;
  });
  tellFollowed(realtime, followed);
  return presentGroup(created);
}

export async function updateGroup(ctx: Following, input: z.output<typeof updateGroupInput>) {
  const { db, company } = ctx;
  let followed: Followed = [];
  await db.$transaction(async (tx) => {
    await lockQueues(tx, company.id);
    const group = await tx.group.findFirst({ where: { id: input.groupId, companyId: company.id }, select: { id: true } });
    if (!group) throw notFound(M.groupNotFound);
    if (input.name !== undefined) await tx.group.update({ where: { id: group.id }, data: { name: input.name } });
    if (input.memberIds) {
      await assertMembersOfCompany(tx, company.id, input.memberIds);
      await tx.groupMember.deleteMany({ where: { groupId: group.id } });
      await tx.groupMember.createMany({ data: [...new Set(input.memberIds)].map((memberId) => ({ groupId: group.id, memberId })) });
    }
    if (input.queueIds) {
      await assertQueuesOfCompany(tx, company.id, input.queueIds);
      const dropped = (await tx.queueGroup.findMany({ where: { groupId: group.id }, select: { queueId: true } }))
        .map((l) => l.queueId)
        .filter((id) => !input.queueIds!.includes(id));
      // A queue needs at least one group: this one cannot leave a queue it serves alone.
      if (dropped.length && (await queuesOnlyServedBy(tx, group.id, dropped)).length) throw refuse(M.noGroup);
      await tx.queueGroup.deleteMany({ where: { groupId: group.id, queueId: { in: dropped } } });
      await tx.queueGroup.createMany({ data: input.queueIds.map((queueId) => ({ groupId: group.id, queueId })), skipDuplicates: true });
    }
    if (input.memberIds || input.queueIds) followed = await followQueuePeople(tx, company.id, ctx.clock.now());
  });
  tellFollowed(ctx.realtime, followed);
  return getGroup(ctx, input.groupId);
}

export async function deleteGroup({ db, company }: CompanyContext, groupId: string) {
  await db.$transaction(async (tx) => {
    await lockQueues(tx, company.id);
    const group = await tx.group.findFirst({ where: { id: groupId, companyId: company.id }, select: { id: true } });
    if (!group) throw notFound(M.groupNotFound);
    if (await tx.groupMember.count({ where: { groupId, member: { removed: false } } })) throw refuse(M.groupHasMembers);
    if ((await queuesOnlyServedBy(tx, groupId)).length) throw refuse(M.lastGroupOfQueue);
    await tx.group.delete({ where: { id: groupId } });
  });
  return { ok: true };
}
