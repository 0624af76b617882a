import { ADMIN_PROFILE, MEMBER_PROFILE } from './member-lifecycle';

/** The eight permissions of a profile (spec 3, Profile), in the spec's order. */
export const PERMISSION_KEYS = [
  'createService', // create new service
  'integrateSingleService', // integrate single service
  'serveContactUs', // serve Contact Us customers
  'addContacts',
  'editContacts',
  'viewReports', // also reports of the profiles listed in reportProfiles
  'voiceCall',
  'sendAudio',
] as const;
export type Permission = (typeof PERMISSION_KEYS)[number];
export type ProfilePermissions = Record<Permission, boolean>;

export type ProfileType = 'internal' | 'admin';

const all = (value: boolean) => Object.fromEntries(PERMISSION_KEYS.map((k) => [k, value])) as ProfilePermissions;

/** A01: the administrators' profile, everything allowed. */
export const ADMIN_PROFILE_DEFAULTS = {
  code: ADMIN_PROFILE,
  name: 'Administrador',
  type: 'admin' as ProfileType,
  permissions: all(true),
};

/**
 * M01: what a plain attendant needs to serve customers day to day. Reports and the single-service
 * integration are an admin's decision, so they start off.
 */
export const MEMBER_PROFILE_DEFAULTS = {
  code: MEMBER_PROFILE,
  name: 'Membro',
  type: 'internal' as ProfileType,
  permissions: { ...all(true), integrateSingleService: false, viewReports: false } satisfies ProfilePermissions,
};

/** The built-in profiles: they can be edited but not deleted (members fall back to them). */
export const BUILT_IN_PROFILES: ReadonlySet<string> = new Set([ADMIN_PROFILE, MEMBER_PROFILE]);

/** Reads stored permissions; anything missing or not a boolean counts as not allowed. */
export function readPermissions(stored: unknown): ProfilePermissions {
  const src = (stored && typeof stored === 'object' ? stored : {}) as Record<string, unknown>;
  return Object.fromEntries(PERMISSION_KEYS.map((k) => [k, src[k] === true])) as ProfilePermissions;
}

/** The next free generated code: P01, P02, ... (A01 and M01 are the built-ins). */
export function nextProfileCode(used: Iterable<string>): string {
  const taken = new Set(used);
  for (let i = 1; i < 1000; i++) {
    const code = `P${String(i).padStart(2, '0')}`;
    if (!taken.has(code)) return code;
  }
  throw new Error('No profile code left');
}
