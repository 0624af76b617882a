import { useLingui } from '@lingui/react/macro';
import { trpc } from '../../trpc';
import { Switch } from '../../ui';

/**
 * Inside a consultation's call, for its patient only: the explicit yes or no to recording. The
 * doctor cannot record until it is yes (the calls module asks telemedicine before recording).
 */
export function CallConsent({ callId }: { callId: string }) {
  const { t } = useLingui();
  const utils = trpc.useUtils();
  const mine = trpc.telemedicine.callConsent.useQuery({ callId }, { retry: false });
  const consent = trpc.telemedicine.consent.useMutation({ onSuccess: () => utils.telemedicine.callConsent.invalidate({ callId }) });
  if (!mine.data?.isPatient || !mine.data.consultationId) return null;
  const consultationId = mine.data.consultationId;
  return (
    <div className="call-consent" role="group" aria-label={t`Recording consent`}>
      <Switch label={t`I allow this consultation to be recorded`} checked={mine.data.consent === true} disabled={consent.isPending} onChange={(on) => consent.mutate({ consultationId, consent: on })} />
    </div>
  );
}
