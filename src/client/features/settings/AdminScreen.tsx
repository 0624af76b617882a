import { Trans } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { PageTitle, Subpage } from '../../ui/PageTitle';
import { Spinner } from '../../ui/Spinner';
import { useServerText } from './serverText';
import { useSettingsCompany, type SelectedCompany } from './useSelectedCompany';
import './settings.css';

/**
 * A settings screen: its title, then its content for the selected company once it is known and
 * the user administers it; otherwise why not, and where to go instead.
 */
export function AdminScreen({ title, children }: { title: string; children: (company: SelectedCompany) => ReactNode }) {
  const selected = useSettingsCompany();
  const serverText = useServerText();
  let body: ReactNode;
  if (selected.status === 'loading') body = <Spinner />;
  else if (selected.status === 'error') body = <p className="form-error" role="alert">{serverText(selected.message)}</p>;
  else if (selected.status === 'none') body = <NoCompany />;
  else if (!selected.company.isAdmin || selected.company.state !== 'active') body = <NotAdmin name={selected.company.name} />;
  else body = children(selected.company);
  return (
    <section className="page settings-page">
      <PageTitle title={title} />
      <Subpage>{body}</Subpage>
    </section>
  );
}

function NoCompany() {
  return (
    <div className="empty-state">
      <p className="muted">
        <Trans>No company is selected. Choose the company whose settings you want to manage.</Trans>
      </p>
      <Link className="button" to="/i/selectCompany">
        <Trans>Choose company</Trans>
      </Link>
    </div>
  );
}

function NotAdmin({ name }: { name: string }) {
  return (
    <div className="empty-state">
      <p className="muted">
        <Trans>Only administrators of {name} can manage its settings.</Trans>
      </p>
      <Link className="button button-secondary" to="/i/selectCompany">
        <Trans>Choose another company</Trans>
      </Link>
    </div>
  );
}
