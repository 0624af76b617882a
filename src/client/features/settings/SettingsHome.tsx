import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'react-router-dom';
import { AccountSummary } from './AccountSummary';
import { AdminScreen } from './AdminScreen';

/** /i/settings: an overview of the selected company beside the sections list. */
export function SettingsHome() {
  const { t } = useLingui();
  return (
    <AdminScreen title={t`Overview`}>
      {(company) => (
        <>
          <dl className="facts">
            <dt>
              <Trans>Company</Trans>
            </dt>
            <dd>{company.name}</dd>
            <dt>
              <Trans>Domain</Trans>
            </dt>
            <dd>
              <Link to={`/${company.domain}`}>{company.domain}</Link>
            </dd>
          </dl>
          <AccountSummary domain={company.domain} brief />
          <p>
            <Link to="configCompany">
              <Trans>See the company account</Trans>
            </Link>
          </p>
          <p className="muted">
            <Trans>Choose a section to manage.</Trans>
          </p>
        </>
      )}
    </AdminScreen>
  );
}
