import { Trans, useLingui } from '@lingui/react/macro';
import { CreditCard } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { TOP_UP_MAX, TOP_UP_MIN, TOP_UP_PRESETS, topUpAmount } from '../../../shared/schemas/billing';
import { useServerMessage } from '../../guard/company';
import { trpc } from '../../trpc';
import { Badge, Button, Card, DataTable, EmptyState, FormError, FormNotice, LoadingSkeleton, RadioGroup, TextField, type BadgeTone } from '../../ui';
import { useCardPayment } from './CardPayment';
import { PAYMENT_STATUS, PAYMENT_TONE as TONE } from './texts';


export function useMoney() {
  const { i18n } = useLingui();
  return (value: string, currency?: string) =>
    i18n.number(Number(value), currency ? { style: 'currency', currency: currency.toUpperCase() } : { minimumFractionDigits: 2, maximumFractionDigits: 4 });
}

/** Pick an amount and go to the provider's checkout; or, with no provider, say how to set one up. */
export function TopUpCard({ domain }: { domain: string }) {
  const { t } = useLingui();
  const serverMessage = useServerMessage();
  const status = trpc.billing.paymentsStatus.useQuery({ domain });
  const [choice, setChoice] = useState<string>(TOP_UP_PRESETS[1]);
  const [other, setOther] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const topUp = trpc.billing.topUp.useMutation({ onSuccess: ({ url }) => window.location.assign(url) });
  const money = useMoney();
  // With PagSeguro the card can be paid right here (transparent checkout), or on PagSeguro's page.
  const [method, setMethod] = useState<'card' | 'page'>('card');
  const byCard = !!status.data?.cardForm && method === 'card';
  const card = useCardPayment(domain, byCard);

  if (status.isPending) return <LoadingSkeleton variant="form" />;
  if (status.error) return <FormError message={serverMessage(status.error)} />;
  if (!status.data.provider) {
    return (
      <EmptyState
        icon={CreditCard}
        title={<Trans>Payments are not set up</Trans>}
        description={
          <Trans>
            The operator of this installation sets STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET and points a Stripe webhook at /webhooks/payments/stripe, or sets PAGSEGURO_EMAIL and
            PAGSEGURO_TOKEN for PagSeguro (see the README, Configuration). Until then, credits are added in the operator console.
          </Trans>
        }
      />
    );
  }
  const currency = status.data.currency;
  const pay = () => {
    const amount = choice === 'other' ? other.trim().replace(',', '.') : choice;
    if (!topUpAmount.safeParse(amount).success) return setFieldError(t`Choose an amount between ${TOP_UP_MIN} and ${TOP_UP_MAX}, in cents at most`);
    setFieldError(null);
    if (byCard) card.pay({ amount });
    else topUp.mutate({ domain, amount });
  };
  return (
    <Card title={<Trans>Buy credits</Trans>}>
      <form
        className="credits-topup"
        onSubmit={(e) => {
          e.preventDefault();
          pay();
        }}
      >
        <RadioGroup
          label={t`Amount`}
          orientation="horizontal"
          value={choice}
          onChange={setChoice}
          options={[...TOP_UP_PRESETS.map((p) => ({ value: p, label: money(p, currency) })), { value: 'other', label: t`Other amount` }]}
        />
        {choice === 'other' && (
          <TextField label={t`Amount to pay`} inputMode="decimal" value={other} onChange={(e) => setOther(e.target.value)} error={fieldError} autoFocus />
        )}
        {choice !== 'other' && fieldError && <FormError message={fieldError} />}
        {status.data.cardForm && (
          <RadioGroup
            label={t`How to pay`}
            value={method}
            onChange={(m) => setMethod(m as 'card' | 'page')}
            options={[
              { value: 'card', label: t`By card, on this page` },
              { value: 'page', label: t`On the provider's page` },
            ]}
          />
        )}
        {card.fields}
        <FormError message={serverMessage(topUp.error)} />
        <div className="form-actions">
          <Button type="submit" icon={CreditCard} isPending={byCard ? card.pending : topUp.isPending || topUp.isSuccess}>
            <Trans>Pay</Trans>
          </Button>
        </div>
        <p className="muted">
          {byCard ? (
            <Trans>The credits appear as soon as PagSeguro confirms the payment.</Trans>
          ) : (
            <Trans>You will pay on the provider's page and come back here; the credits appear as soon as the payment is confirmed.</Trans>
          )}
        </p>
      </form>
    </Card>
  );
}

/** Back from checkout (?payment=<id>): what became of the payment, asked again until it settles. */
export function ReturnNotice({ domain }: { domain: string }) {
  const { t, i18n } = useLingui();
  const [params] = useSearchParams();
  const paymentId = params.get('payment');
  const cancelled = params.get('cancelled') === '1';
  const utils = trpc.useUtils();
  const refresh = trpc.billing.payment.useMutation({
    onSuccess: (p) => {
      if (p.status !== 'pending') void Promise.all([utils.billing.balance.invalidate(), utils.billing.payments.invalidate(), utils.billing.statement.invalidate()]);
    },
  });
  const money = useMoney();
  const [tries, setTries] = useState(0);
  const settled = refresh.data && refresh.data.status !== 'pending';
  const { mutate } = refresh;
  useEffect(() => {
    if (!paymentId || settled || tries > 15) return;
    // The provider's confirmation can trail the redirect by a moment: ask a few times.
    const timer = setTimeout(() => mutate({ domain, paymentId }, { onSettled: () => setTries((n) => n + 1) }), tries === 0 ? 0 : 2000);
    return () => clearTimeout(timer);
  }, [paymentId, settled, tries, domain, mutate]);
  if (!paymentId) return null;
  const p = refresh.data;
  if (!p) return cancelled ? <FormNotice>{t`The payment was cancelled; nothing was charged.`}</FormNotice> : null;
  const amount = money(p.amount, p.currency);
  const reason = p.failureReason;
  return (
    <FormNotice>
      {p.status === 'paid'
        ? t`Payment received: ${amount} added to the credits.`
        : p.status === 'failed'
          ? p.failureReason
            ? t`The payment was refused (${reason}). Nothing was charged.`
            : t`The payment was refused. Nothing was charged.`
          : p.status === 'pending'
            ? cancelled
              ? t`The payment was cancelled; nothing was charged.`
              : t`Waiting for the payment to be confirmed…`
            : i18n._(PAYMENT_STATUS[p.status])}
    </FormNotice>
  );
}

export function PaymentsTable({ domain }: { domain: string }) {
  const { t, i18n } = useLingui();
  const payments = trpc.billing.payments.useQuery({ domain });
  const money = useMoney();
  if (payments.isPending) return <LoadingSkeleton variant="table" />;
  if (payments.error || payments.data.length === 0) return null;
  return (
    <Card title={<Trans>Payments</Trans>}>
      <DataTable
        label={t`Payments`}
        rows={payments.data}
        rowKey={(p) => p.id}
        pageSize={10}
        columns={[
          { id: 'date', header: t`Date`, rowHeader: true, cell: (p) => i18n.date(new Date(p.createdAt), { dateStyle: 'short', timeStyle: 'short' }) },
          { id: 'amount', header: t`Amount`, cell: (p) => money(p.amount, p.currency) },
          {
            id: 'status',
            header: t`Status`,
            cell: (p) => (
              <Badge tone={TONE[p.status]} title={p.failureReason ?? undefined}>
                {i18n._(PAYMENT_STATUS[p.status])}
              </Badge>
            ),
          },
        ]}
      />
    </Card>
  );
}
