import { useLingui } from '@lingui/react/macro';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import {
  Bell,
  Building2,
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
import { lazy, Suspense, type ComponentType } from 'react';
import { Button as AriaButton, Dialog as AriaDialog, DialogTrigger, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { NavLink, Outlet } from 'react-router-dom';
import { useMyPermissions, usePlanFeatures } from '../guard/company';
import { CompanyGate } from '../guard/CompanyGate';
import { CallsHost } from '../features/calls/CallsHost';
import { FeedBadge } from '../features/feeds/FeedBadge';
import { UnreadChatsBadge } from '../features/chat/UnreadChatsBadge';
import { NotificationsBadge } from '../features/notifications/NotificationsBadge';
import { QueueBadge } from '../features/service/QueueBadge';
import { ServiceAlerts } from '../features/notifications/ServiceAlerts';
import { Spinner } from './Spinner';

// The chat of the selected company around every screen of the app (sync engine, unread title and
// badge, receive sound); its own chunk, shared with the conversation screens.
const ChatShell = lazy(() => import('../features/chat/ChatShell').then((m) => ({ default: m.ChatShell })));

interface NavItem {
  to: string;
  label: MessageDescriptor;
  icon: LucideIcon;
  /** On a phone the bottom bar holds the primary items; the rest open from 'More'. */
  primary?: boolean;
  /** Shown only when the company's plan has the flag. */
  plan?: 'kanban' | 'calendar';
  /** Shown only to members whose profile has the permission (the server refuses the others anyway). */
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
  const permissions = useMyPermissions();
  const items = NAV.filter((item) => (!item.plan || features?.[item.plan]) && (!item.permission || permissions?.[item.permission]));
  return (
    <div className="app">
      <nav className="app-nav" aria-label={t`Main`}>
        {items.map((item) => (
          <AppLink key={item.to} item={item} label={i18n._(item.label)} />
        ))}
        <DialogTrigger>
          <AriaButton className="app-nav-more">
            <MenuIcon aria-hidden="true" />
            <span className="app-link-label">{t`More`}</span>
          </AriaButton>
          <ModalOverlay isDismissable className="modal-overlay app-drawer-overlay">
            <Modal className="modal app-drawer">
              <AriaDialog className="modal-dialog app-drawer-body" aria-label={t`More`}>
                {({ close }) => (
                  <>
                    <Heading slot="title" className="modal-dialog-title">
                      {t`More`}
                    </Heading>
                    <div className="section-nav" onClick={(e) => (e.target as HTMLElement).closest('a') && close()}>
                      {items
                        .filter((item) => !item.primary)
                        .map((item) => (
                          <AppLink key={item.to} item={item} label={i18n._(item.label)} />
                        ))}
                    </div>
                  </>
                )}
              </AriaDialog>
            </Modal>
          </ModalOverlay>
        </DialogTrigger>
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

function AppLink({ item, label }: { item: NavItem; label: string }) {
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
