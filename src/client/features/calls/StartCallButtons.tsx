import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect } from 'react';
import { CALL_TYPE } from '../../../shared/constants';
import { usePlanFeatures, useSelectedCompany } from '../../guard/company';
import { trpc } from '../../trpc';
import { enterCall, prepareCall, useCallsState } from './store';

/**
 * Voice call, video call and screen share from a conversation — or "Join the call" when one is
 * already going on in it. The conversation header mounts it.
 */
export function StartCallButtons({ conversationId }: { conversationId: string }) {
  const { t } = useLingui();
  const { company } = useSelectedCompany();
  const { active } = useCallsState();
  const domain = company?.domain ?? '';
  const open = trpc.calls.openInConversation.useQuery({ domain, conversationId }, { enabled: !!domain, refetchInterval: 30_000 });
  // The footer's health query (same cache): with no media worker a call cannot start, so the
  // buttons are off and say why (tooltip, and read with the group), instead of failing after the
  // device chooser. The header has no room for a sentence on a phone; the footer badge shows it.
  const media = trpc.system.health.useQuery().data?.media;
  const unavailable = media && !media.available ? (media.preparing ? t`Calls are being prepared` : t`Calls unavailable`) : null;
  const inCall = !!active;
  // Remote assistance draws on the customer's screen: the plan's annotation flag (anotation).
  const remoteAssist = !!usePlanFeatures()?.anotation;
  // A call that ended or began here changes what this offers.
  const refetch = open.refetch;
  useEffect(() => {
    if (domain) void refetch();
  }, [active?.callId, active?.phase, domain, refetch]);
  if (!company) return null;
  const running = open.data && !open.data.concluded ? open.data : null;
  const start = (type: number) => prepareCall({ domain, conversationId, type });

  return (
    <div className="call-start" role="group" aria-label={t`Calls`} aria-describedby={unavailable ? `call-unavailable-${conversationId}` : undefined}>
      {running && active?.callId !== running.id ? (
        <button type="button" className="button" disabled={inCall} onClick={() => void enterCall({ callId: running.id })}>
          {running.isLive ? <Trans>Join the live session</Trans> : <Trans>Join the call</Trans>}
        </button>
      ) : (
        <>
          <button type="button" className="button button-secondary" disabled={inCall || !!unavailable} title={unavailable ?? undefined} onClick={() => start(CALL_TYPE.voice)}>
            <Trans>Voice call</Trans>
          </button>
          <button type="button" className="button button-secondary" disabled={inCall || !!unavailable} title={unavailable ?? undefined} onClick={() => start(CALL_TYPE.video)}>
            <Trans>Video call</Trans>
          </button>
          <button type="button" className="button button-secondary" disabled={inCall || !!unavailable} title={unavailable ?? undefined} onClick={() => start(CALL_TYPE.screenShare)}>
            <Trans>Share screen</Trans>
          </button>
          {remoteAssist && (
            <button type="button" className="button button-secondary" disabled={inCall || !!unavailable} title={unavailable ?? undefined} onClick={() => start(CALL_TYPE.remoteAccess)}>
              <Trans>Remote assistance</Trans>
            </button>
          )}
          {unavailable && (
            <span id={`call-unavailable-${conversationId}`} className="visually-hidden">
              {unavailable}
            </span>
          )}
        </>
      )}
    </div>
  );
}
