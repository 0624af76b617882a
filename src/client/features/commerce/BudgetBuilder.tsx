import { Plus, ShoppingCart, Trash2 } from 'lucide-react';
import { useMemo, useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { budgetTotals, parsePriceCents, STATUS_LABELS } from '../../../shared/domain/commerce';
import { trpc } from '../../trpc';
import { Badge, Button, ConfirmDialog, FormError, IconButton, ModalDialog, SelectField, TextAreaField, TextField } from '../../ui';
import { centsToInput, dateBr, dayFromToday, endOfDay, formatCents } from './format';

type Line = { productId: string; quantity: string; discountPercent: string };

/**
 * The conversation's budget action (attendants), for its header or its phone menu: this
 * conversation's budgets, and a new one built from the catalogue, sent to the customer as a
 * message. Not available when the plan has no stock control.
 */
export function useBudgetAction(domain: string, conversationId: string): { available: boolean; label: string; icon: typeof ShoppingCart; open: () => void; dialog: ReactNode } {
  const [open, setOpen] = useState(false);
  const products = trpc.commerce.products.useQuery({ domain }, { retry: false, staleTime: 30_000 });
  return {
    available: !(products.error?.data?.code === 'FORBIDDEN' || products.error?.data?.code === 'NOT_FOUND'),
    label: 'Orçamento',
    icon: ShoppingCart,
    open: () => setOpen(true),
    dialog: open ? <BudgetDialog domain={domain} conversationId={conversationId} onClose={() => setOpen(false)} /> : null,
  };
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
  /** The draft being changed, or null for a new budget. */
  const [draftId, setDraftId] = useState<string | null>(null);
  const finished = () => {
    void utils.commerce.conversationBudgets.invalidate({ domain, conversationId });
    onClose();
  };
  const create = trpc.commerce.createBudget.useMutation({ onSuccess: finished, onError: (e) => setError(e.message) });
  const update = trpc.commerce.updateBudget.useMutation({ onError: (e) => setError(e.message) });
  const send = trpc.commerce.sendBudget.useMutation({ onSuccess: () => void budgets.refetch(), onError: (e) => setError(e.message) });
  const [confirmDiscard, setConfirmDiscard] = useState(false);
  const discard = trpc.commerce.discardBudget.useMutation({
    onSuccess: () => {
      setConfirmDiscard(false);
      setDraftId(null);
      setLines([]);
      setDiscount('');
      setNotes('');
      void budgets.refetch();
    },
  });

  async function edit(budgetId: string) {
    setError(null);
    try {
      const b = await utils.commerceView.budget.fetch({ budgetId }, { staleTime: 0 });
      const until = new Date(b.validUntil);
      setLines(b.items.filter((i) => i.productId).map((i) => ({ productId: i.productId!, quantity: String(i.quantity), discountPercent: String(i.discountPercent) })));
      setDiscount(b.discountCents ? centsToInput(b.discountCents) : '');
      setValidUntil(`${until.getFullYear()}-${String(until.getMonth() + 1).padStart(2, '0')}-${String(until.getDate()).padStart(2, '0')}`);
      setNotes(b.notes);
      setDraftId(budgetId);
    } catch (e) {
      setError((e as Error).message);
    }
  }
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
    const items = parsed.map((l) => ({ productId: l.productId, quantity: l.q, discountPercent: l.d }));
    if (!draftId) return create.mutate({ domain, conversationId, items, discountCents, validUntil: until, notes, send: sendNow });
    void (async () => {
      try {
        await update.mutateAsync({ domain, budgetId: draftId, items, discountCents, validUntil: until, notes });
        if (sendNow) await send.mutateAsync({ domain, budgetId: draftId });
        finished();
      } catch {
        // The mutation's error is shown in the dialog.
      }
    })();
  }
  const busy = create.isPending || update.isPending || send.isPending;
  const setLine = (i: number, patch: Partial<Line>) => setLines((ls) => ls.map((l, j) => (j === i ? { ...l, ...patch } : l)));

  return (
    <ModalDialog
      title="Orçamento"
      className="modal-wide commerce-builder"
      onCancel={onClose}
      onSubmit={() => submit(true)}
      actions={
        <>
          <Button type="submit" variant="primary" isPending={busy} isDisabled={lines.length === 0}>
            Enviar ao cliente
          </Button>
          <Button variant="secondary" onPress={() => submit(false)} isDisabled={lines.length === 0 || busy}>
            Salvar rascunho
          </Button>
          {draftId && (
            <Button variant="danger" onPress={() => (discard.reset(), setConfirmDiscard(true))} isDisabled={busy}>
              Descartar rascunho
            </Button>
          )}
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
                    <Button size="small" variant="secondary" onPress={() => void edit(b.id)} isDisabled={draftId === b.id}>
                      {draftId === b.id ? 'Em edição' : 'Editar rascunho'}
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
        <h3>{draftId ? 'Rascunho em edição' : 'Novo orçamento'}</h3>
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
        {confirmDiscard && draftId && (
          <ConfirmDialog
            title="Descartar este rascunho?"
            confirmLabel="Descartar"
            danger
            pending={discard.isPending}
            error={discard.error?.message ?? null}
            onConfirm={() => discard.mutate({ domain, budgetId: draftId })}
            onCancel={() => setConfirmDiscard(false)}
          />
        )}
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
