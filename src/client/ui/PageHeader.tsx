import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { PageTitle } from './PageTitle';

/**
 * A screen's header: its title (PageTitle: the right heading level, and the tab's title), a line
 * saying what the screen is for, the main actions, and a way back when it is a sub-screen.
 */
export function PageHeader({
  title,
  description,
  actions,
  back,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  back?: { to: string; label: string };
}) {
  return (
    <>
      {back && (
        <Link to={back.to} className="back-link">
          <ArrowLeft aria-hidden="true" />
          {back.label}
        </Link>
      )}
      <header className="page-header">
        <div className="page-header-text">
          <PageTitle title={title} />
          {description && <p className="page-header-description">{description}</p>}
        </div>
        {actions && <div className="page-header-actions">{actions}</div>}
      </header>
    </>
  );
}
