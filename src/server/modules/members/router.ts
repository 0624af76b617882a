import { inviteByEmailInput, inviteIdInput, memberIdInput, setMemberGroupsInput, setMemberProfileInput } from '../../../shared/schemas/members';
import { adminProcedure, authedProcedure, router } from '../../trpc';
import * as members from './service';

// The admin context already holds what the services need (db, company, member, realtime, clock).

const lifecycle = (action: (d: members.MembersDeps, memberId: string) => ReturnType<typeof members.approveMember>) =>
  adminProcedure.input(memberIdInput).mutation(({ ctx, input }) => action(ctx, input.memberId));

/** The members page: admins approve, refuse, remove, block, unblock and change roles (spec 6). */
export const membersRouter = router({
  list: adminProcedure.query(({ ctx }) => members.listMembers(ctx)),
  // Taking in members is the plan's `members` flag (src/server/modules/governed.ts).
  approve: adminProcedure.meta({ plan: 'members' }).input(memberIdInput).mutation(({ ctx, input }) => members.approveMember(ctx, input.memberId)),
  refuse: lifecycle(members.refuseMember),
  remove: lifecycle(members.removeMember),
  block: lifecycle(members.blockMember),
  unblock: lifecycle(members.unblockMember),
  toggleAdmin: lifecycle(members.toggleAdmin),
  setProfile: adminProcedure.input(setMemberProfileInput).mutation(({ ctx, input }) => members.setMemberProfile(ctx, input.memberId, input.profileCode)),
  setGroups: adminProcedure.input(setMemberGroupsInput).mutation(({ ctx, input }) => members.setMemberGroups(ctx, input.memberId, input.groupIds)),
  inviteByEmail: adminProcedure.meta({ rate: 'invites', plan: 'members' }).input(inviteByEmailInput).mutation(({ ctx, input }) =>
    members.inviteByEmail({ ...ctx, publicUrl: ctx.config.publicUrl, inviterName: ctx.user.name }, input.email),
  ),
});

/** The signed-in user's own invites, whatever company they are for. */
export const invitesRouter = router({
  mine: authedProcedure.query(({ ctx }) => members.listMyInvites(ctx.db, ctx.user)),
  cancel: authedProcedure.input(inviteIdInput).mutation(({ ctx, input }) => members.cancelInvite(ctx.db, ctx.user, input.inviteId)),
});
