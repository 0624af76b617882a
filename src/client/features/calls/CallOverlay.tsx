import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui as useLinguiCore } from '@lingui/react';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useRef, useSyncExternalStore, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import type { CallEnded, CallSignal } from '../../../shared/call-events';
import { CALL_TYPE } from '../../../shared/constants';
import { CALL_MESSAGES, CALL_TIME_LIMIT_MESSAGES } from '../../../shared/domain/calls';
import { useServerMessage } from '../../guard/company';
import { trpc } from '../../trpc';
import { CallScreen } from './CallScreen';
import { DeviceChooser } from './DeviceChooser';
import { FullScreenLayer, ModalDialog } from '../../ui/Dialog';
import { Button } from '../../ui/Button';
import { PhoneOff } from 'lucide-react';
import { useRingSound } from './hooks';
import type { CallSession } from './session';
import {
  acceptRing,
  answerAsk,
  cancelDevices,
  cancelRinging,
  dismissNotice,
  joinWith,
  rejectRing,
  useCallsState,
  type ActiveCall,
  type CallNotice,
} from './store';

/**
 * Calls over whatever screen is open: the incoming 'Chamada' in every tab, the caller's
 * 'Chamando', the device chooser, the call screen, and what is left to say when a call ends.
 * Loaded and mounted by CallsHost only while there is something to show (it carries
 * mediasoup-client's weight through the call screen).
 */
export function CallOverlay() {
  const me = trpc.auth.me.useQuery();
  const userId = me.data?.user?.id ?? null;
  const calls = useCallsState();

  const active = calls.active;
  const ringing = calls.incoming[0] ?? null;
  useRingSound(!!ringing);

  return (
    <>
      {active && active.phase !== 'in' && active.role !== 'viewer' && !active.quick && (
        <DeviceChooser type={active.type} busy={active.phase === 'joining'} error={active.error} onJoin={(media) => void joinWith(media)} onCancel={() => void cancelDevices()} />
      )}
      {active?.session && userId && (
        <CallLayer>
          <CallScreen active={active} userId={userId} />
          {active.role === 'caller' && <OutgoingRing active={active} session={active.session} />}
        </CallLayer>
      )}
      {ringing && !active && <IncomingCall signal={ringing} />}
      {calls.ask && <AskDialog />}
      {calls.notice && <Notice notice={calls.notice} />}
    </>
  );
}

/**
 * The call covers the router view as a modal: what is behind it stays on screen (the call ends
 * there) but cannot be reached with the keyboard or a screen reader meanwhile. Escape does not
 * leave a call; the Leave button does.
 */
function CallLayer({ children }: { children: ReactNode }) {
  const { t } = useLingui();
  return (
    <FullScreenLayer label={t`Call in progress`} className="call-overlay">
      {children}
    </FullScreenLayer>
  );
}

function callKind(type: number): MessageDescriptor {
  if (type === CALL_TYPE.voice) return msg`Voice call`;
  if (type === CALL_TYPE.screenShare) return msg`Screen share`;
  if (type === CALL_TYPE.remoteAccess) return msg`Remote assistance`;
  return msg`Video call`;
}

/** 'Chamada': Aceitar or Rejeitar, in every tab of the callee. */
function IncomingCall({ signal }: { signal: CallSignal }) {
  const { t, i18n } = useLingui();
  const name = signal.from.name || t`Someone`;
  return (
    <ModalDialog
      className="dialog-wide"
      title={t`Call`}
      persistent
      actions={
        <>
          <button type="button" className="button" autoFocus onClick={() => void acceptRing(signal)}>
            <Trans>Accept</Trans>
          </button>
          <button type="button" className="button call-control-danger" onClick={() => void rejectRing(signal)}>
            <Trans>Reject</Trans>
          </button>
        </>
      }
    >
      <p className="call-ring-who">
        <Trans>{name} is calling you</Trans>
      </p>
      <p className="muted">{i18n._(callKind(signal.type))}</p>
    </ModalDialog>
  );
}

/**
 * 'Chamando': while the call rings and nobody answered, the caller sees who is being called over
 * their own camera (not an empty call screen); Cancelar stops it.
 */
function OutgoingRing({ active, session }: { active: ActiveCall; session: CallSession }) {
  const { t } = useLingui();
  const snapshot = useSyncExternalStore(session.subscribe, session.getSnapshot);
  const state = snapshot.state;
  const rung = state?.participants.filter((p) => p.calling) ?? [];
  const show = !!state && !state.open && !state.concluded && rung.length > 0;
  useRingSound(show);
  if (!show) return null;
  const names = rung.map((p) => p.name).join(', ');
  const cam = snapshot.local.camOn ? snapshot.local.cam : null;
  return (
    <section className="call-calling" aria-label={t`Calling`}>
      {cam ? <Preview track={cam} label={t`Your camera`} /> : <div className="call-calling-nocam" />}
      <div className="call-calling-card">
        <h2 className="call-ring-who">
          <Trans>Calling {names}…</Trans>
        </h2>
        <RingNotes notes={active.ringNotes} />
        <Button variant="danger" icon={PhoneOff} onPress={() => void cancelRinging()}>
          <Trans>Cancel</Trans>
        </Button>
      </div>
    </section>
  );
}

function Preview({ track, label }: { track: MediaStreamTrack; label: string }) {
  const ref = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.srcObject = new MediaStream([track]);
  }, [track]);
  return <video ref={ref} className="call-calling-video" autoPlay playsInline muted aria-label={label} />;
}

function RingNotes({ notes }: { notes: CallSignal[] }) {
  const visible = notes.filter((n) => n.cmd === 'otherReject');
  if (visible.length === 0) return null;
  return (
    <ul className="call-ring-notes">
      {visible.map((n, i) => (
        <li key={`${n.to.id}-${i}`}>
          <RingNote name={n.to.name} reason={n.reason} />
        </li>
      ))}
    </ul>
  );
}

function RingNote({ name, reason }: { name: string; reason: CallSignal['reason'] }) {
  if (reason === 'busy') return <Trans>{name} - Is on another call right now.</Trans>;
  if (reason === 'noAnswer') return <Trans>{name} did not answer</Trans>;
  return <Trans>{name} declined the call</Trans>;
}

/** The owner asks to turn the microphone or the camera back on. */
function AskDialog() {
  const { t } = useLingui();
  const { ask } = useCallsState();
  if (!ask) return null;
  const name = ask.from.name;
  return (
    <ModalDialog
      className="dialog-wide"
      title={ask.command === 'unmute' ? t`Turn on your microphone?` : t`Turn on your camera?`}
      onCancel={() => answerAsk(false)}
      actions={
        <>
          <button type="button" className="button" autoFocus onClick={() => answerAsk(true)}>
            <Trans>Turn on</Trans>
          </button>
          <button type="button" className="button button-secondary" onClick={() => answerAsk(false)}>
            <Trans>Not now</Trans>
          </button>
        </>
      }
    >
      <p>{ask.command === 'unmute' ? <Trans>{name} asks you to turn on your microphone.</Trans> : <Trans>{name} asks you to turn on your camera.</Trans>}</p>
    </ModalDialog>
  );
}

const END_TEXTS: Record<Exclude<CallEnded['reason'], 'timeLimit' | 'insufficientBalance'>, MessageDescriptor> = {
  ended: msg`The call has ended.`,
  endedByOwner: msg`The owner ended the call.`,
  noAnswer: msg`Nobody answered the call.`,
  cancelled: msg`The call was cancelled.`,
  mediaFailure: msg`The call was interrupted by a failure of the media server. Please start it again.`,
};

function Notice({ notice }: { notice: CallNotice }) {
  const { t } = useLingui();
  const { i18n } = useLinguiCore();
  const serverMessage = useServerMessage();
  const navigate = useNavigate();
  let title = t`Call`;
  let text: string;
  let action: { label: string; go: string } | null = null;
  switch (notice.kind) {
    case 'ended': {
      const { reason, appEnv } = notice.payload;
      if (reason === 'timeLimit') {
        title = t`Time limit`;
        text = serverMessage({ message: CALL_TIME_LIMIT_MESSAGES[appEnv ?? 'dev'] })!;
      } else if (reason === 'insufficientBalance') {
        title = t`Insufficient balance`;
        text = serverMessage({ message: CALL_MESSAGES.insufficientBalance })!;
        action = { label: t`Add credits`, go: '/i/recarga' };
      } else {
        text = i18n._(END_TEXTS[reason]);
      }
      break;
    }
    case 'kicked':
      text = serverMessage({ message: CALL_MESSAGES.kicked })!;
      break;
    case 'command': {
      const name = notice.payload.from.name;
      text = notice.payload.command === 'mute' ? t`${name} turned off your microphone.` : t`${name} turned off your camera.`;
      break;
    }
    case 'lost':
      title = t`Connection`;
      text = serverMessage({ message: CALL_MESSAGES.connectionFailed })!;
      break;
    case 'error':
      title = t`Call unavailable`;
      text = serverMessage({ message: notice.message })!;
      break;
  }
  return (
    <ModalDialog
      className="dialog-wide"
      title={title}
      role="alertdialog"
      onCancel={dismissNotice}
      actions={
        <>
          {action && (
            <button
              type="button"
              className="button"
              onClick={() => {
                dismissNotice();
                void navigate(action.go);
              }}
            >
              {action.label}
            </button>
          )}
          <button type="button" className={action ? 'button button-secondary' : 'button'} autoFocus onClick={dismissNotice}>
            <Trans>OK</Trans>
          </button>
        </>
      }
    >
      <p>{text}</p>
    </ModalDialog>
  );
}
