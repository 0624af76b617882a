import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useServerMessage } from '../../guard/company';
import { trpc } from '../../trpc';
import { Dialog } from '../../ui/Dialog';
import { FormError } from '../../ui/Form';
import { PageTitle, Subpage } from '../../ui/PageTitle';
import { Spinner } from '../../ui/Spinner';
import { askBrowserPermission, browserPermission, type BrowserPermission } from './browser';
import { ensurePushSubscription } from './push';
import { notificationTitle } from './texts';

/** /i/notifications: newest first, read and unread, and the browser's permission to show them. */
export function NotificationsPage() {
  const { t, i18n } = useLingui();
  const serverMessage = useServerMessage();
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const [unreadOnly, setUnreadOnly] = useState(false);
  const list = trpc.notifications.list.useQuery({ unreadOnly });
  const refresh = () => utils.notifications.list.invalidate();
  const markRead = trpc.notifications.markRead.useMutation({ onSuccess: refresh });
  const markAll = trpc.notifications.markAllRead.useMutation({ onSuccess: refresh });
  const failed = markRead.error ?? markAll.error;

  return (
    <section className="page service-page">
      <PageTitle title={t`Notifications`} />
      <Subpage>
        <BrowserNotifications />
        <div className="filters">
          <label className="checkbox">
            <input type="checkbox" checked={unreadOnly} onChange={(e) => setUnreadOnly(e.target.checked)} />
            <span>
              <Trans>Unread only</Trans>
            </span>
          </label>
          <button type="button" className="button button-secondary" disabled={!list.data?.unread || markAll.isPending} onClick={() => markAll.mutate()}>
            <Trans>Mark all as read</Trans>
          </button>
        </div>
        <FormError message={failed ? serverMessage(failed) : null} />
        {list.isPending && <Spinner />}
        {list.isError && <FormError message={serverMessage(list.error)} />}
        {list.data && (
          <>
            <p className="muted" role="status">
              <Trans>{list.data.unread} unread</Trans>
            </p>
            {list.data.items.length === 0 ? (
              <p className="empty-state muted">
                <Trans>No notifications.</Trans>
              </p>
            ) : (
              <ul className="notification-list">
                {list.data.items.map((n) => (
                  <li key={n.id} className={n.read ? 'notification' : 'notification unread'}>
                    <button
                      type="button"
                      className="notification-open"
                      onClick={() => {
                        if (!n.read) markRead.mutate({ ids: [n.id] });
                        if (n.action) void navigate(n.action);
                      }}
                    >
                      <strong>{notificationTitle(i18n, n.title)}</strong>
                      {!n.read && (
                        <span className="badge badge-warn">
                          <Trans>New</Trans>
                        </span>
                      )}
                      {n.subtitle && <span className="notification-subtitle">{n.subtitle}</span>}
                      <span className="muted">
                        {n.company?.name ? `${n.company.name} · ` : ''}
                        {i18n.date(new Date(n.createdAt), { dateStyle: 'short', timeStyle: 'short' })}
                      </span>
                    </button>
                    {!n.read && (
                      <button type="button" className="button button-secondary button-small" disabled={markRead.isPending} onClick={() => markRead.mutate({ ids: [n.id] })}>
                        <Trans>Mark as read</Trans>
                      </button>
                    )}
                  </li>
                ))}
              </ul>
            )}
            <p className="muted">
              <Trans>Notifications are kept for 7 days.</Trans>
            </p>
          </>
        )}
      </Subpage>
    </section>
  );
}

/** The permission prompts (spec: 'Este browser não suporta notificações'; a dialog when denied). */
function BrowserNotifications() {
  const [permission, setPermission] = useState<BrowserPermission>(browserPermission);
  const [help, setHelp] = useState(false);
  const { t } = useLingui();
  const client = trpc.useUtils().client;
  // Allowed: this browser also gets them by Web Push while no tab is open (channels module).
  useEffect(() => {
    if (permission === 'granted') void ensurePushSubscription(client);
  }, [permission, client]);
  if (permission === 'granted') return null;
  return (
    <div className="notice-warn browser-notifications" role="status">
      {permission === 'unsupported' && <Trans>This browser does not support notifications</Trans>}
      {permission === 'default' && (
        <>
          <Trans>Allow browser notifications to know about new requests while you work in other tabs.</Trans>{' '}
          <button type="button" className="button button-small" onClick={() => void askBrowserPermission().then(setPermission)}>
            <Trans>Allow notifications</Trans>
          </button>
        </>
      )}
      {permission === 'denied' && (
        <>
          <Trans>Browser notifications are blocked for this site.</Trans>{' '}
          <button type="button" className="button button-small button-secondary" onClick={() => setHelp(true)}>
            <Trans>How to allow them</Trans>
          </button>
        </>
      )}
      {help && (
        <Dialog title={t`Allow notifications`} onClose={() => setHelp(false)}>
          <ol>
            <li>
              <Trans>Click the lock or site-information icon at the left of the address bar.</Trans>
            </li>
            <li>
              <Trans>Under Notifications, choose Allow.</Trans>
            </li>
            <li>
              <Trans>Reload this page.</Trans>
            </li>
          </ol>
        </Dialog>
      )}
    </div>
  );
}
