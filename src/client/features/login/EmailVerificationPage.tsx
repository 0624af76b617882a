import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useRef } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useRedirectTarget, withRedirect } from '../../guard/session';
import { translateServerMessage } from '../../guard/serverMessages';
import { trpc } from '../../trpc';
import { FormError, FormNotice } from '../../ui/Form';
import { PageTitle } from '../../ui/PageTitle';
import { Button, LoadingSkeleton, toast } from '../../ui';
import { rememberVerificationSent, verificationSentTo } from './verificationSent';

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
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const { target } = useRedirectTarget();
  const verify = trpc.auth.verifyEmail.useMutation({
    onSuccess: async () => {
      // The guard must see the verified user before the next screen, or it sends them back here.
      await utils.auth.me.invalidate();
      toast.ok(t`Your e-mail is verified.`);
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

  if (!verify.isError) return <LoadingSkeleton variant="text" rows={2} label={t`Verifying your e-mail…`} />;
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
          {/* Only what this tab knows: a link was sent at sign-up or by the button below. */}
          {verificationSentTo(email) ? (
            <Trans>We sent a link to {email}. Open it to continue.</Trans>
          ) : (
            <Trans>{email} is not verified yet. Send yourself a link and open it to continue.</Trans>
          )}
        </p>
      )}
      <ResendVerification />
      {email && (
        <Button variant="secondary" isPending={me.isFetching} onPress={() => void continueIfVerified()}>
          <Trans>I have verified it</Trans>
        </Button>
      )}
    </div>
  );
}

/** A new link for the signed-in user; someone not signed in is offered to sign in instead. */
function ResendVerification() {
  const { i18n } = useLingui();
  const { raw, target } = useRedirectTarget();
  const user = trpc.auth.me.useQuery().data?.user;
  const send = trpc.auth.sendVerificationEmail.useMutation({
    onSuccess: (result) => {
      if (result.sentTo) rememberVerificationSent(result.sentTo);
    },
  });
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
      <Button isPending={send.isPending} onPress={() => send.mutate({ redirect: target })}>
        {verificationSentTo(user.email) ? <Trans>Resend e-mail</Trans> : <Trans>Send the link</Trans>}
      </Button>
    </>
  );
}
