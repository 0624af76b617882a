import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'react-router-dom';
import { useServerMessage } from '../../guard/company';
import { trpc } from '../../trpc';
import { FormError } from '../../ui/Form';
import { Spinner } from '../../ui/Spinner';
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
  const { i18n } = useLingui();
  const serverMessage = useServerMessage();
  const utils = trpc.useUtils();
  const board = trpc.service.slaBoard.useQuery({ domain });
  const refetch = () => void utils.service.slaBoard.invalidate({ domain });
  useSocketEvent('conversation:updated', refetch, refetch);
  if (board.isPending) return <Spinner />;
  if (board.isError) return <FormError message={serverMessage(board.error)} />;
  const when = (d: Date | string | null) => (d ? i18n.date(new Date(d), { dateStyle: 'short', timeStyle: 'short' }) : null);
  return (
    <div className="sla-board">
      {board.data.columns.map((col) => (
        <section key={col.key} className={`sla-column sla-${col.key}`} aria-labelledby={`sla-${col.key}`}>
          <h2 id={`sla-${col.key}`}>
            {i18n._(SLA_COLUMN_LABELS[col.key])} <span className="badge">{col.cards.length}</span>
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
