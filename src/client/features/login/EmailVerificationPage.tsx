import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useRef } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useRedirectTarget, withRedirect } from '../../guard/session';
import { translateServerMessage } from '../../guard/serverMessages';
import { trpc } from '../../trpc';
import { FormError, FormNotice } from '../../ui/Form';
import { PageTitle } from '../../ui/PageTitle';
import { Spinner } from '../../ui/Spinner';

/**
 * /i/emailVerification. With ?token= (the mailed link) it verifies and goes on to ?redirect=;
 * without, it is where the route guard parks a user whose e-mail must be verified first.
 */
export function EmailVerificationPage() {
  const { t } = useLingui();
  const [params] = useSearchParams();
  const token = params.get('token');
  return (
    <section className="page auth-page">
      <PageTitle title={t`E-mail verification`} />
      {token === null ? <VerifyFirst /> : <VerifyToken token={token} />}
    </section>
  );
}

function VerifyToken({ token }: { token: string }) {
  const { i18n } = useLingui();
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const { target } = useRedirectTarget();
  const verify = trpc.auth.verifyEmail.useMutation({
    onSuccess: async () => {
      // The guard must see the verified user before the next screen, or it sends them back here.
      await utils.auth.me.invalidate();
      await navigate(target, { replace: true });
    },
  });
  // The token is single-use: StrictMode's second effect run must not spend it again.
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    verify.mutate({ token });
  }, [token, verify]);

  if (!verify.isError) return <Spinner />;
  return (
    <div className="auth-form">
      <FormError message={translateServerMessage(i18n, verify.error.message)} />
      <ResendVerification />
    </div>
  );
}

function VerifyFirst() {
  const navigate = useNavigate();
  const { target } = useRedirectTarget();
  const me = trpc.auth.me.useQuery();
  const email = me.data?.user?.email;

  // Verified in another tab or on the phone: this tab only needs to ask again.
  async function continueIfVerified() {
    const { data } = await me.refetch();
    if (data?.user && !data.user.needsEmailVerification) await navigate(target, { replace: true });
  }
  return (
    <div className="auth-form">
      <p className="notice-warn" role="alert">
        <Trans>Verify your e-mail to continue!</Trans>
      </p>
      {email && (
        <p>
          <Trans>We sent a link to {email}. Open it to continue.</Trans>
        </p>
      )}
      <ResendVerification />
      {email && (
        <button type="button" className="button button-secondary" disabled={me.isFetching} onClick={() => void continueIfVerified()}>
          <Trans>I have verified it</Trans>
        </button>
      )}
    </div>
  );
}

/** A new link for the signed-in user; someone not signed in is offered to sign in instead. */
function ResendVerification() {
  const { i18n } = useLingui();
  const { raw, target } = useRedirectTarget();
  const user = trpc.auth.me.useQuery().data?.user;
  const send = trpc.auth.sendVerificationEmail.useMutation();
  if (!user?.email) {
    return (
      <Link className="button" to={withRedirect('/i/login/mail', raw)}>
        <Trans>Sign in</Trans>
      </Link>
    );
  }
  const sentTo = send.data?.sentTo;
  return (
    <>
      {send.isError && <FormError message={translateServerMessage(i18n, send.error.message)} />}
      {sentTo && (
        <FormNotice>
          <Trans>Sent to {sentTo}.</Trans>
        </FormNotice>
      )}
      <button type="button" className="button" disabled={send.isPending} onClick={() => send.mutate({ redirect: target })}>
        <Trans>Resend e-mail</Trans>
      </button>
    </>
  );
}
