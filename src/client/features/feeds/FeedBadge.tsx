import { useLingui } from '@lingui/react/macro';
import { unreadBadge } from '../../../shared/domain/feeds';
import { useSelectedCompany } from '../../guard/company';
import { trpc } from '../../trpc';
import { useSocketEvent } from '../service/live';

/**
 * The shell's count of feed posts not seen yet (User.lastFeedTimestamp), live: a post written,
 * removed, or the feed seen in another tab refreshes it.
 */
export function FeedBadge() {
  const { t } = useLingui();
  const { company } = useSelectedCompany();
  const domain = company?.state === 'active' ? company.domain : '';
  const utils = trpc.useUtils();
  const unread = trpc.feeds.unread.useQuery({ domain }, { enabled: domain !== '', retry: false, staleTime: 30_000 });
  const refresh = () => void utils.feeds.unread.invalidate();
  useSocketEvent('feed:changed', (e) => (e.change === 'new' || e.change === 'removed' ? refresh() : undefined), refresh);
  useSocketEvent('feed:seen', refresh);
  const label = unreadBadge(unread.data?.count ?? 0);
  if (!label) return null;
  return (
    <span className="badge badge-warn feed-badge" aria-label={t`${label} unread posts`} data-testid="feed-unread">
      {label}
    </span>
  );
}
