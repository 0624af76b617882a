import { msg } from '@lingui/core/macro';
import { placeholderPage } from '../../ui/Placeholder';

export const LoginPage = placeholderPage(msg`Sign in`);
/** Entry page: domain entry, request a call, enter an invitation, register company. */
export const EntryPage = placeholderPage(msg`Enter a company`);
export const NewPagePage = placeholderPage(msg`Create your page`);
export const MailLoginPage = placeholderPage(msg`Sign in with e-mail`);
export const MailCreatePage = placeholderPage(msg`Create account`);
export const MailRecoveryPage = placeholderPage(msg`Recover password`);
export const PhoneLoginPage = placeholderPage(msg`Sign in with phone`);
export const PhoneVerifyPage = placeholderPage(msg`Verify phone number`);
export const EmailVerificationPage = placeholderPage(msg`E-mail verification`);
