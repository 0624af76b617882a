import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import { DOMAIN_MAX_LENGTH, DOMAIN_MIN_LENGTH } from '../../shared/constants';
import { LIFECYCLE_MESSAGES as L } from '../../shared/domain/member-lifecycle';
import { ACCESS_MESSAGES } from '../../shared/domain/membership';
import { COMPANY_MESSAGES as C } from '../../shared/schemas/company';
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
  [C.domainUnavailable]: msg`Domain unavailable`,
  [C.nameUnavailable]: msg`Name unavailable`,
  [`The domain must have ${DOMAIN_MIN_LENGTH} to ${DOMAIN_MAX_LENGTH} lowercase letters or digits, without spaces`]: msg`The domain must have ${DOMAIN_MIN_LENGTH} to ${DOMAIN_MAX_LENGTH} lowercase letters or digits, without spaces`,
  'The company could not be created. Please try again.': msg`The company could not be created. Please try again.`,
  'Invite not found': msg`Invite not found`,
  'Something went wrong; try again': msg`Something went wrong; try again`,
  // Company settings: members, profiles, additional fields, client companies.
  [C.profileInUse]: msg`You cannot delete this profile as it is in use!`,
  [L.notWaiting]: msg`This person is not waiting for approval`,
  [L.notActive]: msg`Only active members can change role`,
  [L.lastAdmin]: msg`The company needs at least one administrator: make another member admin first`,
  'Member not found': msg`Member not found`,
  'Group not found': msg`Group not found`,
  'Queue not found': msg`Queue not found`,
  'Profile not found': msg`Profile not found`,
  'Profile not found in the reports list': msg`Profile not found in the reports list`,
  'The built-in profiles A01 and M01 cannot be deleted': msg`The built-in profiles A01 and M01 cannot be deleted`,
  'The type of the built-in profiles A01 and M01 cannot change': msg`The type of the built-in profiles A01 and M01 cannot change`,
  'You cannot change the type of a profile in use': msg`You cannot change the type of a profile in use`,
  'Your profile does not allow this': msg`Your profile does not allow this`,
  'This TAG is already in use': msg`This TAG is already in use`,
  'The TAG may only have letters, digits, _ and -': msg`The TAG may only have letters, digits, _ and -`,
  'A multiple-choice field needs at least one option': msg`A multiple-choice field needs at least one option`,
  'Field not found': msg`Field not found`,
  'A company cannot be its own client': msg`A company cannot be its own client`,
  'Invitation not found': msg`Invitation not found`,
  'Client company not found': msg`Client company not found`,
};

/** Texts that carry an e-mail address (spec: 'Não foi possivel enviar o e-mail para {email}'). */
const ADDRESS_PATTERNS: { pattern: RegExp; describe: (email: string) => MessageDescriptor }[] = [
  {
    pattern: new RegExp(`^${C.mailFailed.replace('{email}', '(.+)')}$`),
    describe: (email) => msg`Could not send the e-mail to ${email}`,
  },
];

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
  for (const { pattern, describe } of ADDRESS_PATTERNS) {
    const match = pattern.exec(message);
    if (match) return i18n._(describe(match[1]!));
  }
  return message;
}
