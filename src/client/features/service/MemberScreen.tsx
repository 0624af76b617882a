import { Trans } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { useSelectedCompany, type MyCompany } from '../../guard/company';
import { PageTitle, Subpage } from '../../ui/PageTitle';
import { Spinner } from '../../ui/Spinner';

/**
 * An attendant's screen: its title, then its content for the selected company once it is known
 * and the user is an active member of it; otherwise where to go instead.
 */
export function MemberScreen({ title, children, className }: { title: string; children: (company: MyCompany) => ReactNode; className?: string }) {
  const { company, isPending } = useSelectedCompany();
  let body: ReactNode;
  if (isPending) body = <Spinner />;
  else if (!company || company.state !== 'active') {
    body = (
      <div className="empty-state">
        <p className="muted">
          <Trans>Choose the company you work in.</Trans>
        </p>
        <Link className="button" to="/i/selectCompany">
          <Trans>Choose company</Trans>
        </Link>
      </div>
    );
  } else body = children(company);
  return (
    <section className={`page service-page ${className ?? ''}`}>
      <PageTitle title={title} />
      <Subpage>{body}</Subpage>
    </section>
  );
}
