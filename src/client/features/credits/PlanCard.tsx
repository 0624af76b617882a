import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useServerMessage } from '../../guard/company';
import { trpc } from '../../trpc';
import { Badge, Button, Card, FormError, LoadingSkeleton, type BadgeTone } from '../../ui';

const STATES: Record<string, { label: MessageDescriptor; tone: BadgeTone }> = {
  active: { label: msg`Active`, tone: 'ok' },
  past_due: { label: msg`Renewal unpaid`, tone: 'warn' },
  unpaid: { label: msg`Unpaid`, tone: 'danger' },
  canceled: { label: msg`Cancelled`, tone: 'neutral' },
};

/** The recurring plan: its state, whether it is blocked, and subscribing through the provider. */
export function PlanCard({ domain }: { domain: string }) {
  const { t, i18n } = useLingui();
  const serverMessage = useServerMessage();
  const status = trpc.billing.paymentsStatus.useQuery({ domain });
  const sub = trpc.billing.subscription.useQuery({ domain });
  const subscribe = trpc.billing.subscribe.useMutation({ onSuccess: ({ url }) => window.location.assign(url) });
  if (sub.isPending || status.isPending) return <LoadingSkeleton variant="text" rows={2} />;
  if (sub.error || !status.data?.provider || sub.data.billingExempt) return null;
  const state = sub.data.status ? STATES[sub.data.status] : null;
  return (
    <Card title={t`Plan`}>
      <p>
        {state ? <Badge tone={state.tone}>{i18n._(state.label)}</Badge> : <Trans>No subscription yet.</Trans>}{' '}
        {sub.data.planBlocked && (
          <Badge tone="danger">
            <Trans>Plan blocked until the renewal is paid</Trans>
          </Badge>
        )}
      </p>
      <FormError message={serverMessage(subscribe.error)} />
      {sub.data.status !== 'active' && (
        <div className="form-actions">
          <Button variant="secondary" isPending={subscribe.isPending || subscribe.isSuccess} onPress={() => subscribe.mutate({ domain })}>
            <Trans>Subscribe to the plan</Trans>
          </Button>
        </div>
      )}
    </Card>
  );
}
