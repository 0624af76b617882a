/**
 * The member lifecycle of spec 4, as pure transitions: each takes the member's flags and answers
 * the new flags, or why the transition does not apply. Services persist the answer; nothing here
 * reads the database, so the rules are tested without one.
 */
export const ADMIN_PROFILE = 'A01';
export const MEMBER_PROFILE = 'M01';

export interface MemberFlags {
  isAdmin: boolean;
  profile: string;
  inviteAccepted: boolean; // isConviteAceito
  blocked: boolean; // isBloqueado
  removed: boolean; // isRemovido
}

export type MemberState = 'active' | 'waiting' | 'blocked' | 'removed';

/** One word for the client's lists; blocked wins over removed, as in accessRefusal. */
export function memberState(m: Pick<MemberFlags, 'inviteAccepted' | 'blocked' | 'removed'>): MemberState {
  if (m.blocked) return 'blocked';
  if (m.removed) return 'removed';
  return m.inviteAccepted ? 'active' : 'waiting';
}

/** An admin who can act right now: the one the "last admin" guard protects. */
export const isActiveAdmin = (m: MemberFlags) => m.isAdmin && memberState(m) === 'active';

export type LifecycleRefusal = 'notWaiting' | 'blocked' | 'notActive' | 'lastAdmin';

export const LIFECYCLE_MESSAGES: Record<LifecycleRefusal, string> = {
  notWaiting: 'This person is not waiting for approval',
  blocked: 'You no longer have access to this organization!',
  notActive: 'Only active members can change role',
  lastAdmin: 'The company needs at least one administrator: make another member admin first',
};

export type Transition = { ok: true; flags: MemberFlags } | { ok: false; reason: LifecycleRefusal };

const ok = (flags: MemberFlags): Transition => ({ ok: true, flags });
const deny = (reason: LifecycleRefusal): Transition => ({ ok: false, reason });

/** A fresh request to join (Invited: isConviteAceito false, waiting), or a pre-approved one. */
const newRequest = (preApproved: boolean): MemberFlags => ({
  isAdmin: false,
  profile: MEMBER_PROFILE,
  inviteAccepted: preApproved,
  blocked: false,
  removed: false,
});

export type JoinOutcome =
  /** Already an active member: nothing to do (the invite short-circuits). */
  | { kind: 'alreadyMember' }
  /** Blocked members stay out; asking again does not unblock them. */
  | { kind: 'blocked' }
  /** Already asked and still waiting: nothing changes, admins are not notified twice. */
  | { kind: 'stillWaiting' }
  /** New member, or a removed one re-invited (spec 4): write these flags. */
  | { kind: 'request'; flags: MemberFlags; reinvited: boolean };

/**
 * The user asks to join. `preApproved` when an admin had invited them by e-mail: the admin's
 * invitation is the approval, so they come in directly.
 */
export function askToJoin(current: MemberFlags | null, opts: { preApproved: boolean }): JoinOutcome {
  if (!current) return { kind: 'request', flags: newRequest(opts.preApproved), reinvited: false };
  switch (memberState(current)) {
    case 'active':
      return { kind: 'alreadyMember' };
    case 'blocked':
      return { kind: 'blocked' };
    case 'removed':
      // Re-invited from scratch: removal dropped any admin rights and they do not come back.
      return { kind: 'request', flags: newRequest(opts.preApproved), reinvited: true };
    case 'waiting':
      return opts.preApproved ? { kind: 'request', flags: { ...current, inviteAccepted: true }, reinvited: false } : { kind: 'stillWaiting' };
  }
}

/**
 * Approved: isConviteAceito true. The profile chosen so far is kept (M01 by default); see
 * docs/decisions.md for why approval does not make everyone A01.
 */
export function approve(m: MemberFlags): Transition {
  if (m.blocked) return deny('blocked');
  if (m.removed || m.inviteAccepted) return deny('notWaiting');
  return ok({ ...m, inviteAccepted: true });
}

/**
 * Refused or removed: isRemovido true, isBloqueado false, isConviteAceito false. Admin rights go
 * too, so a removed admin who is re-invited comes back as a plain member.
 */
export function remove(m: MemberFlags): Transition {
  return ok({ ...m, removed: true, blocked: false, inviteAccepted: false, isAdmin: false, profile: MEMBER_PROFILE });
}
/** Refusing a request is a removal (same flags), but only of someone who is waiting. */
export function refuse(m: MemberFlags): Transition {
  if (memberState(m) !== 'waiting') return deny('notWaiting');
  return remove(m);
}

/** Blocked: isBloqueado true; everything else is kept so unblocking restores the same member. */
export function block(m: MemberFlags): Transition {
  return ok({ ...m, blocked: true });
}

/** Unblock clears isBloqueado and isRemovido (spec 4). */
export function unblock(m: MemberFlags): Transition {
  return ok({ ...m, blocked: false, removed: false });
}

/** Admin toggle: an admin becomes M01 with isAdmin false; a non-admin becomes A01 with isAdmin true. */
export function toggleAdmin(m: MemberFlags): Transition {
  if (memberState(m) !== 'active') return deny('notActive');
  return ok(m.isAdmin ? { ...m, isAdmin: false, profile: MEMBER_PROFILE } : { ...m, isAdmin: true, profile: ADMIN_PROFILE });
}

/** A profile of type 'admin' makes the member an admin; any other makes them a plain member. */
export function setProfile(m: MemberFlags, profile: { code: string; type: 'internal' | 'admin' }): Transition {
  return ok({ ...m, profile: profile.code, isAdmin: profile.type === 'admin' });
}

/**
 * True when the change would leave the company without an active admin. `activeAdmins` counts
 * the company's active admins before the change (the target included).
 */
export function leavesNoAdmin(before: MemberFlags, after: MemberFlags, activeAdmins: number): boolean {
  return isActiveAdmin(before) && !isActiveAdmin(after) && activeAdmins <= 1;
}

// ---- the whole lifecycle, with the standing invitation ---------------------------------------

/**
 * What removal does to the person's invitation: it is no longer accepted, and no longer approved.
 * An approval is for one membership, not a pass for life: a removed member who asks to join again
 * waits for an admin like anyone else (or for a new invitation an admin sends after the removal).
 */
export const INVITE_AFTER_REMOVAL = { accepted: false, approved: false } as const;

export interface LifecycleState {
  /** The member record, null before anyone asked or was invited. */
  member: MemberFlags | null;
  /** An admin's approval is standing: an e-mail invitation not yet used, or the approval of the current membership. */
  approved: boolean;
}

export type LifecycleEvent = 'invite' | 'askToJoin' | 'approve' | 'refuse' | 'block' | 'unblock' | 'remove';

export type LifecycleStep = { ok: true; state: LifecycleState; outcome?: JoinOutcome['kind'] } | { ok: false; reason: LifecycleRefusal | 'noMember' };

/**
 * One step of spec 4's lifecycle (invited → accepted → blocked → unblocked → removed → asks
 * again), as the services apply it: the member's flags and whether an admin's approval stands.
 */
export function lifecycleStep(state: LifecycleState, event: LifecycleEvent): LifecycleStep {
  const { member } = state;
  if (event === 'invite') return { ok: true, state: { ...state, approved: true } };
  if (event === 'askToJoin') {
    const outcome = askToJoin(member, { preApproved: state.approved });
    if (outcome.kind !== 'request') return { ok: true, state, outcome: outcome.kind };
    return { ok: true, state: { member: outcome.flags, approved: outcome.flags.inviteAccepted }, outcome: outcome.kind };
  }
  if (!member) return { ok: false, reason: 'noMember' };
  const rule = { approve, refuse, block, unblock, remove }[event];
  const result = rule(member);
  if (!result.ok) return result;
  const removed = event === 'remove' || event === 'refuse';
  return {
    ok: true,
    state: { member: result.flags, approved: removed ? INVITE_AFTER_REMOVAL.approved : event === 'approve' ? true : state.approved },
  };
}
