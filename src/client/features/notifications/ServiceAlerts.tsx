import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { useNavigate } from 'react-router-dom';
import { trpc } from '../../trpc';
import { toast } from '../../ui/Toast';
import { useSocketEvent } from '../service/live';
import { playQueueSound, showBrowserNotification } from './browser';
import { notificationTitle } from './texts';

/**
 * What the signed-in app does with pushes wherever the user is: the queue alarm plays the queue
 * sound (unless playFila is off), and new notifications refresh the list and show as browser
 * notifications while the tab is not in view, as toasts while it is (new-request ones unless
 * playNotificationFila is off).
 */
export function ServiceAlerts() {
  const { i18n } = useLingui();
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const me = trpc.auth.me.useQuery();
  const settings = me.data?.user?.settings;
  useSocketEvent('queue:alarm', () => {
    if (settings?.playFila !== false) playQueueSound();
  });
  useSocketEvent(
    'notification:new',
    (n) => {
      void utils.notifications.list.invalidate();
      if (n.type === 'queueRequest' && settings?.playNotificationFila === false) return;
      const title = notificationTitle(i18n, n.title);
      if (document.visibilityState === 'visible') {
        // In view: a toast in the app (the browser's own notification is for when it is not).
        toast.info(n.subtitle ?? title, {
          title: n.subtitle ? title : undefined,
          key: `notification:${n.type ?? n.id}`,
          action: n.action ? { label: i18n._(msg`Open`), onAction: () => void navigate(n.action!) } : undefined,
        });
        return;
      }
      showBrowserNotification({ id: n.id, title, body: n.subtitle, action: n.action }, (path) => void navigate(path));
    },
    () => void utils.notifications.list.invalidate(),
  );
  useSocketEvent('notification:read', () => void utils.notifications.list.invalidate());
  return null;
}
