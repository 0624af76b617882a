import { Trans, useLingui } from '@lingui/react/macro';
import { Stethoscope } from 'lucide-react';
import { Link } from 'react-router-dom';
import type { EnrolmentStatus } from '../../../shared/domain/telemedicine';
import { trpc } from '../../trpc';
import { Badge, Card, DataTable, EmptyState, FormError, LoadingSkeleton, PresenceDot, RefusalState, Switch } from '../../ui';
import { AdminScreen } from '../settings/AdminScreen';
import { useSocketEvent } from '../service/live';
import { STATUS_LABELS, STATUS_TONES, useTeleText } from './texts';

/** /i/settings/doctors: the company's telemedicine mode, its doctors' enrolments and who read health data. */
export function DoctorsPage() {
  const { t } = useLingui();
  return (
    <AdminScreen title={t`Doctors`}>
      {(company) => (
        <>
          <TelemedicineSettings domain={company.domain} />
          <EnrolmentList domain={company.domain} />
          <AccessLog domain={company.domain} />
        </>
      )}
    </AdminScreen>
  );
}

export const doctorPath = (id: string) => `/i/settings/doctors/${encodeURIComponent(id)}`;

function TelemedicineSettings({ domain }: { domain: string }) {
  const { t } = useLingui();
  const text = useTeleText();
  const utils = trpc.useUtils();
  const settings = trpc.telemedicine.settings.useQuery({ domain });
  const configure = trpc.telemedicine.configure.useMutation({ onSuccess: (data) => utils.telemedicine.settings.setData({ domain }, data) });
  if (settings.isPending) return <LoadingSkeleton variant="form" rows={2} />;
  if (settings.isError) return <RefusalState title={t`Telemedicine settings could not be loaded`} message={text(settings.error.message)} />;
  const save = (change: Partial<typeof settings.data>) => configure.mutate({ domain, ...settings.data, ...change });
  return (
    <Card title={t`Telemedicine`}>
      <p className="muted">
        <Trans>Patients of a telemedicine company ask for consultations and wait in the doctors' queue; approved doctors take them in a video call.</Trans>
      </p>
      <div className="tele-switches">
        <Switch label={t`This company offers consultations`} checked={settings.data.enabled} disabled={configure.isPending} onChange={(on) => save({ enabled: on })} />
        <Switch
          label={t`Global doctors may serve our patients`}
          checked={settings.data.acceptsGlobalDoctors}
          disabled={configure.isPending || !settings.data.enabled}
          onChange={(on) => save({ acceptsGlobalDoctors: on })}
        />
      </div>
      <FormError message={configure.error ? text(configure.error.message) : null} />
    </Card>
  );
}

function EnrolmentList({ domain }: { domain: string }) {
  const { t, i18n } = useLingui();
  const text = useTeleText();
  const utils = trpc.useUtils();
  const list = trpc.telemedicine.enrolments.useQuery({ domain });
  const refetch = () => void utils.telemedicine.enrolments.invalidate({ domain });
  useSocketEvent('telemedicine:presence', refetch, refetch);
  useSocketEvent('notification:new', (n) => n.type === 'doctorEnrolment' && refetch());
  if (list.isPending) return <LoadingSkeleton variant="table" rows={4} />;
  if (list.isError) return <RefusalState title={t`The doctors could not be loaded`} message={text(list.error.message)} />;
  type Row = (typeof list.data)[number];
  return (
    <Card title={t`Enrolments`}>
      <DataTable<Row>
        label={t`Doctors' enrolments`}
        rows={list.data}
        rowKey={(r) => r.id}
        empty={<EmptyState icon={Stethoscope} title={t`No doctor has enrolled yet.`} description={t`Doctors enrol from the doctor's dashboard with their CRM; you approve them here.`} />}
        columns={[
          {
            id: 'name',
            header: t`Doctor`,
            rowHeader: true,
            sortValue: (r) => r.name,
            cell: (r) => (
              <Link to={doctorPath(r.id)}>
                <PresenceDot status={r.online ? 'online' : 'offline'} /> {`${r.prefix} ${r.name}`.trim()}
              </Link>
            ),
          },
          { id: 'crm', header: t`CRM`, sortValue: (r) => r.id, cell: (r) => `${r.crm}/${r.uf}` },
          { id: 'speciality', header: t`Speciality`, sortValue: (r) => r.speciality, cell: (r) => r.speciality },
          { id: 'status', header: t`Status`, sortValue: (r) => r.status, cell: (r) => <StatusBadge status={r.status} /> },
          { id: 'global', header: t`Global`, cell: (r) => (r.global ? t`Yes` : t`No`) },
          { id: 'createdAt', header: t`Enrolled on`, sortValue: (r) => new Date(r.createdAt).getTime(), cell: (r) => i18n.date(r.createdAt, { dateStyle: 'short' }) },
        ]}
      />
    </Card>
  );
}

export function StatusBadge({ status }: { status: EnrolmentStatus }) {
  const { i18n } = useLingui();
  return <Badge tone={STATUS_TONES[status]}>{i18n._(STATUS_LABELS[status])}</Badge>;
}

const WHAT = { notes: 'notes', recording: 'recording', transcript: 'transcript', file: 'file' } as const;

/** Who read which consultation's health data, and when (never the data). */
function AccessLog({ domain }: { domain: string }) {
  const { t, i18n } = useLingui();
  const text = useTeleText();
  const log = trpc.telemedicine.accessLog.useQuery({ domain });
  if (log.isPending) return <LoadingSkeleton variant="table" rows={3} />;
  if (log.isError) return <RefusalState title={t`The access log could not be loaded`} message={text(log.error.message)} />;
  type Row = (typeof log.data)[number];
  const what = (w: string) => (w === WHAT.notes ? t`Clinical notes` : w === WHAT.recording ? t`Recording` : w === WHAT.transcript ? t`Transcript` : w === WHAT.file ? t`File in the conversation` : w);
  return (
    <Card title={t`Health data access log`}>
      <DataTable<Row>
        label={t`Health data access log`}
        rows={log.data}
        rowKey={(r) => r.id}
        pageSize={20}
        empty={<EmptyState title={t`Nobody has read health data yet.`} />}
        columns={[
          { id: 'at', header: t`When`, sortValue: (r) => new Date(r.at).getTime(), cell: (r) => i18n.date(r.at, { dateStyle: 'short', timeStyle: 'short' }) },
          { id: 'who', header: t`Who`, rowHeader: true, sortValue: (r) => r.userName, cell: (r) => r.userName },
          { id: 'what', header: t`What`, sortValue: (r) => r.what, cell: (r) => what(r.what) },
          { id: 'consultation', header: t`Consultation`, cell: (r) => <code>{r.consultationId.slice(0, 8)}</code> },
        ]}
      />
    </Card>
  );
}
