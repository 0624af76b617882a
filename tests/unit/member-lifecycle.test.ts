import { describe, expect, it } from 'vitest';
import {
  approve,
  askToJoin,
  block,
  isActiveAdmin,
  leavesNoAdmin,
  lifecycleStep,
  type LifecycleEvent,
  type LifecycleState,
  memberState,
  refuse,
  remove,
  setProfile,
  toggleAdmin,
  unblock,
  type MemberFlags,
} from '../../src/shared/domain/member-lifecycle';
import { mayAct } from '../../src/shared/domain/membership';

const m = (over: Partial<MemberFlags> = {}): MemberFlags => ({ isAdmin: false, profile: 'M01', inviteAccepted: true, blocked: false, removed: false, ...over });
const waiting = m({ inviteAccepted: false });
const removed = m({ inviteAccepted: false, removed: true });
const admin = m({ isAdmin: true, profile: 'A01' });

describe('member lifecycle (spec 4)', () => {
  it('names the states; blocked wins over removed', () => {
    expect(memberState(m())).toBe('active');
    expect(memberState(waiting)).toBe('waiting');
    expect(memberState(removed)).toBe('removed');
    expect(memberState(m({ blocked: true, removed: true }))).toBe('blocked');
  });

  describe('asking to join', () => {
    it('a newcomer is invited: isConviteAceito false, waiting, plain member', () => {
      expect(askToJoin(null, { preApproved: false })).toEqual({
        kind: 'request',
        reinvited: false,
        flags: { isAdmin: false, profile: 'M01', inviteAccepted: false, blocked: false, removed: false },
      });
    });
    it('someone an admin invited by e-mail comes in directly', () => {
      expect(askToJoin(null, { preApproved: true })).toMatchObject({ kind: 'request', flags: { inviteAccepted: true } });
      expect(askToJoin(waiting, { preApproved: true })).toMatchObject({ kind: 'request', flags: { inviteAccepted: true } });
    });
    it('an active member short-circuits; a waiting one stays waiting; a blocked one stays out', () => {
      expect(askToJoin(m(), { preApproved: false })).toEqual({ kind: 'alreadyMember' });
      expect(askToJoin(waiting, { preApproved: false })).toEqual({ kind: 'stillWaiting' });
      expect(askToJoin(m({ blocked: true }), { preApproved: true })).toEqual({ kind: 'blocked' });
    });
    it('a removed member who asks again is re-invited from scratch', () => {
      expect(askToJoin(removed, { preApproved: false })).toEqual({
        kind: 'request',
        reinvited: true,
        flags: { isAdmin: false, profile: 'M01', inviteAccepted: false, blocked: false, removed: false },
      });
    });
  });

  it('approval sets isConviteAceito true and keeps the chosen profile', () => {
    expect(approve(waiting)).toEqual({ ok: true, flags: { ...waiting, inviteAccepted: true } });
    expect(approve(m({ inviteAccepted: false, profile: 'P01' }))).toMatchObject({ ok: true, flags: { profile: 'P01', isAdmin: false } });
  });
  it('approval applies only to someone waiting', () => {
    expect(approve(m())).toEqual({ ok: false, reason: 'notWaiting' });
    expect(approve(removed)).toEqual({ ok: false, reason: 'notWaiting' });
    expect(approve(m({ inviteAccepted: false, blocked: true }))).toEqual({ ok: false, reason: 'blocked' });
  });

  it('refusing or removing: isRemovido true, isBloqueado false, isConviteAceito false, admin rights gone', () => {
    const expected = { isAdmin: false, profile: 'M01', inviteAccepted: false, blocked: false, removed: true };
    expect(refuse(waiting)).toEqual({ ok: true, flags: expected });
    expect(remove(admin)).toEqual({ ok: true, flags: expected });
    expect(remove(m({ blocked: true }))).toEqual({ ok: true, flags: expected });
    expect(refuse(m())).toEqual({ ok: false, reason: 'notWaiting' });
  });

  it('blocking sets isBloqueado and keeps the rest; unblocking clears isBloqueado and isRemovido', () => {
    expect(block(admin)).toEqual({ ok: true, flags: { ...admin, blocked: true } });
    expect(unblock(m({ blocked: true }))).toEqual({ ok: true, flags: m() });
    expect(unblock(m({ blocked: true, removed: true, inviteAccepted: false }))).toEqual({ ok: true, flags: waiting });
  });

  it('admin toggle: A01/isAdmin true <-> M01/isAdmin false, only for active members', () => {
    expect(toggleAdmin(m())).toEqual({ ok: true, flags: admin });
    expect(toggleAdmin(admin)).toEqual({ ok: true, flags: m() });
    expect(toggleAdmin(waiting)).toEqual({ ok: false, reason: 'notActive' });
    expect(toggleAdmin(m({ blocked: true }))).toEqual({ ok: false, reason: 'notActive' });
  });

  it("a profile's type decides isAdmin", () => {
    expect(setProfile(m(), { code: 'P01', type: 'admin' })).toEqual({ ok: true, flags: m({ profile: 'P01', isAdmin: true }) });
    expect(setProfile(admin, { code: 'P02', type: 'internal' })).toEqual({ ok: true, flags: m({ profile: 'P02' }) });
  });

  it('guards the last active admin', () => {
    expect(isActiveAdmin(admin)).toBe(true);
    expect(isActiveAdmin({ ...admin, blocked: true })).toBe(false);
    expect(leavesNoAdmin(admin, m(), 1)).toBe(true);
    expect(leavesNoAdmin(admin, m(), 2)).toBe(false);
    expect(leavesNoAdmin(admin, { ...admin, blocked: true }, 1)).toBe(true);
    expect(leavesNoAdmin(m(), { ...m(), blocked: true }, 1)).toBe(false);
  });
});

describe('the whole lifecycle with the standing approval (issue 12)', () => {
  const start: LifecycleState = { member: null, approved: false };
  const step = (state: LifecycleState, event: LifecycleEvent) => {
    const r = lifecycleStep(state, event);
    if (!r.ok) throw new Error(`${event} refused: ${r.reason}`);
    return r;
  };

  it('invited → accepted → blocked → unblocked → removed → asks again: waits for approval', () => {
    const invited = step(start, 'invite').state;
    expect(invited).toEqual({ member: null, approved: true });

    const accepted = step(invited, 'askToJoin');
    expect(accepted.outcome).toBe('request');
    expect(memberState(accepted.state.member!)).toBe('active');
    expect(accepted.state.approved).toBe(true);

    const blocked = step(accepted.state, 'block').state;
    expect(memberState(blocked.member!)).toBe('blocked');
    expect(mayAct('member', blocked.member)).toMatchObject({ reason: 'blocked' });
    expect(mayAct('participant', blocked.member)).toMatchObject({ reason: 'blocked' });
    expect(step(blocked, 'askToJoin').outcome).toBe('blocked');

    const unblocked = step(blocked, 'unblock').state;
    expect(memberState(unblocked.member!)).toBe('active');
    expect(mayAct('member', unblocked.member)).toBeNull();

    const removed = step(unblocked, 'remove').state;
    expect(memberState(removed.member!)).toBe('removed');
    expect(removed.approved).toBe(false);
    expect(mayAct('member', removed.member)).toMatchObject({ reason: 'removed' });
    expect(mayAct('participant', removed.member)).toMatchObject({ reason: 'removed' });

    // Being approved once is not a pass for life.
    const rejoin = step(removed, 'askToJoin');
    expect(rejoin.outcome).toBe('request');
    expect(memberState(rejoin.state.member!)).toBe('waiting');
    expect(mayAct('member', rejoin.state.member)).toMatchObject({ reason: 'notAccepted' });
    // ...and asking twice does not get them in either.
    expect(step(rejoin.state, 'askToJoin').outcome).toBe('stillWaiting');

    const approvedAgain = step(rejoin.state, 'approve').state;
    expect(memberState(approvedAgain.member!)).toBe('active');
  });

  it('a new invitation an admin sends after the removal is a new approval', () => {
    const removed = step(step(step(start, 'invite').state, 'askToJoin').state, 'remove').state;
    const reinvited = step(removed, 'invite').state;
    expect(memberState(step(reinvited, 'askToJoin').state.member!)).toBe('active');
  });

  it('a refused request also withdraws any approval; steps on nobody are refused', () => {
    const waiting = step(start, 'askToJoin').state;
    expect(memberState(waiting.member!)).toBe('waiting');
    const refused = step(waiting, 'refuse').state;
    expect(refused.approved).toBe(false);
    expect(memberState(step(refused, 'askToJoin').state.member!)).toBe('waiting');
    for (const event of ['approve', 'refuse', 'block', 'unblock', 'remove'] as const) {
      expect(lifecycleStep(start, event)).toEqual({ ok: false, reason: 'noMember' });
    }
  });

  it('a blocked member who was removed stays out until unblocked, then waits', () => {
    const blockedRemoved = { member: m({ blocked: true, removed: true, inviteAccepted: false }), approved: false };
    expect(step(blockedRemoved, 'askToJoin').outcome).toBe('blocked');
    expect(memberState(step(blockedRemoved, 'unblock').state.member!)).toBe('waiting');
  });

  it('the participant route lets customers, visitors and waiting members through', () => {
    expect(mayAct('participant', null)).toBeNull();
    expect(mayAct('participant', waiting)).toBeNull();
    expect(mayAct('member', null)).toMatchObject({ reason: 'notMember' });
    expect(mayAct('member', waiting)).toMatchObject({ reason: 'notAccepted' });
    expect(mayAct('member', m(), { mustVerifyEmail: true })).toMatchObject({ reason: 'emailUnverified' });
  });
});
