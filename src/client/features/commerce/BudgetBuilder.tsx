import { Plus, ShoppingCart, Trash2 } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { budgetTotals, parsePriceCents, STATUS_LABELS } from '../../../shared/domain/commerce';
import { trpc } from '../../trpc';
import { Badge, Button, FormError, IconButton, ModalDialog, SelectField, TextAreaField, TextField } from '../../ui';
import { dateBr, dayFromToday, endOfDay, formatCents } from './format';

type Line = { productId: string; quantity: string; discountPercent: string };

/**
 * The conversation's budget button (attendants): this conversation's budgets, and a new one built
 * from the catalogue, sent to the customer as a message. Hidden when the plan has no stock control.
 */
export function BudgetButton({ domain, conversationId }: { domain: string; conversationId: string }) {
  const [open, setOpen] = useState(false);
  const products = trpc.commerce.products.useQuery({ domain }, { retry: false, staleTime: 30_000 });
  if (products.error?.data?.code === 'FORBIDDEN' || products.error?.data?.code === 'NOT_FOUND') return null;
  return (
    <>
      <IconButton label="Orçamento" icon={ShoppingCart} onPress={() => setOpen(true)} />
      {open && <BudgetDialog domain={domain} conversationId={conversationId} onClose={() => setOpen(false)} />}
    </>
  );
}

const toInt = (s: string) => (/^\s*\d+\s*$/.test(s) ? Number(s) : NaN);

function BudgetDialog({ domain, conversationId, onClose }: { domain: string; conversationId: string; onClose: () => void }) {
  const utils = trpc.useUtils();
  const products = trpc.commerce.products.useQuery({ domain }, { retry: false });
  const budgets = trpc.commerce.conversationBudgets.useQuery({ domain, conversationId }, { retry: false });
  const [lines, setLines] = useState<Line[]>([]);
  const [pick, setPick] = useState('');
  const [discount, setDiscount] = useState('');
  const [validUntil, setValidUntil] = useState(dayFromToday(7));
  const [notes, setNotes] = useState('');
  const [error, setError] = useState<string | null>(null);
  const create = trpc.commerce.createBudget.useMutation({
    onSuccess: () => {
      void utils.commerce.conversationBudgets.invalidate({ domain, conversationId });
      onClose();
    },
    onError: (e) => setError(e.message),
  });
  const send = trpc.commerce.sendBudget.useMutation({ onSuccess: () => void budgets.refetch(), onError: (e) => setError(e.message) });
  const byId = useMemo(() => new Map((products.data ?? []).map((p) => [p.id, p])), [products.data]);
  const chosen = pick || products.data?.find((p) => !lines.some((l) => l.productId === p.id))?.id || '';

  const discountCents = discount.trim() === '' ? 0 : parsePriceCents(discount);
  const parsed = lines.map((l) => ({ ...l, q: toInt(l.quantity), d: l.discountPercent.trim() === '' ? 0 : toInt(l.discountPercent), product: byId.get(l.productId) }));
  const lineProblem = parsed.find((l) => !l.product || !(l.q >= 1) || !(l.d >= 0 && l.d <= 100));
  const totals = !lineProblem && discountCents !== null ? budgetTotals(parsed.map((l) => ({ quantity: l.q, unitPriceCents: l.product!.priceCents, discountPercent: l.d })), discountCents) : null;

  function submit(sendNow: boolean) {
    setError(null);
    if (lines.length === 0) return setError('Inclua ao menos um produto no orçamento');
    if (lineProblem) return setError('Confira as quantidades (1 ou mais) e os descontos (de 0 a 100%)');
    if (discountCents === null) return setError('Desconto inválido');
    const until = endOfDay(validUntil);
    if (!until) return setError('Informe a validade');
    if (totals && !totals.ok) return setError(totals.message);
    create.mutate({ domain, conversationId, items: parsed.map((l) => ({ productId: l.productId, quantity: l.q, discountPercent: l.d })), discountCents, validUntil: until, notes, send: sendNow });
  }
  const setLine = (i: number, patch: Partial<Line>) => setLines((ls) => ls.map((l, j) => (j === i ? { ...l, ...patch } : l)));

  return (
    <ModalDialog
      title="Orçamento"
      className="modal-wide commerce-builder"
      onCancel={onClose}
      onSubmit={() => submit(true)}
      actions={
        <>
          <Button type="submit" variant="primary" isPending={create.isPending} isDisabled={lines.length === 0}>
            Enviar ao cliente
          </Button>
          <Button variant="secondary" onPress={() => submit(false)} isDisabled={lines.length === 0 || create.isPending}>
            Salvar rascunho
          </Button>
          <Button variant="quiet" onPress={onClose}>
            Fechar
          </Button>
        </>
      }
    >
      <div lang="pt-BR">
        {budgets.data && budgets.data.length > 0 && (
          <section aria-label="Orçamentos desta conversa" className="commerce-budget-list">
            <h3>Nesta conversa</h3>
            <ul>
              {budgets.data.map((b) => (
                <li key={b.id}>
                  <Link to={`/i/recent/budget/${b.id}`} onClick={onClose}>
                    {formatCents(b.totalCents)} · {b.items} item(ns)
                  </Link>{' '}
                  <Badge tone={b.status === 'accepted' ? 'ok' : b.status === 'sent' ? 'accent' : b.status === 'draft' ? 'neutral' : 'warn'}>{STATUS_LABELS[b.status]}</Badge>{' '}
                  <span className="muted">válido até {dateBr(b.validUntil)}</span>
                  {b.status === 'draft' && (
                    <Button size="small" variant="secondary" onPress={() => send.mutate({ domain, budgetId: b.id })} isPending={send.isPending}>
                      Enviar
                    </Button>
                  )}
                  {b.saleId && (
                    <Link to={`/i/recent/sales/${b.saleId}`} onClick={onClose}>
                      Ver venda
                    </Link>
                  )}
                </li>
              ))}
            </ul>
          </section>
        )}
        <h3>Novo orçamento</h3>
        <FormError message={error ?? (products.error ? products.error.message : null)} />
        {products.data && products.data.length === 0 ? (
          <p className="muted">Nenhum produto no catálogo. Os administradores cadastram produtos em Configurações › Produtos.</p>
        ) : (
          <div className="commerce-pick">
            <SelectField
              label="Produto"
              value={chosen}
              onChange={(e) => setPick(e.target.value)}
              options={(products.data ?? []).map((p) => ({ value: p.id, label: `${p.code} · ${p.name} · ${formatCents(p.priceCents)} (${p.quantity} em estoque)` }))}
            />
            <Button
              variant="secondary"
              icon={Plus}
              isDisabled={!chosen}
              onPress={() => {
                setLines((ls) => [...ls, { productId: chosen, quantity: '1', discountPercent: '0' }]);
                setPick('');
              }}
            >
              Incluir
            </Button>
          </div>
        )}
        {lines.length > 0 && (
          <ul className="commerce-lines" aria-label="Itens do orçamento">
            {parsed.map((l, i) => (
              <li key={i}>
                <fieldset className="commerce-line">
                  <legend className="commerce-line-name">
                    {l.product?.name ?? '—'} <span className="muted">{l.product && formatCents(l.product.priceCents)}</span>
                  </legend>
                  <TextField label="Quantidade" value={l.quantity} inputMode="numeric" onChange={(e) => setLine(i, { quantity: e.target.value })} error={l.q >= 1 ? null : 'Inválida'} />
                  <TextField label="Desconto (%)" value={l.discountPercent} inputMode="numeric" onChange={(e) => setLine(i, { discountPercent: e.target.value })} error={l.d >= 0 && l.d <= 100 ? null : 'De 0 a 100'} />
                  <span className="commerce-line-total" aria-label={`Total de ${l.product?.name ?? ''}`}>
                    {totals?.ok ? formatCents(totals.totals.lines[i]!) : '—'}
                  </span>
                  <IconButton label={`Remover ${l.product?.name ?? ''}`} icon={Trash2} onPress={() => setLines((ls) => ls.filter((_, j) => j !== i))} />
                </fieldset>
              </li>
            ))}
          </ul>
        )}
        <div className="commerce-terms">
          <TextField label="Desconto no total (R$)" value={discount} onChange={(e) => setDiscount(e.target.value)} inputMode="decimal" placeholder="0,00" error={discountCents === null ? 'Desconto inválido' : null} />
          <TextField label="Válido até" type="date" value={validUntil} min={dayFromToday(0)} onChange={(e) => setValidUntil(e.target.value)} required />
        </div>
        <TextAreaField label="Observações" value={notes} onChange={(e) => setNotes(e.target.value)} maxLength={1000} rows={2} />
        {totals?.ok && (
          <p className="commerce-total" aria-live="polite">
            Subtotal {formatCents(totals.totals.subtotalCents)}
            {totals.totals.discountCents > 0 && <> · Desconto {formatCents(totals.totals.discountCents)}</>} · <strong>Total {formatCents(totals.totals.totalCents)}</strong>
          </p>
        )}
      </div>
    </ModalDialog>
  );
}
