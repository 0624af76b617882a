import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { useServerMessage } from '../../guard/company';
import { trpc } from '../../trpc';
import { Badge, Button, Card, ConfirmDialog, DataTable, FormError, SubmitButton, TextField, toast } from '../../ui';
import { PAYMENT_STATUS, PAYMENT_TONE, type PaymentStatus } from './texts';

type Payment = { id: string; amount: string; currency: string; status: PaymentStatus; createdAt: string | Date };

/** An operator finds a company's payments and refunds a paid one at the provider, after confirming. */
export function RefundPayments() {
  const { t, i18n } = useLingui();
  const serverMessage = useServerMessage();
  const utils = trpc.useUtils();
  const [typed, setTyped] = useState('');
  const [companyDomain, setDomain] = useState('');
  const [refunding, setRefunding] = useState<Payment | null>(null);
  const payments = trpc.operator.payments.useQuery({ companyDomain }, { enabled: !!companyDomain });
  const refund = trpc.operator.refund.useMutation({
    onSuccess: async (p) => {
      setRefunding(null);
      toast.ok(t`Refunded ${money(p.refundedAmount, p.currency)}.`);
      await Promise.all([utils.operator.payments.invalidate(), utils.operator.audit.invalidate()]);
    },
  });
  const money = (amount: string, currency: string) => i18n.number(Number(amount), { style: 'currency', currency: currency.toUpperCase() });
  return (
    <Card title={t`Refunds`}>
      <form
        className="credits-topup"
        onSubmit={(e) => {
          e.preventDefault();
          setDomain(typed.trim().toLowerCase());
        }}
      >
        <TextField label={t`Domain of the paying company`} value={typed} onChange={(e) => setTyped(e.target.value)} required />
        <div className="form-actions">
          <SubmitButton pending={payments.isFetching}>
            <Trans>Show payments</Trans>
          </SubmitButton>
        </div>
      </form>
      <FormError message={serverMessage(payments.error)} />
      {payments.data && (
        <DataTable
          label={t`Payments of ${companyDomain}`}
          rows={payments.data}
          rowKey={(p) => p.id}
          empty={t`This company has no payments.`}
          columns={[
            { id: 'when', header: t`When`, rowHeader: true, cell: (p) => i18n.date(new Date(p.createdAt), { dateStyle: 'short', timeStyle: 'short' }) },
            { id: 'amount', header: t`Amount`, cell: (p) => money(p.amount, p.currency) },
            { id: 'status', header: t`State`, cell: (p) => <Badge tone={PAYMENT_TONE[p.status]}>{i18n._(PAYMENT_STATUS[p.status])}</Badge> },
            {
              id: 'refund',
              header: t`Refund`,
              cell: (p) =>
                p.status === 'paid' ? (
                  <Button variant="secondary" onPress={() => setRefunding(p)}>
                    <Trans>Refund</Trans>
                  </Button>
                ) : null,
            },
          ]}
        />
      )}
      {refunding && (
        <ConfirmDialog
          title={t`Refund ${money(refunding.amount, refunding.currency)} to ${companyDomain}?`}
          confirmLabel={t`Refund`}
          danger
          pending={refund.isPending}
          error={serverMessage(refund.error)}
          onCancel={() => {
            refund.reset();
            setRefunding(null);
          }}
          onConfirm={() => refund.mutate({ paymentId: refunding.id })}
        >
          <p>
            <Trans>The provider returns the money to the payer and the company loses these credits. This cannot be undone.</Trans>
          </p>
        </ConfirmDialog>
      )}
    </Card>
  );
}
