import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { lazy, Suspense, useState } from 'react';
import { useSelectedCompany, useServerMessage } from '../../guard/company';
import { trpc } from '../../trpc';
import { ButtonLink, Card, EmptyState, LoadingSkeleton, PageHeader, RefusalState, SelectField, TextField } from '../../ui';

const Figures = lazy(() => import('./Charts'));
const isoDay = (d: Date) => d.toISOString().slice(0, 10);

/** /i/dashboard: storage, service figures and charts, with filters and CSV export. */
export function DashboardPage() {
  const { t } = useLingui();
  const { company, isPending } = useSelectedCompany();
  if (isPending) return <LoadingSkeleton variant="text" />;
  return (
    <section className="page reports-page">
      <PageHeader title={t`Dashboard`} description={t`How the company uses its storage and serves its customers.`} />
      {company ? (
        <Dashboard domain={company.domain} />
      ) : (
        <EmptyState title={<Trans>Choose a company first.</Trans>} action={<ButtonLink to="/i/selectCompany">{t`Choose a company`}</ButtonLink>} />
      )}
    </section>
  );
}

function Dashboard({ domain }: { domain: string }) {
  const { t, i18n } = useLingui();
  const serverMessage = useServerMessage();
  const today = new Date();
  const [from, setFrom] = useState(isoDay(new Date(today.getTime() - 29 * 86_400_000)));
  const [to, setTo] = useState(isoDay(today));
  const [queueId, setQueueId] = useState('');
  const [attendantId, setAttendantId] = useState('');
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  const filters = trpc.reports.filters.useQuery({ domain }, { retry: false });
  const valid = /^\d{4}-\d{2}-\d{2}$/.test(from) && /^\d{4}-\d{2}-\d{2}$/.test(to) && from <= to;
  const report = trpc.reports.dashboard.useQuery(
    { domain, from, to, timeZone, ...(queueId && { queueId }), ...(attendantId && { attendantId }) },
    { enabled: valid, retry: false, placeholderData: (prev) => prev },
  );
  if (filters.error) return <RefusalState title={<Trans>Reports are not available to you</Trans>} message={serverMessage(filters.error)} />;
  return (
    <>
      <Card title={t`Filters`} className="reports-filters">
        <div className="reports-filter-grid">
          <TextField label={t`From`} type="date" value={from} max={to} onChange={(e) => setFrom(e.target.value)} />
          <TextField label={t`To`} type="date" value={to} min={from} onChange={(e) => setTo(e.target.value)} error={valid ? null : t`The end of the period comes before its start`} />
          <SelectField
            label={t`Queue`}
            value={queueId}
            onChange={(e) => setQueueId(e.target.value)}
            options={[{ value: '', label: t`All queues` }, ...(filters.data?.queues ?? []).map((q) => ({ value: q.id, label: q.name }))]}
          />
          <SelectField
            label={t`Attendant`}
            value={attendantId}
            onChange={(e) => setAttendantId(e.target.value)}
            options={[{ value: '', label: t`All attendants` }, ...(filters.data?.attendants ?? []).map((a) => ({ value: a.id, label: a.name }))]}
          />
        </div>
      </Card>
      {report.error ? (
        <RefusalState title={<Trans>The report cannot be shown</Trans>} message={serverMessage(report.error)} />
      ) : !report.data ? (
        <LoadingSkeleton variant="table" />
      ) : (
        <Suspense fallback={<LoadingSkeleton variant="table" />}>
          <Figures report={report.data} name={`${domain}-${from}-${to}`} />
        </Suspense>
      )}
      {report.isFetching && report.data && (
        <p className="visually-hidden" role="status">
          {i18n._(msg`Updating…`)}
        </p>
      )}
    </>
  );
}

