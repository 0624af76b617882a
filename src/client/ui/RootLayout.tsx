import { Suspense } from 'react';
import { Link, Outlet } from 'react-router-dom';
import { UserMenu } from '../guard/UserMenu';
import { ConnectionNotices } from './ConnectionNotices';
import { HealthBadge } from './HealthBadge';
import { LanguagePicker } from './LanguagePicker';
import { BRAND } from './PageTitle';
import { Spinner } from './Spinner';

/** Frame of every screen: brand, signed-in user and language picker on top, the live connection's notices under them, server status at the bottom. */
export function RootLayout() {
  return (
    <div className="shell">
      <header className="shell-header">
        <Link to="/" className="brand">
          <span className="brand-mark" aria-hidden="true">
            A
          </span>
          {BRAND}
        </Link>
        <div className="shell-header-actions">
          <UserMenu />
          <LanguagePicker />
        </div>
      </header>
      <ConnectionNotices />
      <main className="shell-main">
        <Suspense fallback={<Spinner />}>
          <Outlet />
        </Suspense>
      </main>
      <footer className="shell-footer">
        <span>{BRAND}</span>
        <HealthBadge />
      </footer>
    </div>
  );
}
