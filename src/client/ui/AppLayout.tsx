import { useLingui } from '@lingui/react/macro';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import {
  Bell,
  Building2,
  CalendarClock,
  CalendarDays,
  Inbox,
  LayoutDashboard,
  Mail,
  Menu as MenuIcon,
  Newspaper,
  Contact,
  MessagesSquare,
  NotebookPen,
  Settings,
  SquareKanban,
  UserRound,
  type LucideIcon,
} from 'lucide-react';
import { lazy, Suspense, useState, type ComponentType } from 'react';
import { NavLink, Outlet } from 'react-router-dom';
import { useMyStanding, usePlanFeatures } from '../guard/company';
import { CompanyGate } from '../guard/CompanyGate';
import { CallsHost } from '../features/calls/CallsHost';
import { FeedBadge } from '../features/feeds/FeedBadge';
import { UnreadChatsBadge } from '../features/chat/UnreadChatsBadge';
import { NotificationsBadge } from '../features/notifications/NotificationsBadge';
import { QueueBadge } from '../features/service/QueueBadge';
import { ServiceAlerts } from '../features/notifications/ServiceAlerts';
import { Spinner } from './Spinner';

const loadDrawer = () => import('./AppDrawer');
// The 'More' drawer (React Aria's modal): loaded when its button is pointed at, focused or pressed.
const AppDrawer = lazy(loadDrawer);

// The chat of the selected company around every screen of the app (sync engine, unread title and
// badge, receive sound); its own chunk, shared with the conversation screens.
const ChatShell = lazy(() => import('../features/chat/ChatShell').then((m) => ({ default: m.ChatShell })));

export interface NavItem {
  to: string;
  label: MessageDescriptor;
  icon: LucideIcon;
  /** On a phone the bottom bar holds the primary items; the rest open from 'More'. */
  primary?: boolean;
  /** Shown only when the company's plan has the flag. */
  plan?: 'kanban' | 'calendar';
  /** Shown only to admins and members whose profile grants it (the server refuses the others). */
  permission?: 'viewReports';
  /** A live count next to the label (unread conversations, customers waiting, notifications, posts). */
  badge?: ComponentType;
}

const NAV: readonly NavItem[] = [
  { to: '/i/recent', label: msg`Recent chats`, icon: MessagesSquare, primary: true, badge: UnreadChatsBadge },
  { to: '/i/recent/queue/all', label: msg`Queue`, icon: Inbox, primary: true, badge: QueueBadge },
  { to: '/i/kanbansla', label: msg`SLA board`, icon: SquareKanban, plan: 'kanban' },
  { to: '/i/recent/feeds/all', label: msg`Feed`, icon: Newspaper, badge: FeedBadge },
  { to: '/i/recent/customers/all', label: msg`Customers`, icon: Contact },
  { to: '/i/calendar', label: msg`Calendar`, icon: CalendarDays, primary: true, plan: 'calendar' },
  { to: '/i/schedule', label: msg`Appointments`, icon: CalendarClock, plan: 'calendar' },
  { to: '/i/notes', label: msg`Notes`, icon: NotebookPen },
  { to: '/i/dashboard', label: msg`Dashboard`, icon: LayoutDashboard, permission: 'viewReports' },
  { to: '/i/notifications', label: msg`Notifications`, icon: Bell, primary: true, badge: NotificationsBadge },
  { to: '/i/settings', label: msg`Settings`, icon: Settings },
  { to: '/i/selectCompany', label: msg`Choose company`, icon: Building2 },
  { to: '/i/invites', label: msg`Invitations`, icon: Mail },
  { to: '/i/myAccount', label: msg`My account`, icon: UserRound },
];

/**
 * The signed-in app (/i/...): the main areas on the side, the current one next to them. On a
 * phone the side navigation is a bottom bar with the main areas and 'More' for the others.
 */
export function AppLayout() {
  const { t, i18n } = useLingui();
  const features = usePlanFeatures();
  const me = useMyStanding();
  const items = NAV.filter((item) => (!item.plan || features?.[item.plan]) && (!item.permission || me?.permissions[item.permission]));
  return (
    <div className="app">
      <nav className="app-nav" aria-label={t`Main`}>
        {items.map((item) => (
          <AppLink key={item.to} item={item} label={i18n._(item.label)} />
        ))}
        <MoreButton items={items.filter((item) => !item.primary)} />
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

export function AppLink({ item, label }: { item: NavItem; label: string }) {
  const Icon = item.icon;
  const Badge = item.badge;
  return (
    <NavLink
      to={item.to}
      className={({ isActive }) => ['app-link', !item.primary && 'app-link-secondary', isActive && 'active'].filter(Boolean).join(' ')}
    >
      <Icon aria-hidden="true" />
      <span className="app-link-label">{label}</span>
      {Badge && <Badge />}
    </NavLink>
  );
}

/** 'More' (the bottom bar on a phone): the other areas in a drawer. */
function MoreButton({ items }: { items: readonly NavItem[] }) {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="app-nav-more"
        aria-haspopup="dialog"
        aria-expanded={open}
        onPointerEnter={() => void loadDrawer()}
        onFocus={() => void loadDrawer()}
        onClick={() => setOpen(true)}
      >
        <MenuIcon aria-hidden="true" />
        <span className="app-link-label">{t`More`}</span>
      </button>
      {open && (
        <Suspense fallback={null}>
          <AppDrawer items={items} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
