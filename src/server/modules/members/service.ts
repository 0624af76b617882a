import { TRPCError } from '@trpc/server';
import type { Member, Prisma, User } from '../../../generated/prisma/client';
import * as lifecycle from '../../../shared/domain/member-lifecycle';
import { isActiveAdmin, leavesNoAdmin, LIFECYCLE_MESSAGES, memberState, type MemberFlags, type Transition } from '../../../shared/domain/member-lifecycle';
import { COMPANY_MESSAGES } from '../../../shared/schemas/company';
import type { Clock } from '../../clock';
import type { Db } from '../../db/client';
import type { Mailer } from '../../mail';
import { companyInviteMail } from '../../mail/templates';
import type { Realtime } from '../../realtime';
import { addToDefaultGroup, lockCompany, memberFlags, upsertInvite, type CompanyContext } from '../company/service';
import type { AppDeps } from '../../deps';
import { callsDepsOf, dropFromCompanyCalls, endRingsOf } from '../calls/service';
import { announceMembersChanged, createNotifications, pushNotifications, type NewNotification } from '../notifications/service';
import { followQueuePeople, tellFollowed } from '../appointments/queues';

type Tx = Prisma.TransactionClient;

export interface MembersDeps extends CompanyContext, Pick<AppDeps, 'logger' | 'storage' | 'config' | 'calls'> {
  realtime: Realtime;
  clock: Clock;
}

export const MEMBER_NOT_FOUND = 'Member not found';

// ---- the members page -------------------------------------------------------------------------

export async function listMembers({ db, company }: CompanyContext) {
  const members = await db.member.findMany({
    where: { companyId: company.id },
    include: {
      user: { select: { name: true, avatarKey: true, presence: true } },
      groups: { select: { group: { select: { id: true, name: true } } } },
    },
    orderBy: [{ isAdmin: 'desc' }, { createdAt: 'asc' }],
  });
  return members.map((m) => ({
    id: m.id,
    userId: m.userId,
    name: m.user.name,
    email: m.email,
    hasAvatar: m.user.avatarKey !== null,
    presence: m.user.presence,
    isAdmin: m.isAdmin,
    profile: m.profile,
    inviteAccepted: m.inviteAccepted,
    blocked: m.blocked,
    removed: m.removed,
    state: memberState(m),
    invitedAt: m.invitedAt,
    joinedAt: m.joinedAt,
    groups: m.groups.map((g) => ({ value: g.group.id, label: g.group.name })),
  }));
}

// ---- lifecycle --------------------------------------------------------------------------------

type Effect = (tx: Tx, before: Member, after: Member) => Promise<NewNotification[] | void>;

/**
 * Applies one lifecycle transition to a member of ctx.company: locks the company's membership,
 * refuses ids of other companies (NOT_FOUND, nothing read from them), guards the last admin,
 * writes, runs the transition's side effects in the same transaction, then pushes notifications.
 */
async function transition(
  deps: MembersDeps,
  memberId: string,
  rule: (m: MemberFlags, tx: Tx) => Transition | Promise<Transition>,
  effect?: Effect,
  afterCommit?: (before: Member, after: Member) => Promise<void> | void,
) {
  const { db, company } = deps;
  const { before, member, notifications, followed } = await db.$transaction(async (tx) => {
    await lockCompany(tx, company.id);
    const before = await tx.member.findFirst({ where: { id: memberId, companyId: company.id } });
    if (!before) throw new TRPCError({ code: 'NOT_FOUND', message: MEMBER_NOT_FOUND });
    const result = await rule(memberFlags(before), tx);
    if (!result.ok) throw new TRPCError({ code: 'BAD_REQUEST', message: LIFECYCLE_MESSAGES[result.reason] });
    const flags = result.flags;
    if (isActiveAdmin(memberFlags(before)) && !isActiveAdmin(flags)) {
      const admins = await tx.member.count({ where: { companyId: company.id, isAdmin: true, inviteAccepted: true, blocked: false, removed: false } });
      if (leavesNoAdmin(memberFlags(before), flags, admins)) throw new TRPCError({ code: 'BAD_REQUEST', message: LIFECYCLE_MESSAGES.lastAdmin });
    }
    const after = await tx.member.update({ where: { id: before.id }, data: flags });
    const rows = (await effect?.(tx, before, after)) ?? [];
    // Active or not, admin or not, in a group or not: the future queue appointments follow.
    const followed = await followQueuePeople(tx, company.id, deps.clock.now());
    return { before, member: after, notifications: await createNotifications(tx, rows), followed };
  });
  await afterCommit?.(before, member);
  pushNotifications(deps.realtime, notifications);
  tellFollowed(deps.realtime, followed);
  await announceMembersChanged(deps, company);
  return { id: member.id, state: memberState(member), isAdmin: member.isAdmin, profile: member.profile };
}

export function approveMember(deps: MembersDeps, memberId: string) {
  return transition(deps, memberId, lifecycle.approve, async (tx, _before, after) => {
    await tx.member.update({ where: { id: after.id }, data: { joinedAt: deps.clock.now(), approverId: deps.member.userId } });
    await tx.invite.updateMany({ where: { companyId: deps.company.id, userId: after.userId }, data: { accepted: true, approved: true, cancelled: false } });
    await addToDefaultGroup(tx, deps.company.id, after.id);
    return [
      {
        companyId: deps.company.id,
        userId: after.userId,
        type: 'memberApproved',
        title: 'Request approved',
        subtitle: `You can now access ${deps.company.name}`,
        action: `/${deps.company.domain}`,
      },
    ];
  });
}

/** A removed or refused member leaves its groups (queue visibility follows groups) and loses the approval. */
const leaveGroupsAndInvite: Effect = async (tx, _before, after) => {
  await tx.groupMember.deleteMany({ where: { memberId: after.id } });
  // The approval goes with the membership: asking again waits for an admin (INVITE_AFTER_REMOVAL).
  await tx.invite.updateMany({ where: { companyId: after.companyId, userId: after.userId }, data: lifecycle.INVITE_AFTER_REMOVAL });
};

/**
 * Blocked or removed: access ends on every channel at once, after the commit (the next HTTP call
 * already reads the new flags): the person's sockets leave the company's room and are told, on
 * every instance, they are dropped from the company's live calls, and the company's calls that
 * still ring them, or that they placed and nobody answered yet, stop ringing.
 */
const endAccess = (deps: MembersDeps, reason: 'blocked' | 'removed') => async (_before: Member, after: Member) => {
  deps.realtime.revokeCompany(after.userId, { id: deps.company.id, domain: deps.company.domain }, reason);
  await dropFromCompanyCalls(deps, after.userId, deps.company.id);
  await endRingsOf(callsDepsOf(deps), after.userId, { companyId: deps.company.id });
};

/** The member's permissions changed: their open app is told, and asks to reload. */
const tellProfileChanged = (deps: MembersDeps) => (before: Member, after: Member) => {
  if (before.profile !== after.profile || before.isAdmin !== after.isAdmin) {
    deps.realtime.toUser(after.userId, 'member:profileChanged', { domain: deps.company.domain });
  }
};

export const refuseMember = (deps: MembersDeps, memberId: string) => transition(deps, memberId, lifecycle.refuse, leaveGroupsAndInvite);
export const removeMember = (deps: MembersDeps, memberId: string) =>
  transition(deps, memberId, lifecycle.remove, leaveGroupsAndInvite, endAccess(deps, 'removed'));
export const blockMember = (deps: MembersDeps, memberId: string) => transition(deps, memberId, lifecycle.block, undefined, endAccess(deps, 'blocked'));
export const unblockMember = (deps: MembersDeps, memberId: string) => transition(deps, memberId, lifecycle.unblock);
export const toggleAdmin = (deps: MembersDeps, memberId: string) => transition(deps, memberId, lifecycle.toggleAdmin, undefined, tellProfileChanged(deps));

export async function setMemberProfile(deps: MembersDeps, memberId: string, profileCode: string) {
  return transition(deps, memberId, async (m, tx) => {
    const profile = await tx.profile.findUnique({ where: { companyId_code: { companyId: deps.company.id, code: profileCode } } });
    if (!profile) throw new TRPCError({ code: 'NOT_FOUND', message: 'Profile not found' });
    return lifecycle.setProfile(m, { code: profile.code, type: profile.type === 'admin' ? 'admin' : 'internal' });
  }, undefined, tellProfileChanged(deps));
}

/** Replaces the member's groups; every group must be the company's own. */
export async function setMemberGroups({ db, company, clock, realtime }: CompanyContext & Pick<AppDeps, 'clock' | 'realtime'>, memberId: string, groupIds: string[]) {
  const unique = [...new Set(groupIds)];
  const { followed, ...result } = await db.$transaction(async (tx) => {
    const member = await tx.member.findFirst({ where: { id: memberId, companyId: company.id }, select: { id: true } });
    if (!member) throw new TRPCError({ code: 'NOT_FOUND', message: MEMBER_NOT_FOUND });
    const groups = await tx.group.findMany({ where: { id: { in: unique }, companyId: company.id }, select: { id: true } });
    if (groups.length !== unique.length) throw new TRPCError({ code: 'NOT_FOUND', message: 'Group not found' });
    await tx.groupMember.deleteMany({ where: { memberId } });
    await tx.groupMember.createMany({ data: unique.map((groupId) => ({ groupId, memberId })) });
    return { id: memberId, groupIds: unique, followed: await followQueuePeople(tx, company.id, clock.now()) };
  });
  tellFollowed(realtime, followed);
  return result;
}

// ---- invitations by e-mail --------------------------------------------------------------------

export interface InviteDeps extends CompanyContext {
  mailer: Mailer;
  clock: Clock;
  publicUrl: string;
  inviterName: string;
}

export const mailFailedMessage = (email: string) => COMPANY_MESSAGES.mailFailed.replace('{email}', email);

/**
 * An admin invites someone by e-mail. An active member short-circuits; otherwise there is one
 * invite per person and company (re-inviting refreshes it), pre-approved: when they ask to join
 * they come in directly. The mail links to /{emp}/invite.
 */
export async function inviteByEmail(deps: InviteDeps, email: string): Promise<{ alreadyMember: boolean; sentTo: string | null }> {
  const { db, company } = deps;
  const user = await db.user.findUnique({ where: { email }, select: { id: true } });
  const member = user ? await db.member.findUnique({ where: { companyId_userId: { companyId: company.id, userId: user.id } } }) : null;
  if (member && memberState(member) === 'active') return { alreadyMember: true, sentTo: null };

  await db.$transaction((tx) =>
    upsertInvite(tx, company.id, { userId: user?.id ?? null, email }, { cancelled: false, accepted: false, approved: true, createdAt: deps.clock.now() }),
  );
  try {
    await deps.mailer.send(
      companyInviteMail({ to: email, companyName: company.name, inviterName: deps.inviterName, link: `${deps.publicUrl}/${company.domain}/invite` }),
    );
  } catch (err) {
    // The invite stays: the admin can send it again, and it already works if the person asks to join.
    throw new TRPCError({ code: 'BAD_GATEWAY', message: mailFailedMessage(email), cause: err });
  }
  return { alreadyMember: false, sentTo: email };
}

// ---- the user's own invites -------------------------------------------------------------------

/** Invites sent to an address count as the user's only once the user proved the address. */
const myInvitesWhere = (user: User): Prisma.InviteWhereInput => ({
  cancelled: false,
  accepted: false,
  OR: [{ userId: user.id }, ...(user.email && user.emailVerifiedAt ? [{ email: user.email.toLowerCase(), userId: null }] : [])],
});

/**
 * Pending invites of the user: requests waiting for approval (approved false) and admins'
 * invitations to accept by asking to join (approved true).
 */
export async function listMyInvites(db: Db, user: User) {
  const invites = await db.invite.findMany({
    where: myInvitesWhere(user),
    include: { company: { select: { domain: true, name: true, imageKey: true } } },
    orderBy: { createdAt: 'desc' },
  });
  return invites.map((i) => ({
    id: i.id,
    company: { domain: i.company.domain, name: i.company.name, hasImage: i.company.imageKey !== null },
    invitedAt: i.createdAt,
    approved: i.approved,
  }));
}

/**
 * The user cancels one of their invites: deletes the invite, the member record and the company
 * link (the default company, when it was this one). A blocked member keeps the record, or
 * cancelling would erase the block.
 */
export async function cancelInvite(db: Db, user: User, inviteId: string) {
  await db.$transaction(async (tx) => {
    const invite = await tx.invite.findFirst({ where: { id: inviteId, ...myInvitesWhere(user) } });
    if (!invite) throw new TRPCError({ code: 'NOT_FOUND', message: 'Invite not found' });
    await lockCompany(tx, invite.companyId);
    await tx.invite.delete({ where: { id: invite.id } });
    await tx.member.deleteMany({ where: { companyId: invite.companyId, userId: user.id, inviteAccepted: false, blocked: false } });
    await tx.user.updateMany({ where: { id: user.id, defaultCompanyId: invite.companyId }, data: { defaultCompanyId: null } });
  });
  return { ok: true };
}
