import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useRef } from 'react';
import { Navigate, Outlet, useLocation, useMatches } from 'react-router-dom';
import { APP_VERSION, AUTH_GUARD_RETRIES } from '../../shared/constants';
import { needsUpdate } from '../../shared/domain/version';
import type { RouteHandle } from '../routes';
import { trpc } from '../trpc';
import { PageTitle } from '../ui/PageTitle';
import { Spinner } from '../ui/Spinner';
import { legacyLinkTarget } from './legacyLinks';
import { isLoginPath } from './session';

/**
 * The route guard (spec 2, "Route guard"), around every screen. The first navigation waits for the
 * user; a visitor nobody signed in becomes anonymous, except on login screens, which always pass.
 * Auth-required screens send anonymous users to /i/login, an unverified e-mail (when the app
 * config asks for it) goes to /i/emailVerification, and an outdated client sees only the update notice.
 */
export function AuthGuard() {
  const location = useLocation();
  const matches = useMatches();
  const utils = trpc.useUtils();
  const me = trpc.auth.me.useQuery(undefined, { retry: AUTH_GUARD_RETRIES });
  const anonymous = trpc.auth.anonymous.useMutation({
    retry: AUTH_GUARD_RETRIES,
    onSuccess: (data) => utils.auth.me.setData(undefined, data),
  });

  const here = location.pathname + location.search;
  const loginPath = isLoginPath(location.pathname);
  const authRequired = matches.some((match) => (match.handle as RouteHandle | undefined)?.auth === true);
  const user = me.data?.user;
  // An old hash invitation link (/#/convite/...) goes to today's page before anything else.
  const legacyTarget = legacyLinkTarget(location.hash);
  const wantsAnonymous = me.isSuccess && !user && !loginPath && !authRequired && !legacyTarget;

  // A ref, not the mutation's state: StrictMode runs effects twice, and two parallel calls
  // without a cookie yet would create two anonymous users.
  const anonymousStarted = useRef(false);
  useEffect(() => {
    if (!wantsAnonymous || anonymousStarted.current) return;
    anonymousStarted.current = true;
    anonymous.mutate(undefined, { onSettled: () => (anonymousStarted.current = false) });
  }, [wantsAnonymous, anonymous]);

  if (legacyTarget) return <Navigate to={legacyTarget} replace />;
  // Only a failed start blocks the app: a background refetch that fails keeps the last answer.
  if ((!me.data && me.isError) || anonymous.isError) return <StartupFailed />;
  if (!me.data || wantsAnonymous) return <Spinner />;
  if (needsUpdate(APP_VERSION, me.data.app.minimalVersion)) return <UpdateRequired />;
  if (loginPath) return <Outlet />;
  if (authRequired && (!user || user.anonymous)) {
    return <Navigate to={`/i/login?redirect=${encodeURIComponent(here)}`} replace />;
  }
  if (user?.needsEmailVerification) {
    return <Navigate to={`/i/emailVerification?redirect=${encodeURIComponent(here)}`} replace />;
  }
  return <Outlet />;
}

function UpdateRequired() {
  const { t } = useLingui();
  return (
    <section className="page page-centered" role="alert">
      <PageTitle title={t`Update required`} />
      <p className="muted">
        <Trans>This version of the app is no longer supported. Reload the page to get the new one.</Trans>
      </p>
      <button type="button" className="button" onClick={() => window.location.reload()}>
        <Trans>Reload</Trans>
      </button>
    </section>
  );
}

function StartupFailed() {
  const { t } = useLingui();
  return (
    <section className="page page-centered" role="alert">
      <PageTitle title={t`Could not start`} />
      <p className="muted">
        <Trans>The server did not answer. Check your connection and reload the page.</Trans>
      </p>
      <button type="button" className="button" onClick={() => window.location.reload()}>
        <Trans>Reload</Trans>
      </button>
    </section>
  );
}
