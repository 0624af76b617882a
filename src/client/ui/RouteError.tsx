import { Trans, useLingui } from '@lingui/react/macro';
import { isRouteErrorResponse, useRouteError } from 'react-router-dom';
import { NotFound } from './NotFound';
import { PageTitle } from './PageTitle';

/** What a screen shows instead of itself when it throws or its code cannot be loaded. */
export function RouteError() {
  const error = useRouteError();
  const { t } = useLingui();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  console.error(error);
  return (
    <section className="page page-centered">
      <PageTitle title={t`Something went wrong`} />
      <p className="muted">
        <Trans>Reload the page to try again. If it keeps happening, tell your administrator.</Trans>
      </p>
      <button type="button" className="button" onClick={() => window.location.reload()}>
        <Trans>Reload</Trans>
      </button>
    </section>
  );
}
