import { Trans, useLingui } from '@lingui/react/macro';
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { recoveryRequestInput, resetPasswordInput, signInInput, signUpInput, tokenSchema } from '../../../shared/schemas/identity';
import { IDENTITY_MESSAGES } from '../../../shared/schemas/identity';
import { useRedirectTarget, useSignedIn, withRedirect } from '../../guard/session';
import { trpc } from '../../trpc';
import { rememberVerificationSent } from './verificationSent';
import { FormError, FormNotice, SubmitButton } from '../../ui/Form';
import { TextField } from '../../ui/fields';
import { PageTitle } from '../../ui/PageTitle';
import { useFormErrors } from './formErrors';

const SIGN_IN_FIELDS = ['email', 'password'] as const;
const SIGN_UP_FIELDS = ['name', 'email', 'password', 'passwordConfirm'] as const;
const LINK_FIELDS = ['password'] as const;
const RECOVERY_FIELDS = ['email'] as const;
const RESET_FIELDS = ['password', 'passwordConfirm'] as const;

/** /i/login/entrar: straight to e-mail and password (where "sign out" leads). */
export function EntryPage() {
  const { t } = useLingui();
  return <PasswordSignInPage title={t`Sign in`} />;
}

/** /i/login/mail */
export function MailLoginPage() {
  const { t } = useLingui();
  return <PasswordSignInPage title={t`Sign in with e-mail`} />;
}

function PasswordSignInPage({ title }: { title: string }) {
  const { raw } = useRedirectTarget();
  return (
    <section className="page auth-page">
      <PageTitle title={title} />
      <PasswordSignInForm />
      <nav className="auth-links">
        <Link to={withRedirect('/i/login/mail/recovery', raw)}>
          <Trans>Forgot your password?</Trans>
        </Link>
        <Link to={withRedirect('/i/login/mail/create', raw)}>
          <Trans>Create account</Trans>
        </Link>
        <Link to={withRedirect('/i/login', raw)}>
          <Trans>Other ways to sign in</Trans>
        </Link>
      </nav>
    </section>
  );
}

/** E-mail and password through the shared schema; errors land on the form's own fields. */
function usePasswordSignIn(fields: typeof SIGN_IN_FIELDS | typeof LINK_FIELDS) {
  const { errors, validate, showServerError } = useFormErrors(fields);
  const signedIn = useSignedIn();
  const mutation = trpc.auth.signIn.useMutation({ onSuccess: signedIn, onError: showServerError });
  const signIn = (email: string, password: string) => {
    const input = validate(signInInput, { email, password });
    if (input) mutation.mutate(input);
  };
  return { errors, signIn, pending: mutation.isPending };
}

function PasswordSignInForm() {
  const { t } = useLingui();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { errors, signIn, pending } = usePasswordSignIn(SIGN_IN_FIELDS);

  function submit(event: FormEvent) {
    event.preventDefault();
    signIn(email, password);
  }
  return (
    <form className="auth-form" onSubmit={submit} noValidate>
      <FormError message={errors.form} />
      <TextField label={t`E-mail`} type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} error={errors.fields.email} />
      <TextField
        label={t`Password`}
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={errors.fields.password}
      />
      <SubmitButton pending={pending}>
        <Trans>Sign in</Trans>
      </SubmitButton>
    </form>
  );
}

/**
 * /i/login/mail/create. An anonymous visitor whose e-mail already has an account is offered to
 * link the two (spec: 'Vincular Contas'): signing in moves the visit's data to that account.
 */
export function MailCreatePage() {
  const { t } = useLingui();
  const { raw, target } = useRedirectTarget();
  const me = trpc.auth.me.useQuery();
  const [values, setValues] = useState({ name: '', email: '', password: '', passwordConfirm: '' });
  const [linkEmail, setLinkEmail] = useState<string | null>(null);
  const { errors, validate, showServerError } = useFormErrors(SIGN_UP_FIELDS);
  const signedIn = useSignedIn();
  const verifyEmail = me.data?.app.verifyEmail ?? false;
  const signUp = trpc.auth.signUp.useMutation({
    onSuccess: (result, input) => {
      // The server mailed the link in the same request: the verification page may say so.
      if (verifyEmail) rememberVerificationSent(input.email);
      return signedIn(result);
    },
    onError: (error, input) => {
      if (error.message === IDENTITY_MESSAGES.emailInUse && me.data?.user?.anonymous) setLinkEmail(input.email);
      else showServerError(error);
    },
  });
  const set = (name: keyof typeof values) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [name]: e.target.value }));

  function submit(event: FormEvent) {
    event.preventDefault();
    // The verification e-mail brings the user back to where sign-up started.
    const input = validate(signUpInput, { ...values, redirect: target });
    if (input) signUp.mutate(input);
  }
  return (
    <section className="page auth-page">
      <PageTitle title={t`Create account`} />
      {linkEmail ? (
        <LinkAccounts email={linkEmail} onCancel={() => setLinkEmail(null)} />
      ) : (
        <form className="auth-form" onSubmit={submit} noValidate>
          <FormError message={errors.form} />
          <TextField label={t`Name`} autoComplete="name" value={values.name} onChange={set('name')} error={errors.fields.name} />
          <TextField label={t`E-mail`} type="email" autoComplete="email" value={values.email} onChange={set('email')} error={errors.fields.email} />
          <TextField
            label={t`Password`}
            type="password"
            autoComplete="new-password"
            value={values.password}
            onChange={set('password')}
            error={errors.fields.password}
          />
          <TextField
            label={t`Confirm password`}
            type="password"
            autoComplete="new-password"
            value={values.passwordConfirm}
            onChange={set('passwordConfirm')}
            error={errors.fields.passwordConfirm}
          />
          {verifyEmail && (
            <p className="notice-info">
              <Trans>We will send a link to this e-mail to confirm it is yours. You need to open it before you can use the app.</Trans>
            </p>
          )}
          <SubmitButton pending={signUp.isPending}>
            <Trans>Create account</Trans>
          </SubmitButton>
        </form>
      )}
      <nav className="auth-links">
        <Link to={withRedirect('/i/login/mail', raw)}>
          <Trans>I already have an account</Trans>
        </Link>
      </nav>
    </section>
  );
}

function LinkAccounts({ email, onCancel }: { email: string; onCancel: () => void }) {
  const { t } = useLingui();
  const [password, setPassword] = useState('');
  const { errors, signIn, pending } = usePasswordSignIn(LINK_FIELDS);

  function submit(event: FormEvent) {
    event.preventDefault();
    signIn(email, password);
  }
  return (
    <form className="auth-form auth-link-accounts" onSubmit={submit} noValidate aria-labelledby="link-accounts-title">
      <h2 id="link-accounts-title">
        <Trans>Link accounts</Trans>
      </h2>
      <p>
        <Trans>
          <strong>{email}</strong> already has an account. Enter its password to link them: what you did here moves to that account.
        </Trans>
      </p>
      <FormError message={errors.form} />
      <TextField
        label={t`Password`}
        type="password"
        autoComplete="current-password"
        autoFocus
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={errors.fields.password}
      />
      <div className="form-actions">
        <SubmitButton pending={pending}>
          <Trans>Link accounts</Trans>
        </SubmitButton>
        <button type="button" className="button button-secondary" onClick={onCancel}>
          <Trans>Cancel</Trans>
        </button>
      </div>
    </form>
  );
}

/** /i/login/mail/recovery: asks for the e-mail; the mailed link comes back here with ?token=. */
export function MailRecoveryPage() {
  const { t } = useLingui();
  const [params] = useSearchParams();
  const token = params.get('token');
  return (
    <section className="page auth-page">
      <PageTitle title={t`Recover password`} />
      {token === null ? <RequestRecovery /> : <ResetPassword token={token} />}
    </section>
  );
}

function RequestRecovery() {
  const { t } = useLingui();
  const { raw } = useRedirectTarget();
  const [email, setEmail] = useState('');
  const { errors, validate, showServerError } = useFormErrors(RECOVERY_FIELDS);
  const request = trpc.auth.requestPasswordReset.useMutation({ onError: showServerError });

  function submit(event: FormEvent) {
    event.preventDefault();
    const input = validate(recoveryRequestInput, { email });
    if (input) request.mutate(input);
  }
  const sentTo = request.data?.sentTo;
  return (
    <>
      <form className="auth-form" onSubmit={submit} noValidate>
        <p className="muted">
          <Trans>Enter your account's e-mail and we will send you a link to choose a new password.</Trans>
        </p>
        <FormError message={errors.form} />
        {sentTo && (
          <FormNotice>
            <Trans>Sent to {sentTo}. Open the link in the e-mail to choose a new password.</Trans>
          </FormNotice>
        )}
        <TextField label={t`E-mail`} type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} error={errors.fields.email} />
        <SubmitButton pending={request.isPending}>{sentTo ? <Trans>Send again</Trans> : <Trans>Send link</Trans>}</SubmitButton>
      </form>
      <nav className="auth-links">
        <Link to={withRedirect('/i/login/mail', raw)}>
          <Trans>Back to sign in</Trans>
        </Link>
      </nav>
    </>
  );
}

function ResetPassword({ token }: { token: string }) {
  const { t } = useLingui();
  const [password, setPassword] = useState('');
  const [passwordConfirm, setPasswordConfirm] = useState('');
  const { errors, validate, showServerError } = useFormErrors(RESET_FIELDS);
  const signedIn = useSignedIn();
  const reset = trpc.auth.resetPassword.useMutation({ onSuccess: signedIn, onError: showServerError });
  // A truncated link cannot be right: say so now rather than after the new password is typed.
  const tokenLooksValid = tokenSchema.safeParse(token).success;

  function submit(event: FormEvent) {
    event.preventDefault();
    const input = validate(resetPasswordInput, { token, password, passwordConfirm });
    if (input) reset.mutate(input);
  }
  if (!tokenLooksValid) {
    return (
      <div className="auth-form">
        <FormError message={t`This link has expired or was already used.`} />
        <Link className="button" to="/i/login/mail/recovery">
          <Trans>Ask for a new link</Trans>
        </Link>
      </div>
    );
  }
  return (
    <form className="auth-form" onSubmit={submit} noValidate>
      <FormError message={errors.form} />
      {errors.form && (
        <Link to="/i/login/mail/recovery">
          <Trans>Ask for a new link</Trans>
        </Link>
      )}
      <TextField
        label={t`New password`}
        type="password"
        autoComplete="new-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={errors.fields.password}
      />
      <TextField
        label={t`Confirm password`}
        type="password"
        autoComplete="new-password"
        value={passwordConfirm}
        onChange={(e) => setPasswordConfirm(e.target.value)}
        error={errors.fields.passwordConfirm}
      />
      <SubmitButton pending={reset.isPending}>
        <Trans>Save new password</Trans>
      </SubmitButton>
    </form>
  );
}
