/**
 * Which address this tab knows a verification link was sent to (at sign-up, or by 'Send the
 * link'), so the verification page only says "we sent a link" when one was sent. Session storage:
 * it is about this browser's recent actions, not a fact to keep.
 */
const KEY = 'verificationSentTo';

export function rememberVerificationSent(email: string) {
  try {
    sessionStorage.setItem(KEY, email.toLowerCase());
  } catch {
    // Storage refused (private mode): the page then offers to send a link instead of claiming one.
  }
}

export function verificationSentTo(email: string | null | undefined): boolean {
  if (!email) return false;
  try {
    return sessionStorage.getItem(KEY) === email.toLowerCase();
  } catch {
    return false;
  }
}
