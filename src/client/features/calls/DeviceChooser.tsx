import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useId, useRef, useState } from 'react';
import { CALL_TYPE } from '../../../shared/constants';
import { useServerMessage } from '../../guard/company';
import { ModalDialog } from '../../ui/Dialog';
import { listDevices, MEDIA_ERRORS, mediaErrorKind, openMedia, saveCameraOn, savedCameraOn, saveDevice, savedDevice, type DeviceOption } from './devices';

/**
 * 'Escolha as opções de áudio e vídeo': camera on or off, which camera and microphone (each with
 * the browser's default), a preview, Cancelar and 'Ingressar agora'. The chosen devices are saved
 * (by label) as the defaults for the next call.
 */
export function DeviceChooser({
  type,
  busy,
  error,
  onJoin,
  onCancel,
  settings = false,
  cameraOn,
}: {
  type: number;
  busy: boolean;
  error: string | null;
  onJoin: (media: MediaStream | null) => void;
  onCancel: () => void;
  /** Opened from the call bar, in a call: 'Apply' instead of 'Join now'. */
  settings?: boolean;
  /** Whether the camera starts on (in a call: as it is now); otherwise as last chosen. */
  cameraOn?: boolean;
}) {
  const { t } = useLingui();
  const serverMessage = useServerMessage();
  const [camera, setCamera] = useState(cameraOn ?? (type !== CALL_TYPE.voice && savedCameraOn()));
  const [devices, setDevices] = useState<{ cameras: DeviceOption[]; microphones: DeviceOption[] }>({ cameras: [], microphones: [] });
  const [cameraId, setCameraId] = useState<string | null>(null);
  const [microphoneId, setMicrophoneId] = useState<string | null>(null);
  const [stream, setStream] = useState<MediaStream | null>(null);
  const [mediaError, setMediaError] = useState<keyof typeof MEDIA_ERRORS | null>(null);
  // The devices are being opened: joining now would join without them (nothing sent, and the
  // camera shown as on), so Join waits until they are open or have failed.
  const [opening, setOpening] = useState(true);
  const preview = useRef<HTMLVideoElement>(null);
  const streamRef = useRef<MediaStream | null>(null);
  const handedOver = useRef(false);
  const ids = { camera: useId(), microphone: useId(), toggle: useId() };

  // Open the chosen devices; again whenever the choice changes.
  useEffect(() => {
    let cancelled = false;
    setOpening(true);
    (async () => {
      try {
        const next = await openMedia({ camera, cameraId, microphoneId });
        if (cancelled) return next.getTracks().forEach((t) => t.stop());
        streamRef.current?.getTracks().forEach((t) => t.stop());
        streamRef.current = next;
        setStream(next);
        setMediaError(null);
        setOpening(false);
        // Labels are only known once access is granted: match the saved defaults now.
        const found = await listDevices();
        if (cancelled) return;
        setDevices(found);
        const savedCamera = found.cameras.find((d) => d.label === savedDevice('camera'));
        const savedMicrophone = found.microphones.find((d) => d.label === savedDevice('microphone'));
        if (cameraId === null && savedCamera) setCameraId(savedCamera.deviceId);
        if (microphoneId === null && savedMicrophone) setMicrophoneId(savedMicrophone.deviceId);
      } catch (err) {
        if (cancelled) return;
        setOpening(false);
        const kind = mediaErrorKind(err);
        // A camera that fails must not stop a call: carry on with the microphone alone.
        if (kind === 'camera' && camera) {
          setMediaError('camera');
          setCamera(false);
          return;
        }
        streamRef.current?.getTracks().forEach((t) => t.stop());
        streamRef.current = null;
        setStream(null);
        setMediaError(kind);
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [camera, cameraId, microphoneId]);

  useEffect(() => {
    if (preview.current) preview.current.srcObject = stream && stream.getVideoTracks().length ? stream : null;
  }, [stream]);

  // Leaving the chooser without joining releases the devices.
  useEffect(
    () => () => {
      if (!handedOver.current) streamRef.current?.getTracks().forEach((t) => t.stop());
    },
    [],
  );

  const labelOf = (list: DeviceOption[], id: string | null) => list.find((d) => d.deviceId === id)?.label ?? null;
  const join = () => {
    saveDevice('camera', labelOf(devices.cameras, cameraId));
    saveDevice('microphone', labelOf(devices.microphones, microphoneId));
    if (type !== CALL_TYPE.voice) saveCameraOn(camera);
    handedOver.current = true;
    onJoin(streamRef.current);
  };
  const mediaText = mediaError ? serverMessage({ message: MEDIA_ERRORS[mediaError] }) : null;
  const blocked = mediaError === 'blocked' || mediaError === 'activation';

  return (
    <ModalDialog title={settings ? t`Audio and video settings` : t`Choose your audio and video options`} onCancel={onCancel} className="dialog-wide device-chooser" actions={
      <>
        <button type="button" className="button button-secondary" onClick={onCancel} disabled={busy}>
          <Trans>Cancel</Trans>
        </button>
        <button type="button" className="button" onClick={join} disabled={busy || blocked || opening} aria-busy={busy || opening || undefined}>
          {settings ? <Trans>Apply</Trans> : <Trans>Join now</Trans>}
        </button>
      </>
    }>
      <div className="device-preview">
        {camera && stream?.getVideoTracks().length ? (
          <video ref={preview} autoPlay playsInline muted aria-label={t`Camera preview`} />
        ) : (
          <div className="device-preview-off" aria-live="polite">
            {opening ? <Trans>Starting the camera and microphone…</Trans> : <Trans>Camera off</Trans>}
          </div>
        )}
      </div>
      <label className="device-toggle" htmlFor={ids.toggle}>
        <input id={ids.toggle} type="checkbox" role="switch" checked={camera} onChange={(e) => setCamera(e.target.checked)} />
        <Trans>Camera</Trans>
      </label>
      <div className="field">
        <label htmlFor={ids.camera}>
          <Trans>Camera</Trans>
        </label>
        <select id={ids.camera} value={cameraId ?? ''} disabled={!camera} onChange={(e) => setCameraId(e.target.value || null)}>
          <option value="">{t`Browser default`}</option>
          {devices.cameras.map((d, i) => {
            const number = i + 1;
            return (
              <option key={d.deviceId} value={d.deviceId}>
                {d.label || t`Camera ${number}`}
              </option>
            );
          })}
        </select>
      </div>
      <div className="field">
        <label htmlFor={ids.microphone}>
          <Trans>Microphone</Trans>
        </label>
        <select id={ids.microphone} value={microphoneId ?? ''} onChange={(e) => setMicrophoneId(e.target.value || null)}>
          <option value="">{t`Browser default`}</option>
          {devices.microphones.map((d, i) => {
            const number = i + 1;
            return (
              <option key={d.deviceId} value={d.deviceId}>
                {d.label || t`Microphone ${number}`}
              </option>
            );
          })}
        </select>
      </div>
      {mediaText && (
        <p className="form-error" role="alert">
          {mediaText}
        </p>
      )}
      {error && (
        <p className="form-error" role="alert">
          {serverMessage({ message: error })}
        </p>
      )}
    </ModalDialog>
  );
}
