import { describe, expect, it } from 'vitest';
import { accessRefusal, refusalRoute } from '../../src/shared/domain/membership';

const member = (state: Partial<{ inviteAccepted: boolean; blocked: boolean; removed: boolean }> = {}) => ({
  inviteAccepted: true,
  blocked: false,
  removed: false,
  ...state,
});

describe('who may act in a company', () => {
  it('lets an accepted, active member act', () => {
    expect(accessRefusal(member())).toBeNull();
  });

  it.each([
    ['nobody', null, 'notMember', 'Atendente nao cadastrado'],
    ['blocked', member({ blocked: true }), 'blocked', 'You no longer have access to this organization!'],
    ['removed', member({ removed: true, inviteAccepted: false }), 'removed', 'You no longer have access to this organization!'],
    ['waiting for approval', member({ inviteAccepted: false }), 'notAccepted', 'Access blocked!'],
    ['blocked and removed', member({ blocked: true, removed: true }), 'blocked', 'You no longer have access to this organization!'],
  ])('refuses %s', (_label, state, reason, message) => {
    expect(accessRefusal(state)).toEqual({ code: 'FORBIDDEN', reason, message });
  });

  it('sends blocked and removed members to /{emp}/block and waiting ones to /{emp}/wait', () => {
    expect(refusalRoute('acme', 'blocked')).toBe('/acme/block');
    expect(refusalRoute('acme', 'removed')).toBe('/acme/block');
    expect(refusalRoute('acme', 'notAccepted')).toBe('/acme/wait');
    expect(refusalRoute('acme', 'notMember')).toBeNull();
  });
});
