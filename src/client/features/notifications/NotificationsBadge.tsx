import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { trpc } from '../../trpc';
import { CountBadge } from '../../ui/Badge';
import { useSocketEvent } from '../service/live';

/** The navigation's count of the user's unread notifications, live across tabs. */
export function NotificationsBadge() {
  const { t } = useLingui();
  const utils = trpc.useUtils();
  const me = trpc.auth.me.useQuery();
  const signedIn = !!me.data?.user && !me.data.user.anonymous;
  const unread = trpc.notifications.list.useQuery({ unreadOnly: true }, { enabled: signedIn, retry: false, staleTime: 30_000 });
  const refresh = () => void utils.notifications.list.invalidate();
  useSocketEvent('notification:new', refresh, refresh);
  useSocketEvent('notification:read', refresh);
  const count = unread.data?.unread ?? 0;
  return <CountBadge count={count} className="nav-badge" label={t({ message: plural(count, { one: '# unread notification', other: '# unread notifications' }) })} />;
}
