import { Trans } from '@lingui/react/macro';
import { lazy, Suspense, type ReactNode } from 'react';
import { NavLink, Outlet } from 'react-router-dom';
import { usePlanFeatures } from '../guard/company';
import { CompanyGate } from '../guard/CompanyGate';
import { CallsHost } from '../features/calls/CallsHost';
import { ServiceAlerts } from '../features/notifications/ServiceAlerts';
import { Spinner } from './Spinner';

// The chat of the selected company around every screen of the app (sync engine, unread title and
// badge, receive sound); its own chunk, shared with the conversation screens.
const ChatShell = lazy(() => import('../features/chat/ChatShell').then((m) => ({ default: m.ChatShell })));


/** The signed-in app (/i/...): the main areas on the side, the current one next to them. */
export function AppLayout() {
  const features = usePlanFeatures();
  return (
    <div className="app">
      <nav className="app-nav">
        <AppLink to="/i/recent">
          <Trans>Recent chats</Trans>
        </AppLink>
        <AppLink to="/i/recent/queue/all">
          <Trans>Queue</Trans>
        </AppLink>
        {/* The plan's kanban flag. */}
        {features?.kanban && (
          <AppLink to="/i/kanbansla">
            <Trans>SLA board</Trans>
          </AppLink>
        )}
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
        <ServiceAlerts />
        <Suspense fallback={<Spinner />}>
          <ChatShell>
            {/* Its own boundary, so the side navigation and the chat stay put while an area's code loads. */}
            <Suspense fallback={<Spinner />}>
              <Outlet />
            </Suspense>
          </ChatShell>
        </Suspense>
      </div>
      {/* Incoming calls in every tab, and the call screen over whatever is open. */}
      <CallsHost />
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
