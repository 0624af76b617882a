import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router-dom';
import { formatCountdown } from '../../../shared/domain/countdown';
import { maskBrazilianPhone } from '../../../shared/domain/phone';
import { phoneCodeRequestInput, phoneCodeVerifyInput } from '../../../shared/schemas/identity';
import { useRedirectTarget, useSignedIn, withRedirect } from '../../guard/session';
import { trpc } from '../../trpc';
import { FormError, FormNotice, SubmitButton } from '../../ui/Form';
import { TextField } from '../../ui/fields';
import { PageTitle } from '../../ui/PageTitle';
import { useFormErrors } from './formErrors';

const PHONE_FIELDS = ['phone'] as const;
const CODE_FIELDS = ['code'] as const;

/** Carried in the history entry, so a reload of the verify page keeps the countdown. */
interface VerifyState {
  resendAt: number;
}

/** /i/login/phone: the number, masked as it is typed; the code is sent before moving on. */
export function PhoneLoginPage() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const { raw } = useRedirectTarget();
  const [phone, setPhone] = useState('');
  const { errors, validate, showServerError } = useFormErrors(PHONE_FIELDS);
  const request = trpc.auth.requestPhoneCode.useMutation({
    onSuccess: async (data, input) => {
      const state: VerifyState = { resendAt: Date.now() + data.resendInMs };
      await navigate(withRedirect(`/i/login/phone/verify/${input.phone}`, raw), { state });
    },
    onError: showServerError,
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    const input = validate(phoneCodeRequestInput, { phone });
    if (input) request.mutate(input);
  }
  return (
    <section className="page auth-page">
      <PageTitle title={t`Sign in with phone`} />
      <form className="auth-form" onSubmit={submit} noValidate>
        <p className="muted">
          <Trans>We will send a 6-digit code by SMS.</Trans>
        </p>
        <FormError message={errors.form} />
        <TextField
          label={t`Phone number`}
          type="tel"
          inputMode="tel"
          autoComplete="tel-national"
          placeholder="(11) 98765-4321"
          value={phone}
          onChange={(e) => setPhone(maskBrazilianPhone(e.target.value))}
          error={errors.fields.phone}
        />
        <SubmitButton pending={request.isPending}>
          <Trans>Send code</Trans>
        </SubmitButton>
      </form>
      <nav className="auth-links">
        <Link to={withRedirect('/i/login', raw)}>
          <Trans>Other ways to sign in</Trans>
        </Link>
      </nav>
    </section>
  );
}

/** The number as the user typed it: Brazilian ones masked, others with their country code. */
function displayPhone(digits: string): string {
  return digits.startsWith('55') && (digits.length === 12 || digits.length === 13) ? maskBrazilianPhone(digits.slice(2)) : `+${digits}`;
}

function readResendAt(state: unknown): number {
  const resendAt = (state as Partial<VerifyState> | null)?.resendAt;
  return typeof resendAt === 'number' ? resendAt : 0;
}

/** The clock while a countdown runs; a few ticks a second, so the shown second never lags. */
function useNow(running: boolean): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [running]);
  return now;
}

/** /i/login/phone/verify/{phone}: the 6-digit code, and a resend that waits its turn. */
export function PhoneVerifyPage() {
  const { t } = useLingui();
  const { phone = '' } = useParams();
  const location = useLocation();
  const { raw } = useRedirectTarget();
  const [code, setCode] = useState('');
  const [resendAt, setResendAt] = useState(() => readResendAt(location.state));
  const [resent, setResent] = useState(false);
  const { errors, validate, showServerError, clear } = useFormErrors(CODE_FIELDS);
  const signedIn = useSignedIn();
  const verify = trpc.auth.verifyPhoneCode.useMutation({ onSuccess: signedIn, onError: showServerError });
  const resend = trpc.auth.requestPhoneCode.useMutation({
    onSuccess: (data) => {
      setResendAt(Date.now() + data.resendInMs);
      setResent(true);
      clear();
    },
    onError: showServerError,
  });
  const waiting = resendAt > Date.now();
  const now = useNow(waiting);
  const remaining = Math.max(0, resendAt - now);
  const countdown = formatCountdown(remaining);
  const shownPhone = displayPhone(phone);

  function submit(event: FormEvent) {
    event.preventDefault();
    const input = validate(phoneCodeVerifyInput, { phone, code });
    if (input) verify.mutate(input);
  }
  return (
    <section className="page auth-page">
      <PageTitle title={t`Verify phone number`} />
      <form className="auth-form" onSubmit={submit} noValidate>
        <p className="muted">
          <Trans>Enter the code we sent by SMS to {shownPhone}.</Trans>
        </p>
        {resent && (
          <FormNotice>
            <Trans>A new code was sent.</Trans>
          </FormNotice>
        )}
        <FormError message={errors.form} />
        <TextField
          label={t`Code`}
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]{6}"
          maxLength={6}
          value={code}
          onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
          error={errors.fields.code}
        />
        <div className="form-actions">
          <SubmitButton pending={verify.isPending}>
            <Trans>Verify</Trans>
          </SubmitButton>
          <button
            type="button"
            className="button button-secondary"
            disabled={remaining > 0 || resend.isPending}
            onClick={() => resend.mutate({ phone })}
          >
            {remaining > 0 ? <Trans>Resend code in {countdown}</Trans> : <Trans>Resend code</Trans>}
          </button>
        </div>
      </form>
      <nav className="auth-links">
        <Link to={withRedirect('/i/login/phone', raw)}>
          <Trans>Use another number</Trans>
        </Link>
      </nav>
    </section>
  );
}
