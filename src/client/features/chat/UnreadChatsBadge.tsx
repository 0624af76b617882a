import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { CountBadge } from '../../ui/Badge';
import { useUnreadCount } from './unreadCount';

/** The navigation's count of the selected company's conversations with unread messages, live. */
export function UnreadChatsBadge() {
  const { t } = useLingui();
  const count = useUnreadCount();
  return <CountBadge count={count} className="nav-badge" label={t({ message: plural(count, { one: '# conversation with unread messages', other: '# conversations with unread messages' }) })} />;
}
