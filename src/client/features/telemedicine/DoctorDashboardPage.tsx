import { Trans, useLingui } from '@lingui/react/macro';
import type { inferRouterOutputs } from '@trpc/server';
import { Stethoscope, Video } from 'lucide-react';
import type { AppRouter } from '../../../server/router';
import { useState } from 'react';
import { trpc } from '../../trpc';
import { Button, ButtonLink, Card, ConfirmDialog, DataTable, EmptyState, Facts, FormError, LoadingSkeleton, PageTitle, RefusalState, Switch } from '../../ui';
import { useSocketEvent } from '../service/live';
import { DocumentButton } from './DoctorPage';
import { StatusBadge } from './DoctorsPage';
import { EnrolForm } from './EnrolForm';
import { ClinicalNotes } from './ClinicalNotes';
import { useTeleText } from './texts';

/**
 * /i/doctordash: an approved doctor's workplace (online switch, the patients waiting in every queue
 * they serve, the consultation in progress, today's and older consultations); anyone else enrols here.
 */
export function DoctorDashboardPage() {
  const { t } = useLingui();
  const text = useTeleText();
  const mine = trpc.telemedicine.mine.useQuery();
  let body;
  if (mine.isPending) body = <LoadingSkeleton variant="form" rows={4} />;
  else if (mine.isError) body = <RefusalState title={t`Your enrolments could not be loaded`} message={text(mine.error.message)} />;
  else if (mine.data.approved) body = <Dashboard />;
  else {
    body = (
      <>
        {mine.data.enrolments.length > 0 && (
          <Card title={t`Your enrolments`}>
            {mine.data.enrolments.map((e) => (
              <div key={e.id} className="tele-enrolment">
                <Facts items={[[t`Company`, e.companyName], [t`CRM`, `${e.crm}/${e.uf}`], [t`Status`, <StatusBadge key="s" status={e.status} />]]} />
                <DocumentButton enrolmentId={e.id} hasDocument={e.hasDocument} name={e.documentName} />
              </div>
            ))}
          </Card>
        )}
        {mine.data.enrolments.length === 0 && <EnrolForm />}
      </>
    );
  }
  return (
    <section className="page tele-page">
      <PageTitle title={t`Doctor dashboard`} />
      {body}
    </section>
  );
}

type Row = inferRouterOutputs<AppRouter>['telemedicine']['dashboard']['waiting'][number];

function Dashboard() {
  const { t, i18n } = useLingui();
  const text = useTeleText();
  const utils = trpc.useUtils();
  const dash = trpc.telemedicine.dashboard.useQuery();
  const refetch = () => void utils.telemedicine.dashboard.invalidate();
  useSocketEvent('telemedicine:changed', refetch, refetch);
  useSocketEvent('telemedicine:presence', refetch);
  const setOnline = trpc.telemedicine.setOnline.useMutation({ onSuccess: refetch });
  const takeNext = trpc.telemedicine.takeNext.useMutation({ onSuccess: refetch });
  if (dash.isPending) return <LoadingSkeleton variant="list" rows={4} />;
  if (dash.isError) return <RefusalState title={t`The dashboard could not be loaded`} message={text(dash.error.message)} />;
  const d = dash.data;
  const time = (x: Date | null) => (x ? i18n.date(x, { timeStyle: 'short' }) : '—');
  const day = (x: Date | null) => (x ? i18n.date(x, { dateStyle: 'short', timeStyle: 'short' }) : '—');
  const list = (label: string, rows: readonly Row[], when: (r: Row) => Date | null, empty: string) => (
    <DataTable<Row>
      label={label}
      rows={rows}
      rowKey={(r) => r.id}
      pageSize={10}
      empty={<EmptyState title={empty} />}
      columns={[
        { id: 'patient', header: t`Patient`, rowHeader: true, cell: (r) => r.patientName },
        { id: 'company', header: t`Company`, cell: (r) => r.companyName },
        { id: 'when', header: t`When`, sortValue: (r) => when(r)?.getTime() ?? 0, cell: (r) => day(when(r)) },
      ]}
    />
  );
  return (
    <>
      <Card
        title={t`Presence`}
        actions={
          <Switch label={d.online ? t`Online` : t`Offline`} checked={d.online} disabled={setOnline.isPending} onChange={(online) => setOnline.mutate({ online })} />
        }
      >
        <p className="muted">
          {d.companies.length === 0 ? (
            <Trans>No telemedicine company is served by you yet.</Trans>
          ) : (
            <Trans>You serve the patients of: {d.companies.map((c) => c.name).join(', ')}</Trans>
          )}
        </p>
        <FormError message={setOnline.error ? text(setOnline.error.message) : null} />
      </Card>
      {d.current ? (
        <CurrentConsultation c={d.current} />
      ) : (
        <Card title={t`Waiting patients`} actions={<Button icon={Stethoscope} isDisabled={!d.online || d.waiting.length === 0} isPending={takeNext.isPending} onPress={() => takeNext.mutate()}>{t`Take next patient`}</Button>}>
          <FormError message={takeNext.error ? text(takeNext.error.message) : null} />
          {!d.online && (
            <p className="muted">
              <Trans>Go online to take patients.</Trans>
            </p>
          )}
          {list(t`Waiting patients`, d.waiting, (r) => r.requestedAt, t`Nobody is waiting.`)}
        </Card>
      )}
      <Card title={t`Today's consultations`}>{list(t`Today's consultations`, d.today, (r) => r.takenAt, t`No consultation today yet.`)}</Card>
      <Card title={t`History`}>{list(t`History`, d.history, (r) => r.endedAt, t`No earlier consultation.`)}</Card>
      <span className="visually-hidden" aria-live="polite">
        {t`${d.waiting.length} waiting`} {time(new Date())}
      </span>
    </>
  );
}

function CurrentConsultation({ c }: { c: Row }) {
  const { t } = useLingui();
  const text = useTeleText();
  const utils = trpc.useUtils();
  const [confirm, setConfirm] = useState(false);
  const callAgain = trpc.telemedicine.callAgain.useMutation({ onSuccess: () => utils.telemedicine.dashboard.invalidate() });
  const end = trpc.telemedicine.end.useMutation({
    onSuccess: async () => {
      setConfirm(false);
      await utils.telemedicine.dashboard.invalidate();
    },
  });
  return (
    <Card title={t`Consultation in progress`}>
      <Facts items={[[t`Patient`, c.patientName], [t`Company`, c.companyName]]} />
      <div className="form-actions">
        {c.callId ? (
          <ButtonLink icon={Video} to={`/${c.domain}/call/${c.callId}`}>
            <Trans>Join the video call</Trans>
          </ButtonLink>
        ) : (
          <Button icon={Video} isPending={callAgain.isPending} onPress={() => callAgain.mutate({ consultationId: c.id })}>
            {t`Call the patient again`}
          </Button>
        )}
        <ButtonLink variant="secondary" to={`/${c.domain}/chat/${c.conversationId}`}>
          <Trans>Open the conversation</Trans>
        </ButtonLink>
        <Button variant="danger" onPress={() => setConfirm(true)}>
          {t`End consultation`}
        </Button>
      </div>
      <FormError message={callAgain.error ? text(callAgain.error.message) : callAgain.data?.callError ? t`The video call could not start; use the conversation` : null} />
      <ClinicalNotes consultationId={c.id} canWrite />
      {confirm && (
        <ConfirmDialog
          title={t`End this consultation?`}
          confirmLabel={t`End consultation`}
          danger
          pending={end.isPending}
          error={end.error ? text(end.error.message) : null}
          onConfirm={() => end.mutate({ consultationId: c.id })}
          onCancel={() => setConfirm(false)}
        >
          <Trans>The conversation and the video call end, and the patient is asked to rate the consultation.</Trans>
        </ConfirmDialog>
      )}
    </Card>
  );
}
