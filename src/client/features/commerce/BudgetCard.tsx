import { useEffect } from 'react';
import { Link } from 'react-router-dom';
import { STATUS_LABELS, type BudgetMessageData } from '../../../shared/domain/commerce';
import { trpc } from '../../trpc';
import { Badge, FormError } from '../../ui';
import { BudgetDecision } from './BudgetDecision';
import { dateBr, formatCents } from './format';

/** Only the server writes these, but a card never trusts a message's data to render. */
function isBudgetData(d: unknown): d is BudgetMessageData {
  if (!d || typeof d !== 'object') return false;
  const b = d as Partial<BudgetMessageData>;
  return (
    typeof b.budgetId === 'string' &&
    /^[0-9a-f-]{36}$/i.test(b.budgetId) &&
    (b.state === 'sent' || b.state === 'accepted' || b.state === 'declined') &&
    Number.isSafeInteger(b.totalCents) &&
    Number.isSafeInteger(b.items) &&
    typeof b.validUntil === 'string' &&
    !Number.isNaN(Date.parse(b.validUntil)) &&
    (b.saleId === undefined || (typeof b.saleId === 'string' && /^[0-9a-f-]{36}$/i.test(b.saleId)))
  );
}

/**
 * An 'orcamento' message, on either side of the conversation. A sent budget shows its live status
 * (it may have been answered or expired since) and, to the customer while it waits, Accept and
 * Decline; an answer shows what became of it, with the sale.
 */
export function BudgetMessageCard({ data }: { data: unknown }) {
  const utils = trpc.useUtils();
  const answered = isBudgetData(data) && data.state !== 'sent' ? data.budgetId : null;
  // The answer arriving is when the card of the budget it answers must show it.
  useEffect(() => {
    if (answered) void utils.commerceView.budget.invalidate({ budgetId: answered });
  }, [answered, utils]);
  if (!isBudgetData(data)) return null;
  if (data.state !== 'sent') {
    return (
      <div className="commerce-card" lang="pt-BR">
        <span className="commerce-card-kind">{data.state === 'accepted' ? 'Orçamento aceito' : 'Orçamento recusado'}</span>
        <strong>{formatCents(data.totalCents)}</strong>
        <span className="commerce-card-links">
          <Link to={`/i/recent/budget/${data.budgetId}`}>Ver orçamento</Link>
          {data.saleId && <Link to={`/i/recent/sales/${data.saleId}`}>Ver venda</Link>}
        </span>
      </div>
    );
  }
  return <SentBudget data={data} />;
}

function SentBudget({ data }: { data: BudgetMessageData }) {
  const budget = trpc.commerceView.budget.useQuery({ budgetId: data.budgetId }, { retry: false });
  const b = budget.data;
  const status = b?.status ?? 'sent';
  return (
    <div className="commerce-card" lang="pt-BR" data-testid="budget-card">
      <span className="commerce-card-kind">Orçamento</span>
      <strong>{formatCents(data.totalCents)}</strong>
      <span className="muted">
        {data.items} item(ns) · válido até {dateBr(data.validUntil)}
      </span>
      {b && (
        <ul className="commerce-card-items">
          {b.items.slice(0, 4).map((i, k) => (
            <li key={k}>
              {i.quantity} × {i.name}
            </li>
          ))}
          {b.items.length > 4 && <li className="muted">e mais {b.items.length - 4}</li>}
        </ul>
      )}
      <Badge tone={status === 'accepted' ? 'ok' : status === 'sent' ? 'accent' : 'warn'}>{STATUS_LABELS[status]}</Badge>
      <FormError message={budget.error && budget.error.data?.code !== 'NOT_FOUND' ? budget.error.message : null} />
      {b?.canDecide && <BudgetDecision budgetId={data.budgetId} />}
      <span className="commerce-card-links">
        <Link to={`/i/recent/budget/${data.budgetId}`}>Ver orçamento</Link>
        {b?.saleId && <Link to={`/i/recent/sales/${b.saleId}`}>Ver venda</Link>}
      </span>
    </div>
  );
}
