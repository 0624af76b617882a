import { Suspense } from 'react';
import { RouterProvider as AriaRouterProvider } from 'react-aria-components';
import { Link, Outlet, useHref, useNavigate } from 'react-router-dom';
import { AccessNotices } from '../guard/AccessNotices';
import { UserMenu } from '../guard/UserMenu';
import { ConnectionNotices } from './ConnectionNotices';
import { HealthBadge } from './HealthBadge';
import { LanguagePicker } from './LanguagePicker';
import { BRAND } from './PageTitle';
import { Spinner } from './Spinner';
import { ThemeToggle } from './ThemeToggle';
import { ToastRegion } from './Toast';

/**
 * Frame of every screen: brand, signed-in user, theme and language on top, the live connection's
 * notices under them, server status at the bottom, and the toasts over everything. React Aria's
 * links (menu items, tabs, icon links) navigate through the router.
 */
export function RootLayout() {
  const navigate = useNavigate();
  return (
    <AriaRouterProvider navigate={(to) => void navigate(to)} useHref={useHref}>
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
            <ThemeToggle />
            <LanguagePicker />
          </div>
        </header>
        <ConnectionNotices />
        <AccessNotices />
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
      <ToastRegion />
    </AriaRouterProvider>
  );
}
