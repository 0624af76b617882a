import { Trans, useLingui } from '@lingui/react/macro';
import { useState, type FormEvent } from 'react';
import { PLAN_FEATURES, type PlanFeature } from '../../../shared/domain/company';
import { useServerMessage } from '../../guard/company';
import { trpc } from '../../trpc';
import { Button, Card, Checkbox, FormError, LoadingSkeleton, SubmitButton, TextField, toast } from '../../ui';
import { PLAN_FEATURE_LABELS } from '../settings/labels';

interface Draft {
  key: string;
  name: string;
  monthlyPrice: string;
  features: PlanFeature[];
}

/** The plan catalogue of the prices document: what admins can subscribe to, at what monthly price. */
export function PlansEditor() {
  const { t, i18n } = useLingui();
  const serverMessage = useServerMessage();
  const utils = trpc.useUtils();
  const saved = trpc.operator.plans.useQuery();
  const [draft, setDraft] = useState<Draft[] | null>(null);
  const save = trpc.operator.setPlans.useMutation({
    onSuccess: async () => {
      setDraft(null);
      toast.ok(t`Plans saved.`);
      await utils.operator.invalidate();
    },
  });
  if (saved.isPending) return <LoadingSkeleton variant="form" />;
  if (saved.error) return <FormError message={serverMessage(saved.error)} />;
  const plans = draft ?? saved.data;
  const change = (i: number, patch: Partial<Draft>) => setDraft(plans.map((p, j) => (j === i ? { ...p, ...patch } : p)));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    // Amounts stay strings: "49,90" typed the Brazilian way becomes "49.90", never a float.
    save.mutate({ plans: plans.map((p) => ({ ...p, monthlyPrice: p.monthlyPrice.trim().replace(',', '.') })) });
  };
  return (
    <Card title={t`Plans`}>
      <form className="credits-topup" onSubmit={submit}>
        {plans.length === 0 && (
          <p>
            <Trans>No plan is offered: admins subscribe to the one configured plan, if any.</Trans>
          </p>
        )}
        {plans.map((p, i) => (
          <div key={i} className="credits-plan-editor" role="group" aria-label={p.name || t`New plan`}>
            <TextField label={t`Name`} value={p.name} maxLength={60} onChange={(e) => change(i, { name: e.target.value })} required />
            <TextField label={t`Key`} hint={t`Lower-case letters, digits and dashes; subscriptions remember it.`} value={p.key} maxLength={30} onChange={(e) => change(i, { key: e.target.value })} required />
            <TextField label={t`Monthly price`} inputMode="decimal" value={p.monthlyPrice} onChange={(e) => change(i, { monthlyPrice: e.target.value })} required />
            <fieldset className="credits-plan-flags">
              <legend>
                <Trans>Features</Trans>
              </legend>
              {PLAN_FEATURES.map((f) => (
                <Checkbox
                  key={f}
                  label={PLAN_FEATURE_LABELS[f] ? i18n._(PLAN_FEATURE_LABELS[f]) : f}
                  checked={p.features.includes(f)}
                  onChange={(on) => change(i, { features: on ? [...p.features, f] : p.features.filter((x) => x !== f) })}
                />
              ))}
            </fieldset>
            <div className="form-actions">
              <Button variant="secondary" onPress={() => setDraft(plans.filter((_, j) => j !== i))}>
                <Trans>Remove {p.name}</Trans>
              </Button>
            </div>
          </div>
        ))}
        <FormError message={serverMessage(save.error)} />
        <div className="form-actions">
          <Button variant="secondary" onPress={() => setDraft([...plans, { key: '', name: '', monthlyPrice: '', features: ['members', 'calls', 'forms'] }])}>
            <Trans>Add a plan</Trans>
          </Button>
          <SubmitButton pending={save.isPending}>
            <Trans>Save plans</Trans>
          </SubmitButton>
        </div>
      </form>
    </Card>
  );
}
