/** The login area (spec 2, "Login area"): every way to sign in, recover and verify. */

export { LoginPage } from './ChoicePages';
export { EntryPage, MailCreatePage, MailLoginPage, MailRecoveryPage } from './MailPages';
export { PhoneLoginPage, PhoneVerifyPage } from './PhonePages';
export { EmailVerificationPage } from './EmailVerificationPage';
