import { Trans } from '@lingui/react/macro';
import { Suspense, type ReactNode } from 'react';
import { NavLink, Outlet } from 'react-router-dom';
import { CompanyGate } from '../guard/CompanyGate';
import { Spinner } from './Spinner';

/** The signed-in app (/i/...): the main areas on the side, the current one next to them. */
export function AppLayout() {
  return (
    <div className="app">
      <nav className="app-nav">
        <AppLink to="/i/recent">
          <Trans>Recent chats</Trans>
        </AppLink>
        <AppLink to="/i/calendar">
          <Trans>Calendar</Trans>
        </AppLink>
        <AppLink to="/i/notes">
          <Trans>Notes</Trans>
        </AppLink>
        <AppLink to="/i/dashboard">
          <Trans>Dashboard</Trans>
        </AppLink>
        <AppLink to="/i/notifications">
          <Trans>Notifications</Trans>
        </AppLink>
        <AppLink to="/i/settings">
          <Trans>Settings</Trans>
        </AppLink>
        <AppLink to="/i/selectCompany">
          <Trans>Choose company</Trans>
        </AppLink>
        <AppLink to="/i/invites">
          <Trans>Invitations</Trans>
        </AppLink>
        <AppLink to="/i/myAccount">
          <Trans>My account</Trans>
        </AppLink>
      </nav>
      <div className="app-content">
        <CompanyGate />
        {/* Its own boundary, so the side navigation stays put while an area's code loads. */}
        <Suspense fallback={<Spinner />}>
          <Outlet />
        </Suspense>
      </div>
    </div>
  );
}

function AppLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <NavLink to={to} className={({ isActive }) => (isActive ? 'app-link active' : 'app-link')}>
      {children}
    </NavLink>
  );
}
