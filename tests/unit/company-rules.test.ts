import { describe, expect, it } from 'vitest';
import { cleanSocialNetworks, companyBlocksWork, companyNameKey, isReservedDomain, memberMayWork, storagePlanGb } from '../../src/shared/domain/company';
import { defaultContactUs } from '../../src/shared/domain/contact-us';
import { ADMIN_PROFILE_DEFAULTS, MEMBER_PROFILE_DEFAULTS, nextProfileCode, PERMISSION_KEYS, readPermissions } from '../../src/shared/domain/profiles';
import { domainSchema } from '../../src/shared/schemas/company';

const state = (over: Partial<{ planBlocked: boolean; billingExempt: boolean; deactivated: boolean }> = {}) => ({
  planBlocked: false,
  billingExempt: false,
  deactivated: false,
  ...over,
});

describe('plan state', () => {
  it('a blocked plan without exemption, or a deactivated company, blocks work', () => {
    expect(companyBlocksWork(state())).toBeNull();
    expect(companyBlocksWork(state({ planBlocked: true }))).toEqual({ reason: 'planBlocked' });
    expect(companyBlocksWork(state({ planBlocked: true, billingExempt: true }))).toBeNull();
    expect(companyBlocksWork(state({ deactivated: true }))).toEqual({ reason: 'deactivated' });
    expect(companyBlocksWork(state({ deactivated: true, billingExempt: true }))).toEqual({ reason: 'deactivated' });
  });
  it('only admins continue while blocked', () => {
    expect(memberMayWork(state({ planBlocked: true }), { isAdmin: false })).toBe(false);
    expect(memberMayWork(state({ planBlocked: true }), { isAdmin: true })).toBe(true);
    expect(memberMayWork(state(), { isAdmin: false })).toBe(true);
  });
});

describe('storage plan GB', () => {
  it.each([
    [0, 1],
    [1, 1],
    [209_715_200, 1],
    [1_073_741_824, 1],
    [1_073_741_825, 2],
    [10n * 1_073_741_824n, 10],
  ])('%s bytes -> %s GB', (bytes, gb) => expect(storagePlanGb(bytes)).toBe(gb));
});

describe('domains and names', () => {
  it('accepts 3 to 15 lowercase letters or digits only', () => {
    expect(domainSchema.safeParse('acme1').success).toBe(true);
    for (const bad of ['ab', 'a'.repeat(16), 'Acme', 'ac me', 'ac-me']) expect(domainSchema.safeParse(bad).success, bad).toBe(false);
  });
  it('reserves the paths the server and client own', () => {
    expect(isReservedDomain('files')).toBe(true);
    expect(isReservedDomain('trpc')).toBe(true);
    expect(isReservedDomain('acme')).toBe(false);
  });
  it('compares names regardless of case and spaces', () => expect(companyNameKey(' ACME ')).toBe(companyNameKey('acme')));
  it('drops empty social-network values', () => {
    expect(cleanSocialNetworks({ instagram: '@acme', facebook: '', x: '  ', linkedin: null })).toEqual({ instagram: '@acme' });
  });
});

describe('profiles', () => {
  it('has exactly the eight permissions; A01 allows all, M01 a sensible subset', () => {
    expect(PERMISSION_KEYS).toHaveLength(8);
    expect(Object.values(ADMIN_PROFILE_DEFAULTS.permissions).every(Boolean)).toBe(true);
    expect(MEMBER_PROFILE_DEFAULTS.permissions).toMatchObject({ createService: true, viewReports: false, sendAudio: true });
    expect(Object.keys(MEMBER_PROFILE_DEFAULTS.permissions).sort()).toEqual([...PERMISSION_KEYS].sort());
  });
  it('reads stored permissions defensively', () => {
    expect(readPermissions({ viewReports: true, voiceCall: 'yes', extra: true })).toEqual({ ...readPermissions(null), viewReports: true });
  });
  it('generates the next free code', () => {
    expect(nextProfileCode(['A01', 'M01'])).toBe('P01');
    expect(nextProfileCode(['P01', 'P03'])).toBe('P02');
  });
});

it('Contact Us starts with name, e-mail, phone and message into the default queue', () => {
  const c = defaultContactUs('Acme');
  expect(c.fields.map((f) => f.key)).toEqual(['name', 'email', 'phone', 'message']);
  expect(c.fields.find((f) => f.key === 'email')?.validateEmail).toBe(true);
  expect(c.defaultQueueKey).toBe('faleconosco');
  expect(c.blocked).toBe(false);
});
