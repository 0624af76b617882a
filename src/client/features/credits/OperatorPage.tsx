import { Trans, useLingui } from '@lingui/react/macro';
import { useState, type FormEvent } from 'react';
import { useServerMessage } from '../../guard/company';
import { trpc } from '../../trpc';
import { GlobalNotificationForm } from '../notifications/GlobalNotificationForm';
import { PlansEditor } from './PlansEditor';
import { RefundPayments } from './RefundPayments';
import { Card, DataTable, FormError, LoadingSkeleton, PageHeader, RefusalState, SubmitButton, TextField, toast } from '../../ui';

const PRICE_FIELDS = ['voice', 'video', 'share', 'recording', 'remote', 'translatePerChar'] as const;
type PriceField = (typeof PRICE_FIELDS)[number];

/** /i/recarga/operator: the installation's operators edit prices and adjust credits; every change is audited. */
export function OperatorPage() {
  const { t } = useLingui();
  const me = trpc.operator.me.useQuery();
  return (
    <section className="page credits-page">
      <PageHeader title={t`Operator console`} description={t`Prices and credits of every company on this installation. Every change is recorded.`} back={{ to: '/i/recarga', label: t`Credits` }} />
      {me.isPending ? (
        <LoadingSkeleton variant="form" />
      ) : !me.data?.operator ? (
        <RefusalState title={<Trans>Only the operators of this installation can do this</Trans>} message={<Trans>Operators are the e-mails listed in OPERATOR_EMAILS and the people granted with npm run operator -- grant.</Trans>} />
      ) : (
        <>
          <PricesForm />
          <PlansEditor />
          <AdjustForm />
          <RefundPayments />
          <GlobalNotificationForm />
          <AuditLog />
        </>
      )}
    </section>
  );
}

function PricesForm() {
  const { t } = useLingui();
  const serverMessage = useServerMessage();
  const utils = trpc.useUtils();
  const prices = trpc.operator.prices.useQuery();
  const [draft, setDraft] = useState<Partial<Record<PriceField, string>>>({});
  const save = trpc.operator.setPrices.useMutation({
    onSuccess: async () => {
      setDraft({});
      toast.ok(t`Prices saved.`);
      await Promise.all([utils.operator.invalidate(), utils.billing.balance.invalidate()]);
    },
  });
  if (prices.isPending) return <LoadingSkeleton variant="form" />;
  if (prices.error) return <FormError message={serverMessage(prices.error)} />;
  const labels: Record<PriceField, string> = {
    voice: t`Voice, per minute`,
    video: t`Video, per minute`,
    share: t`Screen share, per minute`,
    recording: t`Recording, per minute`,
    remote: t`Remote assistance, per minute`,
    translatePerChar: t`Translation, per character`,
  };
  const value = (f: PriceField) => draft[f] ?? prices.data[f];
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(Object.fromEntries(PRICE_FIELDS.map((f) => [f, value(f).trim()])) as Record<PriceField, string>);
  };
  return (
    <Card title={t`Prices`}>
      <form className="credits-topup" onSubmit={submit}>
        {PRICE_FIELDS.map((f) => (
          <TextField key={f} label={labels[f]} inputMode="decimal" value={value(f)} onChange={(e) => setDraft({ ...draft, [f]: e.target.value })} />
        ))}
        <FormError message={serverMessage(save.error)} />
        <div className="form-actions">
          <SubmitButton pending={save.isPending}>
            <Trans>Save prices</Trans>
          </SubmitButton>
        </div>
      </form>
    </Card>
  );
}

function AdjustForm() {
  const { t } = useLingui();
  const serverMessage = useServerMessage();
  const utils = trpc.useUtils();
  const [companyDomain, setDomain] = useState('');
  const [amount, setAmount] = useState('');
  const [note, setNote] = useState('');
  const adjust = trpc.operator.adjustCredits.useMutation({
    onSuccess: async ({ credits }) => {
      toast.ok(t`Credits of ${companyDomain} are now ${credits}.`);
      setAmount('');
      setNote('');
      await utils.operator.audit.invalidate();
    },
  });
  return (
    <Card title={t`Adjust credits`}>
      <form
        className="credits-topup"
        onSubmit={(e) => {
          e.preventDefault();
          adjust.mutate({ companyDomain: companyDomain.trim(), amount: amount.trim().replace(',', '.'), note });
        }}
      >
        <TextField label={t`Company domain`} value={companyDomain} onChange={(e) => setDomain(e.target.value)} required />
        <TextField label={t`Amount`} hint={t`Negative to take credits away.`} inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} required />
        <TextField label={t`Reason`} value={note} maxLength={200} onChange={(e) => setNote(e.target.value)} required />
        <FormError message={serverMessage(adjust.error)} />
        <div className="form-actions">
          <SubmitButton pending={adjust.isPending}>
            <Trans>Adjust</Trans>
          </SubmitButton>
        </div>
      </form>
    </Card>
  );
}

function AuditLog() {
  const { t, i18n } = useLingui();
  const audit = trpc.operator.audit.useQuery({ limit: 100 });
  if (audit.isPending) return <LoadingSkeleton variant="table" />;
  const show = (o: Record<string, string>) =>
    Object.entries(o)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
  return (
    <Card title={t`Audit log`}>
      <DataTable
        label={t`Audit log`}
        rows={audit.data ?? []}
        rowKey={(r) => r.id}
        empty={t`No change was made yet.`}
        columns={[
          { id: 'when', header: t`When`, rowHeader: true, cell: (r) => i18n.date(new Date(r.createdAt), { dateStyle: 'short', timeStyle: 'medium' }) },
          { id: 'who', header: t`Who`, cell: (r) => r.actor.name || r.actor.email || r.actor.id },
          { id: 'what', header: t`What`, cell: (r) => (r.action === 'prices' ? t`Prices` : r.action === 'plans' ? t`Plans` : t`Credits of ${r.domain ?? ''}`) },
          { id: 'before', header: t`Before`, cell: (r) => show(r.before) },
          { id: 'after', header: t`After`, cell: (r) => show(r.after) },
          { id: 'note', header: t`Reason`, cell: (r) => r.note },
        ]}
      />
    </Card>
  );
}
