/**
 * Cameras and microphones: the choices saved as defaults (by label, since device ids change
 * between sessions and sites), the constraints for a choice, and what a media error means for
 * the user (calls-errors-constants §8).
 */
import { PUBLISHER_VIDEO } from '../../../shared/constants';

const KEYS = { camera: 'atende.calls.camera', microphone: 'atende.calls.microphone' } as const;
const CAMERA_ON_KEY = 'atende.calls.cameraOn';

/** Whether the camera was on in the last device choice (on unless it was turned off). */
export function savedCameraOn(): boolean {
  try {
    return localStorage.getItem(CAMERA_ON_KEY) !== 'false';
  } catch {
    return true;
  }
}

export function saveCameraOn(on: boolean) {
  try {
    localStorage.setItem(CAMERA_ON_KEY, String(on));
  } catch {
    // Private mode without storage: the choice just is not remembered.
  }
}

/** A saved label, or null for the browser's default device. */
export function savedDevice(kind: keyof typeof KEYS): string | null {
  try {
    return localStorage.getItem(KEYS[kind]);
  } catch {
    return null;
  }
}

export function saveDevice(kind: keyof typeof KEYS, label: string | null) {
  try {
    if (label) localStorage.setItem(KEYS[kind], label);
    else localStorage.removeItem(KEYS[kind]);
  } catch {
    // Private mode without storage: the choice just is not remembered.
  }
}

export interface DeviceOption {
  deviceId: string;
  label: string;
}

export async function listDevices(): Promise<{ cameras: DeviceOption[]; microphones: DeviceOption[] }> {
  const all = await navigator.mediaDevices.enumerateDevices();
  // The browser's own "default" entry is offered separately as the browser-default choice.
  const pick = (kind: MediaDeviceKind) =>
    all.filter((d) => d.kind === kind && d.deviceId && d.deviceId !== 'default' && d.deviceId !== 'communications').map((d) => ({ deviceId: d.deviceId, label: d.label }));
  return { cameras: pick('videoinput'), microphones: pick('audioinput') };
}

export const cameraConstraints = (deviceId: string | null): MediaTrackConstraints => ({
  width: { ideal: PUBLISHER_VIDEO.width },
  height: { ideal: PUBLISHER_VIDEO.height },
  frameRate: { ideal: PUBLISHER_VIDEO.frameRate },
  ...(deviceId && { deviceId: { exact: deviceId } }),
});

export const microphoneConstraints = (deviceId: string | null): MediaTrackConstraints | true =>
  deviceId ? { deviceId: { exact: deviceId }, echoCancellation: true, noiseSuppression: true } : { echoCancellation: true, noiseSuppression: true };

/** The spec's texts for media failures (the browser side maps them to the user's language). */
export const MEDIA_ERRORS = {
  blocked: 'Sem Acesso - Microfone e WebCam estão bloquedas. Desbloquei para realizar Chamadas.',
  camera: 'Erro ao carregar a câmera',
  activation: 'Não foi possível ativar o sistema de mídia',
} as const;

export type MediaErrorKind = keyof typeof MEDIA_ERRORS;

export function mediaErrorKind(err: unknown): MediaErrorKind {
  const name = (err as { name?: string } | null)?.name;
  if (name === 'NotAllowedError' || name === 'SecurityError') return 'blocked';
  if (name === 'NotFoundError' || name === 'NotReadableError' || name === 'OverconstrainedError' || name === 'AbortError') return 'camera';
  return 'activation';
}

/** A microphone (and camera) stream for the chosen devices. */
export async function openMedia(choice: { camera: boolean; cameraId: string | null; microphoneId: string | null }): Promise<MediaStream> {
  if (!navigator.mediaDevices?.getUserMedia) throw Object.assign(new Error('no media devices'), { name: 'NotSupportedError' });
  return navigator.mediaDevices.getUserMedia({
    audio: microphoneConstraints(choice.microphoneId),
    video: choice.camera ? cameraConstraints(choice.cameraId) : false,
  });
}
