import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'react-router-dom';
import { PageTitle } from './PageTitle';

export function NotFound() {
  const { t } = useLingui();
  return (
    <section className="page page-centered">
      <PageTitle title={t`Sorry, page not found`} />
      <p className="muted">
        <Trans>The address may be mistyped, or the page may have moved.</Trans>
      </p>
      <Link className="button" to="/">
        <Trans>Go to the home page</Trans>
      </Link>
    </section>
  );
}
