import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { NavLink, useNavigate, useParams } from 'react-router-dom';
import type { QueueRequestEvent } from '../../../shared/service-events';
import { trpc } from '../../trpc';
import { Inbox } from 'lucide-react';
import { EmptyState, LoadingSkeleton, RefusalState } from '../../ui';
import { useServerMessage } from '../../guard/company';
import { formatProtocol } from './labels';
import { useSocketEvent } from './live';
import { useTake } from './socketTake';
import { MemberScreen } from './MemberScreen';

/**
 * /i/recent/queue/{id}: the requests waiting that this attendant may see ('all' or one queue),
 * live: new ones appear, taken ones disappear at once. Taking one opens it.
 */
export function QueuePage() {
  const { t } = useLingui();
  return <MemberScreen title={t`Queue`}>{(company) => <QueueView domain={company.domain} />}</MemberScreen>;
}

function QueueView({ domain }: { domain: string }) {
  const { t, i18n } = useLingui();
  const { id = 'all' } = useParams();
  const queueId = id === 'all' ? undefined : id;
  const navigate = useNavigate();
  const serverMessage = useServerMessage();
  const utils = trpc.useUtils();
  const queue = trpc.service.queue.useQuery({ domain, queueId });
  const [lost, setLost] = useState<string | null>(null);
  const take = useTake({
    onSuccess: ({ conversationId }) => void navigate(`/i/recent/chat/${conversationId}`),
    onError: (error) => {
      // Someone else was quicker, or it is gone: say so and show the queue as it is now.
      setLost(serverMessage(error));
      void utils.service.queue.invalidate({ domain });
    },
  });
  const refetch = () => void utils.service.queue.invalidate({ domain });
  useSocketEvent('queue:added', (p) => p.domain === domain && refetch(), refetch);
  useSocketEvent('queue:removed', (p) => {
    if (p.domain !== domain) return;
    // Drop them at once; the counts follow with the refetch.
    const gone = new Set(p.conversationIds);
    utils.service.queue.setData({ domain, queueId }, (old) => old && { ...old, requests: old.requests.filter((r) => !gone.has(r.conversationId)) });
    refetch();
  });

  if (queue.isPending) return <LoadingSkeleton variant="list" rows={3} />;
  if (queue.isError) return <RefusalState title={t`The queue could not be opened`} message={serverMessage(queue.error)} />;
  const { requests, queues, total } = queue.data;
  return (
    <div className="queue-view">
      <nav className="queue-tabs" aria-label={t`Queues`}>
        <NavLink to="/i/recent/queue/all" className={({ isActive }) => (isActive ? 'queue-tab active' : 'queue-tab')}>
          <Trans>All queues</Trans> <span className="badge">{total}</span>
        </NavLink>
        {queues.map((q) => (
          <NavLink key={q.id} to={`/i/recent/queue/${q.id}`} className={({ isActive }) => (isActive ? 'queue-tab active' : 'queue-tab')}>
            {q.name} <span className="badge">{q.waiting}</span>
          </NavLink>
        ))}
      </nav>
      {lost && (
        <p className="form-error" role="alert">
          {lost}
        </p>
      )}
      {requests.length === 0 ? (
        <EmptyState
          icon={Inbox}
          title={t`Nobody is waiting.`}
          description={t`New requests from your company page and Contact Us appear here as they arrive.`}
        />
      ) : (
        <ul className="queue-list" aria-label={t`Waiting requests`}>
          {requests.map((r) => (
            <QueueItem
              key={r.conversationId}
              request={r}
              taking={take.isPending && take.variables?.conversationId === r.conversationId}
              disabled={take.isPending}
              onTake={() => {
                setLost(null);
                take.mutate({ domain, conversationId: r.conversationId });
              }}
              since={i18n.date(new Date(r.queuedAt), { timeStyle: 'short' })}
            />
          ))}
        </ul>
      )}
    </div>
  );
}

function QueueItem({ request: r, onTake, taking, disabled, since }: { request: QueueRequestEvent; onTake: () => void; taking: boolean; disabled: boolean; since: string }) {
  const { t } = useLingui();
  const name = r.customerName || t`Visitor`;
  return (
    <li className="queue-item">
      <div className="queue-item-main">
        <strong>{name}</strong>
        {r.forMe && (
          <span className="badge badge-ok">
            <Trans>Transferred to you</Trans>
          </span>
        )}
        <div className="muted">
          {r.queueName ?? ''} · <Trans>waiting since {since}</Trans> · {formatProtocol(r.protocol)}
        </div>
        {r.preview && <p className="queue-item-preview">{r.preview}</p>}
      </div>
      <button type="button" className="button" data-shortcut="take" aria-label={t`Take the request of ${name}`} disabled={disabled} aria-busy={taking || undefined} onClick={onTake}>
        <Trans>Take</Trans>
      </button>
    </li>
  );
}
