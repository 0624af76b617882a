import { Check, X } from 'lucide-react';
import { useState } from 'react';
import { trpc } from '../../trpc';
import { Button, ConfirmDialog, FormError } from '../../ui';

/** The customer's Accept / Decline of a budget waiting for them (declining asks first). */
export function BudgetDecision({ budgetId }: { budgetId: string }) {
  const utils = trpc.useUtils();
  const [declining, setDeclining] = useState(false);
  // Refused or not, the budget is read again: a refusal (stock gone, expired) changes what it shows.
  const done = () => void utils.commerceView.budget.invalidate({ budgetId });
  const accept = trpc.commerceView.accept.useMutation({ onSettled: done });
  const decline = trpc.commerceView.decline.useMutation({ onSuccess: () => (setDeclining(false), done()) });
  return (
    <div className="commerce-decision" lang="pt-BR">
      <FormError message={accept.error?.message ?? null} />
      <span className="commerce-card-actions">
        <Button size="small" variant="primary" icon={Check} onPress={() => accept.mutate({ budgetId })} isPending={accept.isPending}>
          Aceitar orçamento
        </Button>
        <Button size="small" variant="secondary" icon={X} onPress={() => (decline.reset(), setDeclining(true))} isDisabled={accept.isPending}>
          Recusar
        </Button>
      </span>
      {declining && (
        <ConfirmDialog
          title="Recusar este orçamento?"
          confirmLabel="Recusar"
          danger
          pending={decline.isPending}
          error={decline.error?.message ?? null}
          onConfirm={() => decline.mutate({ budgetId })}
          onCancel={() => setDeclining(false)}
        >
          <p>O atendente verá sua resposta na conversa.</p>
        </ConfirmDialog>
      )}
    </div>
  );
}
