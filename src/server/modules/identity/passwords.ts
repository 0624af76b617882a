import { TRPCError } from '@trpc/server';
import argon2 from 'argon2';
import { lazyPackage } from '../../lazy-package';
import { IDENTITY_MESSAGES as M } from '../../../shared/schemas/identity';

/**
 * The common-password list of zxcvbn-ts (about 49,000 passwords seen most in leaks), kept
 * upstream rather than typed here. Lower-cased, as the list is: 'PASSWORD1' is as weak as 'password1'.
 * Server-side only, so the browser bundle does not carry it.
 */
const zxcvbnCommon = lazyPackage<typeof import('@zxcvbn-ts/language-common')>('@zxcvbn-ts/language-common');
let common: Set<string> | undefined;
/** Built on the first password checked, not at boot (the list is decompressed when loaded). */
const commonPasswords = () => (common ??= new Set(zxcvbnCommon().dictionary['passwords-common'].map((p) => p.toLowerCase())));

/** Refuses, beyond the schema's minimum length, a common password and one equal to the e-mail. */
export function assertAcceptablePassword(password: string, email: string | null | undefined): void {
  const lower = password.trim().toLowerCase();
  if (email && lower === email.trim().toLowerCase()) throw new TRPCError({ code: 'BAD_REQUEST', message: M.passwordIsEmail });
  if (commonPasswords().has(lower)) throw new TRPCError({ code: 'BAD_REQUEST', message: M.passwordTooCommon });
}

export const hashPassword = (password: string) => argon2.hash(password, { type: argon2.argon2id });

let dummyHash: Promise<string> | undefined;
/**
 * Checks a password against the account's hash, or against a throw-away hash when there is no
 * account (or it has no password), so an unknown e-mail costs the same time as a wrong password.
 */
export async function verifyPassword(hash: string | null | undefined, password: string): Promise<boolean> {
  if (hash) return argon2.verify(hash, password);
  dummyHash ??= hashPassword('not-a-real-password-only-for-timing');
  await argon2.verify(await dummyHash, password);
  return false;
}
