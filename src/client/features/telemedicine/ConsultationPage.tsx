import { Trans, useLingui } from '@lingui/react/macro';
import { Star, Video } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useParams, useSearchParams } from 'react-router-dom';
import { useAccount } from '../../guard/company';
import { trpc } from '../../trpc';
import { Button, ButtonLink, Card, Facts, FormError, FormNotice, LoadingSkeleton, PageTitle, RefusalState, SubmitButton, Switch, TextField } from '../../ui';
import { useSocketEvent } from '../service/live';
import { ClinicalNotes } from './ClinicalNotes';
import { useTeleText } from './texts';

/**
 * /{emp}/consultation: a patient asks a telemedicine company for a consultation, waits in the
 * doctors' queue (place and estimated wait, live), joins the doctor's video call, and rates it.
 */
export function ConsultationPage() {
  const { t } = useLingui();
  const { emp = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const id = params.get('c');
  return (
    <section className="page tele-page">
      <PageTitle title={t`Consultation`} />
      {id ? <Consultation consultationId={id} onRestart={() => setParams({})} /> : <RequestForm domain={emp} onRequested={(c) => setParams({ c })} />}
    </section>
  );
}

function RequestForm({ domain, onRequested }: { domain: string; onRequested: (id: string) => void }) {
  const { t } = useLingui();
  const text = useTeleText();
  const { user } = useAccount();
  const needsName = !user || user.anonymous || !user.name.trim();
  const [name, setName] = useState('');
  const request = trpc.telemedicine.request.useMutation({ onSuccess: (c) => onRequested(c.consultationId) });
  function submit(e: FormEvent) {
    e.preventDefault();
    request.mutate({ domain, ...(needsName && name.trim() && { name: name.trim() }) });
  }
  return (
    <Card title={t`Talk to a doctor`}>
      <p className="muted">
        <Trans>You wait in line for the next available doctor, who calls you by video.</Trans>
      </p>
      <form onSubmit={submit} className="tele-form">
        {needsName && <TextField label={t`Your name`} value={name} onChange={(e) => setName(e.target.value)} required maxLength={100} autoComplete="name" />}
        <FormError message={request.error ? text(request.error.message) : null} />
        <div className="form-actions">
          <SubmitButton pending={request.isPending}>
            <Trans>Request a consultation</Trans>
          </SubmitButton>
        </div>
      </form>
    </Card>
  );
}

function Consultation({ consultationId, onRestart }: { consultationId: string; onRestart: () => void }) {
  const { t, i18n } = useLingui();
  const text = useTeleText();
  const utils = trpc.useUtils();
  const c = trpc.telemedicine.consultation.useQuery({ consultationId }, { retry: false });
  const refetch = () => void utils.telemedicine.consultation.invalidate({ consultationId });
  useSocketEvent('telemedicine:changed', (p) => p.consultationId === consultationId && refetch(), refetch);
  useSocketEvent('telemedicine:position', (p) => {
    if (p.consultationId !== consultationId) return;
    utils.telemedicine.consultation.setData({ consultationId }, (old) => old && { ...old, position: p.position, estimatedWaitMs: p.estimatedWaitMs });
  });
  const leave = trpc.telemedicine.leave.useMutation({ onSuccess: refetch });
  const consent = trpc.telemedicine.consent.useMutation({ onSuccess: refetch });
  if (c.isPending) return <LoadingSkeleton variant="form" rows={3} />;
  if (c.isError) return <RefusalState title={text(c.error.message)} action={<Button onPress={onRestart}>{t`Request a consultation`}</Button>} />;
  const d = c.data;
  if (d.status === 'WAITING') {
    const minutes = d.estimatedWaitMs === null ? null : Math.max(1, Math.round(d.estimatedWaitMs / 60_000));
    return (
      <Card title={d.companyName}>
        <div aria-live="polite" className="tele-waiting">
          <p className="tele-position">
            <Trans>Your place in line: {d.position}</Trans>
          </p>
          <p>{minutes === null ? t`No doctor is online right now; you keep your place.` : d.position === 1 ? t`You are next.` : t`Estimated wait: about ${minutes} min`}</p>
        </div>
        <FormError message={leave.error ? text(leave.error.message) : null} />
        <div className="form-actions">
          <ButtonLink variant="secondary" to={`/${d.domain}/chat/${d.conversationId}`}>
            <Trans>Write while you wait</Trans>
          </ButtonLink>
          <Button variant="danger" isPending={leave.isPending} onPress={() => leave.mutate({ consultationId })}>
            {t`Leave the line`}
          </Button>
        </div>
      </Card>
    );
  }
  if (d.status === 'LEFT') {
    return (
      <Card title={d.companyName}>
        <p>
          <Trans>You left the line.</Trans>
        </p>
        <Button onPress={onRestart}>{t`Request a consultation`}</Button>
      </Card>
    );
  }
  return (
    <>
      <Card title={d.status === 'IN_PROGRESS' ? t`Consultation in progress` : t`Consultation ended`}>
        {d.doctor && <Facts items={[[t`Doctor`, `${d.doctor.prefix} ${d.doctor.name}`.trim()], [t`Speciality`, d.doctor.speciality], [t`CRM`, d.doctor.crm]]} />}
        {d.status === 'IN_PROGRESS' && (
          <>
            <div className="form-actions">
              {d.callId && (
                <ButtonLink icon={Video} to={`/${d.domain}/call/${d.callId}`}>
                  <Trans>Join the video call</Trans>
                </ButtonLink>
              )}
              <ButtonLink variant="secondary" to={`/${d.domain}/chat/${d.conversationId}`}>
                <Trans>Open the conversation</Trans>
              </ButtonLink>
            </div>
            <Switch
              label={t`I allow this consultation to be recorded`}
              checked={d.recordingConsent === true}
              disabled={consent.isPending}
              onChange={(on) => consent.mutate({ consultationId, consent: on })}
            />
            <FormError message={consent.error ? text(consent.error.message) : null} />
          </>
        )}
        {d.status === 'ENDED' && <Rate conversationId={d.conversationId} />}
        {d.endedAt && <p className="muted">{i18n.date(d.endedAt, { dateStyle: 'short', timeStyle: 'short' })}</p>}
      </Card>
      <Card>
        <ClinicalNotes consultationId={consultationId} canWrite={false} />
      </Card>
    </>
  );
}

/** "Telemedicine companies have consultation ending": the patient rates it, once. */
function Rate({ conversationId }: { conversationId: string }) {
  const { t } = useLingui();
  const text = useTeleText();
  const rate = trpc.customer.rate.useMutation();
  if (rate.isSuccess) return <FormNotice>{t`Thank you for rating the consultation.`}</FormNotice>;
  return (
    <div className="tele-rate" role="group" aria-label={t`Rate the consultation`}>
      <p>
        <Trans>How was the consultation?</Trans>
      </p>
      <div className="form-actions">
        {[1, 2, 3, 4, 5].map((stars) => (
          <Button key={stars} variant="secondary" icon={Star} isDisabled={rate.isPending} onPress={() => rate.mutate({ conversationId, stars })} aria-label={t`${stars} stars`}>
            {String(stars)}
          </Button>
        ))}
      </div>
      <FormError message={rate.error ? text(rate.error.message) : null} />
    </div>
  );
}

