import { Trans, useLingui } from '@lingui/react/macro';
import { Building2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { ButtonLink, EmptyState, LoadingSkeleton, PageTitle, RefusalState, Subpage } from '../../ui';
import { useServerText } from './serverText';
import { useSettingsCompany, type SelectedCompany } from './useSelectedCompany';

/**
 * A settings screen: its title, then its content for the selected company once it is known and
 * the user administers it; otherwise why not, and where to go instead.
 */
export function AdminScreen({ title, children }: { title: string; children: (company: SelectedCompany) => ReactNode }) {
  const { t } = useLingui();
  const selected = useSettingsCompany();
  const serverText = useServerText();
  let body: ReactNode;
  if (selected.status === 'loading') body = <LoadingSkeleton variant="form" rows={3} />;
  else if (selected.status === 'error') body = <RefusalState title={t`The settings could not be loaded`} message={serverText(selected.message)} />;
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
  const { t } = useLingui();
  return (
    <EmptyState
      icon={Building2}
      title={t`No company is selected. Choose the company whose settings you want to manage.`}
      action={
        <ButtonLink to="/i/selectCompany">
          <Trans>Choose company</Trans>
        </ButtonLink>
      }
    />
  );
}

function NotAdmin({ name }: { name: string }) {
  const { t } = useLingui();
  return (
    <RefusalState
      title={t`Only administrators of ${name} can manage its settings.`}
      action={
        <ButtonLink to="/i/settingsUser" variant="secondary">
          <Trans>Your own settings</Trans>
        </ButtonLink>
      }
    />
  );
}
