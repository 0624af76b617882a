import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { useSelectedCompany } from '../../guard/company';
import { trpc } from '../../trpc';
import { CountBadge } from '../../ui/Badge';
import { useSocketEvent } from './live';

/**
 * The navigation's count of customers waiting in the queues this attendant sees, live: a request
 * arriving, taken, transferred or given up moves it on every screen.
 */
export function QueueBadge() {
  const { t } = useLingui();
  const { company } = useSelectedCompany();
  const domain = company?.state === 'active' ? company.domain : '';
  const utils = trpc.useUtils();
  const waiting = trpc.service.queueCount.useQuery({ domain }, { enabled: domain !== '', retry: false, staleTime: 30_000 });
  const refresh = () => void utils.service.queueCount.invalidate();
  useSocketEvent('queue:added', (p) => p.domain === domain && refresh(), refresh);
  useSocketEvent('queue:removed', (p) => p.domain === domain && refresh());
  const count = waiting.data?.total ?? 0;
  return <CountBadge count={count} className="nav-badge" label={t({ message: plural(count, { one: '# customer waiting', other: '# customers waiting' }) })} />;
}
