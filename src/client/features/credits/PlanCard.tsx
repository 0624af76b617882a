import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { useServerMessage } from '../../guard/company';
import { trpc } from '../../trpc';
import { Badge, Button, Card, FormError, FormNotice, LoadingSkeleton, RadioGroup, type BadgeTone } from '../../ui';
import { useCardPayment } from './CardPayment';
import { PLAN_FEATURE_LABELS } from '../settings/labels';

const STATES: Record<string, { label: MessageDescriptor; tone: BadgeTone }> = {
  active: { label: msg`Active`, tone: 'ok' },
  past_due: { label: msg`Renewal unpaid`, tone: 'warn' },
  unpaid: { label: msg`Unpaid`, tone: 'danger' },
  canceled: { label: msg`Cancelled`, tone: 'neutral' },
};

/**
 * The recurring plan: its state, whether it is blocked, and subscribing through the provider to
 * one of the plans the operators offer (with no catalogue, to the one configured plan).
 */
export function PlanCard({ domain }: { domain: string }) {
  const { t, i18n } = useLingui();
  const serverMessage = useServerMessage();
  const status = trpc.billing.paymentsStatus.useQuery({ domain });
  const sub = trpc.billing.subscription.useQuery({ domain });
  const offer = trpc.billing.plans.useQuery({ domain });
  const [chosen, setChosen] = useState('');
  const subscribe = trpc.billing.subscribe.useMutation({ onSuccess: ({ url }) => window.location.assign(url) });
  // With PagSeguro the plan can also be paid by card here (a transparent pre-approval).
  const [method, setMethod] = useState<'page' | 'card'>('page');
  const [paidByCard, setPaidByCard] = useState<string | null>(null);
  const byCard = !!status.data?.cardForm && method === 'card';
  const card = useCardPayment(domain, byCard, (s) => {
    setPaidByCard(s);
    // The first charge may be decided a moment later: the state is asked again.
    setTimeout(() => void sub.refetch(), 1500);
  });
  if (sub.isPending || status.isPending || offer.isPending) return <LoadingSkeleton variant="text" rows={2} />;
  if (sub.error || !status.data?.provider || sub.data.billingExempt) return null;
  const state = sub.data.status ? STATES[sub.data.status] : null;
  const plans = offer.data?.plans ?? [];
  const current = offer.data?.current;
  const currency = status.data.currency.toUpperCase();
  const price = (amount: string) => i18n.number(Number(amount), { style: 'currency', currency });
  const features = (keys: string[]) => keys.map((k) => (PLAN_FEATURE_LABELS[k] ? i18n._(PLAN_FEATURE_LABELS[k]) : k)).join(', ');
  const choice = chosen || (plans.some((p) => p.key === current?.planKey) ? current!.planKey : (plans[0]?.key ?? ''));
  // While subscribed, another plan of the catalogue may be bought: the server cancels the old
  // subscription at the provider once the new one is paid.
  const active = sub.data.status === 'active';
  const switching = active && plans.length > 0;
  const canSubscribe = !active || switching;
  return (
    <Card title={t`Plan`}>
      <p>
        {current && <strong>{current.planName} </strong>}
        {state ? <Badge tone={state.tone}>{i18n._(state.label)}</Badge> : <Trans>No subscription yet.</Trans>}{' '}
        {sub.data.planBlocked && (
          <Badge tone="danger">
            <Trans>Plan blocked until the renewal is paid</Trans>
          </Badge>
        )}
      </p>
      {plans.length > 0 && canSubscribe && (
        <RadioGroup
          label={t`Plans`}
          value={choice}
          onChange={setChosen}
          options={plans.map((p) => ({
            value: p.key,
            label: (
              <span className="credits-plan">
                <strong>{p.name}</strong> · <Trans>{price(p.monthlyPrice)} a month</Trans>
                {p.features.length > 0 && <span className="credits-plan-features">{features(p.features)}</span>}
              </span>
            ),
          }))}
        />
      )}
      {switching && (
        <p className="muted">
          <Trans>Your current plan stays until the new one is paid; then its subscription is cancelled, so you are never charged for both.</Trans>
        </p>
      )}
      {canSubscribe && status.data.cardForm && plans.length > 0 && (
        <RadioGroup
          label={t`How to pay the plan`}
          value={method}
          onChange={(m) => setMethod(m as 'page' | 'card')}
          options={[
            { value: 'page', label: t`On the provider's page` },
            { value: 'card', label: t`By card, on this page` },
          ]}
        />
      )}
      {canSubscribe && card.fields}
      {paidByCard && (
        <FormNotice>{paidByCard === 'active' ? t`Subscription paid: the plan is active.` : t`Subscription sent to PagSeguro; the plan starts as soon as the first charge is confirmed.`}</FormNotice>
      )}
      <FormError message={serverMessage(subscribe.error)} />
      {canSubscribe && (
        <div className="form-actions">
          <Button
            variant="secondary"
            isDisabled={switching && choice === current?.planKey}
            isPending={byCard ? card.pending : subscribe.isPending || subscribe.isSuccess}
            onPress={() => (byCard ? card.pay({ planKey: choice }) : subscribe.mutate(plans.length ? { domain, planKey: choice } : { domain }))}
          >
            {switching ? (
              <Trans>Switch to {plans.find((p) => p.key === choice)?.name ?? ''}</Trans>
            ) : plans.length ? (
              <Trans>Subscribe to {plans.find((p) => p.key === choice)?.name ?? ''}</Trans>
            ) : (
              <Trans>Subscribe to the plan</Trans>
            )}
          </Button>
        </div>
      )}
    </Card>
  );
}
