/** Texts are the spec's (section 5); the client translates them through Lingui. */
export const IDENTITY_MESSAGES = {
  invalidEmail: 'Invalid email',
  passwordTooShort: 'Password too short, minimum 6 characters!',
  passwordsDiffer: 'Passwords do not match',
  emailInUse: 'Email is already in use!',
  invalidPassword: 'Invalid password',
  userNotFound: 'User not found!',
  fillAllFields: 'Fill in all fields',
  verifyEmail: 'Verifique o e-mail para continuar!',
  invalidPhone: 'Invalid phone number',
  invalidCode: 'Invalid code',
  codeExpired: 'This code has expired. Request a new one.',
  linkExpired: 'This link has expired or was already used.',
  passwordTooCommon: 'This password is too common. Choose another one.',
  passwordIsEmail: 'The password cannot be your e-mail.',
  phoneNeedsCode: 'Confirm the new number with the code sent to it by SMS.',
  phoneInUse: 'This phone number is already in use',
} as const;
