import { Download, Printer } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router-dom';
import { STATUS_LABELS } from '../../../shared/domain/commerce';
import { trpc } from '../../trpc';
import { Badge, Button, EmptyState, FormError, LoadingSkeleton, PageTitle, RefusalState } from '../../ui';
import { BudgetDecision } from './BudgetDecision';
import { dateBr, dateTimeBr, formatCents, pdfUrl, shortId } from './format';

type Line = { code: string; name: string; quantity: number; unitPriceCents: number; discountPercent: number; totalCents: number };

/** The lines and totals of a budget or sale, as the printer gets them. */
function Lines({ items, subtotalCents, discountCents, totalCents }: { items: Line[]; subtotalCents: number; discountCents: number; totalCents: number }) {
  return (
    <table className="commerce-doc-table">
      <thead>
        <tr>
          <th scope="col">Código</th>
          <th scope="col">Produto</th>
          <th scope="col">Qtd.</th>
          <th scope="col">Preço unit.</th>
          <th scope="col">Desc.</th>
          <th scope="col">Total</th>
        </tr>
      </thead>
      <tbody>
        {items.map((i, k) => (
          <tr key={k}>
            <td>{i.code}</td>
            <th scope="row">{i.name}</th>
            <td>{i.quantity}</td>
            <td>{formatCents(i.unitPriceCents)}</td>
            <td>{i.discountPercent ? `${i.discountPercent}%` : '—'}</td>
            <td>{formatCents(i.totalCents)}</td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row" colSpan={5}>
            Subtotal
          </th>
          <td>{formatCents(subtotalCents)}</td>
        </tr>
        {discountCents > 0 && (
          <tr>
            <th scope="row" colSpan={5}>
              Desconto
            </th>
            <td>- {formatCents(discountCents)}</td>
          </tr>
        )}
        <tr className="commerce-doc-total">
          <th scope="row" colSpan={5}>
            Total
          </th>
          <td>{formatCents(totalCents)}</td>
        </tr>
      </tfoot>
    </table>
  );
}

function Toolbar({ pdf, children }: { pdf: string; children?: ReactNode }) {
  return (
    <nav className="commerce-doc-actions no-print" aria-label="Opções do documento">
      {children}
      <Button variant="primary" icon={Printer} onPress={() => window.print()}>
        Imprimir
      </Button>
      <a className="button button-secondary" href={pdf} download>
        <Download size={16} aria-hidden="true" /> Baixar PDF
      </a>
    </nav>
  );
}

function Failure({ error }: { error: { message: string; data?: { code?: string } | null } }) {
  if (error.data?.code === 'NOT_FOUND') return <EmptyState title={error.message} description="Confira o endereço, ou peça ao atendente um novo link." />;
  if (error.data?.code === 'FORBIDDEN' || error.data?.code === 'UNAUTHORIZED') return <RefusalState title="Sem acesso" message={error.message} />;
  return <FormError message={error.message} />;
}

/** /i/recent/budget/{id}: a budget as a printable page, its PDF, and the customer's answer while it waits. */
export function BudgetPage() {
  const { id = '' } = useParams();
  const query = trpc.commerceView.budget.useQuery({ budgetId: id }, { retry: false, enabled: /^[0-9a-f-]{36}$/i.test(id) });
  if (!/^[0-9a-f-]{36}$/i.test(id)) return <EmptyState title="Orçamento não encontrado" />;
  if (query.isPending) return <LoadingSkeleton variant="form" />;
  if (query.error) return <Failure error={query.error} />;
  const b = query.data;
  return (
    <section className="page commerce-doc-page" lang="pt-BR">
      <Toolbar pdf={pdfUrl('budget', b.id)}>{b.saleId && <Link to={`/i/recent/sales/${b.saleId}`}>Ver venda</Link>}</Toolbar>
      {b.canDecide && <BudgetDecision budgetId={b.id} />}
      <article className="commerce-doc">
        <header>
          <p className="commerce-doc-company">{b.companyName}</p>
          <PageTitle title={`Orçamento ${shortId(b.id)}`} />
          <p className="commerce-doc-meta">
            <Badge tone={b.status === 'accepted' ? 'ok' : b.status === 'sent' ? 'accent' : b.status === 'draft' ? 'neutral' : 'warn'}>{STATUS_LABELS[b.status]}</Badge> · Emitido em{' '}
            {dateTimeBr(b.sentAt ?? b.createdAt)} por {b.createdByName} · Válido até {dateBr(b.validUntil)}
            {b.customerNames.length > 0 && <> · Cliente: {b.customerNames.join(', ')}</>}
          </p>
        </header>
        <Lines items={b.items} subtotalCents={b.subtotalCents} discountCents={b.discountCents} totalCents={b.totalCents} />
        {b.notes && <p className="commerce-doc-notes">Observações: {b.notes}</p>}
      </article>
    </section>
  );
}

/** /i/recent/sales/{id}: a sale as a printable page and its PDF. */
export function SalePage() {
  const { id = '' } = useParams();
  const valid = /^[0-9a-f-]{36}$/i.test(id);
  const query = trpc.commerceView.sale.useQuery({ saleId: id }, { retry: false, enabled: valid });
  if (!valid) return <EmptyState title="Venda não encontrada" />;
  if (query.isPending) return <LoadingSkeleton variant="form" />;
  if (query.error) return <Failure error={query.error} />;
  const s = query.data;
  return (
    <section className="page commerce-doc-page" lang="pt-BR">
      <Toolbar pdf={pdfUrl('sale', s.id)}>
        <Link to={`/i/recent/budget/${s.budgetId}`}>Ver orçamento</Link>
      </Toolbar>
      <article className="commerce-doc">
        <header>
          <p className="commerce-doc-company">{s.companyName}</p>
          <PageTitle title={`Venda ${shortId(s.id)}`} />
          <p className="commerce-doc-meta">
            Data: {dateTimeBr(s.createdAt)} · Cliente: {s.customerName} · Atendente: {s.attendantName} · Orçamento {shortId(s.budgetId)}
          </p>
        </header>
        <Lines items={s.items} subtotalCents={s.subtotalCents} discountCents={s.discountCents} totalCents={s.totalCents} />
      </article>
    </section>
  );
}
