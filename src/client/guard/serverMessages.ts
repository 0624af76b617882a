import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import { ACCESS_MESSAGES } from '../../shared/domain/membership';
import { IDENTITY_MESSAGES as M } from '../../shared/schemas/identity';

/**
 * The server answers with the spec's texts (English, a few Portuguese); this is the one place that
 * turns them into the user's language. A text not listed here is shown as the server sent it.
 */
const KNOWN: Record<string, MessageDescriptor> = {
  [M.invalidEmail]: msg`Invalid email`,
  [M.passwordTooShort]: msg`Password too short, minimum 6 characters!`,
  [M.passwordsDiffer]: msg`Passwords do not match`,
  [M.emailInUse]: msg`Email is already in use!`,
  [M.invalidPassword]: msg`Invalid password`,
  [M.userNotFound]: msg`User not found!`,
  [M.fillAllFields]: msg`Fill in all fields`,
  [M.verifyEmail]: msg`Verify your e-mail to continue!`,
  [M.invalidPhone]: msg`Invalid phone number`,
  [M.invalidCode]: msg`Invalid code`,
  [M.codeExpired]: msg`This code has expired. Request a new one.`,
  [M.linkExpired]: msg`This link has expired or was already used.`,
  [ACCESS_MESSAGES.notMember]: msg`Attendant not registered`,
  [ACCESS_MESSAGES.blocked]: msg`You no longer have access to this organization!`,
  [ACCESS_MESSAGES.notAccepted]: msg`Access blocked!`,
  'Sign in to continue': msg`Sign in to continue`,
  'Domain not found': msg`Domain not found`,
  'Only administrators can do this': msg`Only administrators can do this`,
};

/** Texts that carry a number: matched by shape, translated with the number in place. */
const PATTERNS: { pattern: RegExp; describe: (n: number) => MessageDescriptor }[] = [
  {
    pattern: /^Too many attempts\. Please wait (\d+) minutes? and try again\.$/,
    describe: (minutes) =>
      msg({
        message: plural(minutes, {
          one: 'Too many attempts. Please wait # minute and try again.',
          other: 'Too many attempts. Please wait # minutes and try again.',
        }),
      }),
  },
  {
    pattern: /^Wait (\d+) seconds before asking for a new code\.$/,
    describe: (seconds) => msg`Wait ${seconds} seconds before asking for a new code.`,
  },
];

export function translateServerMessage(i18n: I18n, message: string): string {
  const known = KNOWN[message];
  if (known) return i18n._(known);
  for (const { pattern, describe } of PATTERNS) {
    const match = pattern.exec(message);
    if (match) return i18n._(describe(Number(match[1])));
  }
  return message;
}
