import { Trans, useLingui } from '@lingui/react/macro';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { guestInput } from '../../../shared/schemas/identity';
import { useRedirectTarget, useSignedIn, withRedirect } from '../../guard/session';
import { trpc } from '../../trpc';
import { FormError, SubmitButton } from '../../ui/Form';
import { TextField } from '../../ui/fields';
import { PageTitle } from '../../ui/PageTitle';
import { useFormErrors } from './formErrors';

const GUEST_FIELDS = ['name'] as const;

/** /i/login: every way in, each keeping where the user was going. */
export function LoginPage() {
  const { t } = useLingui();
  const { raw } = useRedirectTarget();
  return (
    <section className="page auth-page">
      <PageTitle title={t`Sign in`} />
      <div className="auth-choices">
        <Link className="button" to={withRedirect('/i/login/mail', raw)}>
          <Trans>Sign in with e-mail</Trans>
        </Link>
        <Link className="button" to={withRedirect('/i/login/phone', raw)}>
          <Trans>Sign in with phone</Trans>
        </Link>
        <Link className="button button-secondary" to={withRedirect('/i/login/mail/create', raw)}>
          <Trans>Create account</Trans>
        </Link>
      </div>
      <GuestEntry />
    </section>
  );
}

/** A 24-hour guest account: only a name, for someone who just wants to join a call or a chat. */
function GuestEntry() {
  const { t } = useLingui();
  const [name, setName] = useState('');
  const { errors, validate, showServerError } = useFormErrors(GUEST_FIELDS);
  const signedIn = useSignedIn();
  const guest = trpc.auth.guest.useMutation({ onSuccess: signedIn, onError: showServerError });

  function submit(event: FormEvent) {
    event.preventDefault();
    const input = validate(guestInput, { name });
    if (input) guest.mutate(input);
  }
  return (
    <form className="auth-form auth-guest" onSubmit={submit} noValidate aria-labelledby="guest-title">
      <h2 id="guest-title">
        <Trans>Enter as a guest</Trans>
      </h2>
      <p className="muted">
        <Trans>A guest account lasts 24 hours.</Trans>
      </p>
      <FormError message={errors.form} />
      <TextField label={t`Your name`} autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} error={errors.fields.name} />
      <SubmitButton pending={guest.isPending}>
        <Trans>Enter as guest</Trans>
      </SubmitButton>
    </form>
  );
}
