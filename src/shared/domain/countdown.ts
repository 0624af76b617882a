import { SMS_RESEND_COUNTDOWN_MS } from '../constants';

/** The SMS resend wait after the nth code: 90 s times the attempt number (spec 4). */
export const resendWaitMs = (attempt: number) => SMS_RESEND_COUNTDOWN_MS * Math.max(1, attempt);

/** 90 000 ms -> '01:30'; never below '00:00'. */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const mm = String(Math.floor(total / 60)).padStart(2, '0');
  const ss = String(total % 60).padStart(2, '0');
  return `${mm}:${ss}`;
}
