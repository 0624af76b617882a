import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'react-router-dom';
import { useServerMessage } from '../../guard/company';
import { trpc } from '../../trpc';
import { SquareKanban } from 'lucide-react';
import { Badge, ButtonLink, EmptyState, LoadingSkeleton, RefusalState } from '../../ui';
import { formatProtocol, SLA_COLUMN_LABELS, STATE_LABELS } from './labels';
import { useSocketEvent } from './live';
import { MemberScreen } from './MemberScreen';

/** /i/kanbansla: service requests by SLA state and due date (admins see all, attendants theirs). */
export function SlaBoardPage() {
  const { t } = useLingui();
  return (
    <MemberScreen title={t`SLA board`} className="sla-page">
      {(company) => <SlaBoard domain={company.domain} />}
    </MemberScreen>
  );
}

function SlaBoard({ domain }: { domain: string }) {
  const { t, i18n } = useLingui();
  const serverMessage = useServerMessage();
  const utils = trpc.useUtils();
  const board = trpc.service.slaBoard.useQuery({ domain });
  const refetch = () => void utils.service.slaBoard.invalidate({ domain });
  useSocketEvent('conversation:updated', refetch, refetch);
  if (board.isPending) return <LoadingSkeleton variant="table" rows={3} label={t`Loading the SLA board…`} />;
  if (board.isError) return <RefusalState title={t`The SLA board is not available`} message={serverMessage(board.error)} />;
  if (board.data.columns.every((col) => col.cards.length === 0)) {
    return (
      <EmptyState
        icon={SquareKanban}
        title={t`No requests with an SLA yet`}
        description={t`Requests from queues with an SLA, and requests with an agreed due date, show here by their state.`}
        action={
          <ButtonLink to="/i/settings/queues" variant="secondary">
            <Trans>Set up queues</Trans>
          </ButtonLink>
        }
      />
    );
  }
  const when = (d: Date | string | null) => (d ? i18n.date(new Date(d), { dateStyle: 'short', timeStyle: 'short' }) : null);
  return (
    <div className="sla-board">
      {board.data.columns.map((col) => (
        <section key={col.key} className={`sla-column sla-${col.key}`} aria-labelledby={`sla-${col.key}`}>
          <h2 id={`sla-${col.key}`}>
            {i18n._(SLA_COLUMN_LABELS[col.key])} <Badge>{col.cards.length}</Badge>
          </h2>
          <ul>
            {col.cards.map((card) => (
              <li key={card.conversationId} className="sla-card">
                <Link to={`/i/recent/chat/${card.conversationId}`}>{card.title || formatProtocol(card.protocol)}</Link>
                <div className="muted">
                  {formatProtocol(card.protocol)} · {i18n._(STATE_LABELS[card.state] ?? STATE_LABELS[1]!)}
                </div>
                {card.dueAt && (
                  <div>
                    {card.accepted ? <Trans>Agreed: {when(card.dueAt)}</Trans> : <Trans>Due: {when(card.dueAt)}</Trans>}
                  </div>
                )}
                {col.key === 'proposal' && card.offerDate && (
                  <div>
                    <Trans>Proposed: {when(card.offerDate)}</Trans>
                  </div>
                )}
                {card.responsibleName && <div className="muted">{card.responsibleName}</div>}
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
