import { Trans, useLingui } from '@lingui/react/macro';
import { FileText } from 'lucide-react';
import { useState } from 'react';
import { useParams } from 'react-router-dom';
import type { EnrolmentStatus } from '../../../shared/domain/telemedicine';
import { trpc } from '../../trpc';
import { Button, ButtonLink, Card, ConfirmDialog, Facts, FormError, FormNotice, LoadingSkeleton, PageHeader, PresenceDot, RefusalState } from '../../ui';
import { AdminScreen } from '../settings/AdminScreen';
import { StatusBadge } from './DoctorsPage';
import { MOVE_LABELS, useTeleText } from './texts';

/** /i/settings/doctors/{id}: one enrolment, its CRM document and the decisions it allows now. */
export function DoctorPage() {
  const { t } = useLingui();
  const { id = '' } = useParams();
  return <AdminScreen title={t`Doctor`}>{(company) => <DoctorDetail domain={company.domain} enrolmentId={id} />}</AdminScreen>;
}

function DoctorDetail({ domain, enrolmentId }: { domain: string; enrolmentId: string }) {
  const { t, i18n } = useLingui();
  const text = useTeleText();
  const utils = trpc.useUtils();
  const enrolment = trpc.telemedicine.enrolment.useQuery({ domain, enrolmentId }, { retry: false });
  const [confirm, setConfirm] = useState<EnrolmentStatus | null>(null);
  const [done, setDone] = useState<EnrolmentStatus | null>(null);
  const setStatus = trpc.telemedicine.setStatus.useMutation({
    onSuccess: async (data) => {
      utils.telemedicine.enrolment.setData({ domain, enrolmentId }, data);
      await utils.telemedicine.enrolments.invalidate({ domain });
      setDone(data.status);
      setConfirm(null);
    },
  });
  const back = { to: '/i/settings/doctors', label: t`Back to doctors` };
  if (enrolment.isPending) return <LoadingSkeleton variant="form" rows={5} />;
  if (enrolment.isError) {
    return (
      <RefusalState
        title={text(enrolment.error.message)}
        action={
          <ButtonLink to={back.to} variant="secondary">
            {back.label}
          </ButtonLink>
        }
      />
    );
  }
  const e = enrolment.data;
  const when = (d: Date | null) => (d ? i18n.date(d, { dateStyle: 'short', timeStyle: 'short' }) : '—');
  const move = (status: EnrolmentStatus) => {
    setDone(null);
    setStatus.mutate({ domain, enrolmentId, status });
  };
  return (
    <>
      <PageHeader title={`${e.prefix} ${e.name}`.trim()} back={back} description={<StatusBadge status={e.status} />} />
      <Card title={t`Enrolment`}>
        <Facts
          items={[
            [t`CRM`, `${e.crm}/${e.uf}`],
            [t`Speciality`, e.speciality],
            [t`E-mail`, e.email ?? '—'],
            [t`Global doctor`, e.global ? t`Yes: serves every telemedicine company that accepts global doctors` : t`No`],
            [t`Presence`, <><PresenceDot status={e.online ? 'online' : 'offline'} /> {e.online ? t`Online` : t`Offline`}</>],
            [t`Enrolled on`, when(e.createdAt)],
            [t`Last update`, when(e.lastUpdate)],
            e.blockedAt && [t`Blocked on`, when(e.blockedAt)],
          ]}
        />
        <DocumentButton enrolmentId={enrolmentId} hasDocument={e.hasDocument} name={e.documentName} />
      </Card>
      <Card title={t`Decision`}>
        <FormError message={setStatus.error ? text(setStatus.error.message) : null} />
        {done && (
          <FormNotice>
            <Trans>Saved: {i18n._(MOVE_LABELS[done])}</Trans>
          </FormNotice>
        )}
        {e.moves.length === 0 ? (
          <p className="muted">
            <Trans>No decision applies to this enrolment now.</Trans>
          </p>
        ) : (
          <div className="form-actions">
            {e.moves.map((m) => (
              <Button key={m} variant={m === 'APPROVED' ? 'primary' : m === 'BLOCKED' ? 'danger' : 'secondary'} isDisabled={setStatus.isPending} onPress={() => (m === 'APPROVED' ? move(m) : setConfirm(m))}>
                {i18n._(MOVE_LABELS[m])}
              </Button>
            ))}
          </div>
        )}
      </Card>
      {confirm && (
        <ConfirmDialog
          title={confirm === 'BLOCKED' ? t`Block this doctor?` : t`Refuse this enrolment?`}
          confirmLabel={i18n._(MOVE_LABELS[confirm])}
          danger
          pending={setStatus.isPending}
          error={setStatus.error ? text(setStatus.error.message) : null}
          onConfirm={() => move(confirm)}
          onCancel={() => setConfirm(null)}
        >
          {confirm === 'BLOCKED' ? <Trans>The doctor goes offline at once and cannot take patients until approved again.</Trans> : <Trans>The doctor will not be able to take patients of this company.</Trans>}
        </ConfirmDialog>
      )}
    </>
  );
}

/** The CRM document through a link that lasts a minute, asked for only when opened. */
export function DocumentButton({ enrolmentId, hasDocument, name }: { enrolmentId: string; hasDocument: boolean; name: string | null }) {
  const { t } = useLingui();
  const text = useTeleText();
  const utils = trpc.useUtils();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  if (!hasDocument) {
    return (
      <p className="muted">
        <Trans>No CRM document was sent yet.</Trans>
      </p>
    );
  }
  async function open() {
    setError(null);
    setPending(true);
    try {
      const link = await utils.telemedicine.document.fetch({ enrolmentId }, { staleTime: 0 });
      window.open(link.url, '_blank', 'noopener');
    } catch (err) {
      setError(text((err as Error).message));
    } finally {
      setPending(false);
    }
  }
  return (
    <div className="form-actions">
      <Button variant="secondary" icon={FileText} isPending={pending} onPress={() => void open()}>
        {t`Open the CRM document`} {name ? `(${name})` : ''}
      </Button>
      <FormError message={error} />
    </div>
  );
}
