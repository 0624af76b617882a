import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useRef, useState } from 'react';
import { duration } from './format';
import { Icon } from './icons';

/** What this browser's MediaRecorder can write, best first (the server recognises each by its bytes). */
const AUDIO_TYPES = ['audio/webm;codecs=opus', 'audio/webm', 'audio/ogg;codecs=opus', 'audio/mp4'];
const EXTENSIONS: Record<string, string> = { 'audio/webm': 'webm', 'audio/ogg': 'ogg', 'audio/mp4': 'm4a' };

export const canRecord = () => typeof window !== 'undefined' && 'MediaRecorder' in window && !!navigator.mediaDevices?.getUserMedia;

interface Recording {
  recorder: MediaRecorder;
  stream: MediaStream;
  chunks: Blob[];
  startedAt: number;
}

/**
 * A voice message: the microphone button starts recording (the browser asks for the microphone
 * the first time), a timer runs, and the person sends or cancels. Keyboard: the buttons are
 * ordinary buttons; Escape cancels.
 */
export function VoiceRecorder({ onRecorded, disabled }: { onRecorded: (audio: Blob, name: string, durationMs: number) => void; disabled?: boolean }) {
  const { t } = useLingui();
  const [state, setState] = useState<'idle' | 'starting' | 'recording'>('idle');
  const [elapsed, setElapsed] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const current = useRef<Recording | null>(null);

  // Leaving the conversation mid-recording stops the microphone.
  useEffect(() => () => finish(false), []);

  useEffect(() => {
    if (state !== 'recording') return;
    const timer = setInterval(() => current.current && setElapsed(Date.now() - current.current.startedAt), 250);
    return () => clearInterval(timer);
  }, [state]);

  async function start() {
    setError(null);
    setState('starting');
    try {
      const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
      const mimeType = AUDIO_TYPES.find((type) => MediaRecorder.isTypeSupported(type));
      const recorder = new MediaRecorder(stream, mimeType ? { mimeType } : undefined);
      const recording: Recording = { recorder, stream, chunks: [], startedAt: Date.now() };
      recorder.ondataavailable = (e) => e.data.size > 0 && recording.chunks.push(e.data);
      recorder.start(250);
      current.current = recording;
      setElapsed(0);
      setState('recording');
    } catch {
      setState('idle');
      setError(t`The microphone is not available. Allow it in the browser to record voice messages.`);
    }
  }

  function finish(send: boolean) {
    const recording = current.current;
    current.current = null;
    if (!recording) return;
    const durationMs = Date.now() - recording.startedAt;
    recording.recorder.onstop = () => {
      recording.stream.getTracks().forEach((track) => track.stop());
      if (!send) return;
      const type = (recording.recorder.mimeType || 'audio/webm').split(';')[0]!;
      const audio = new Blob(recording.chunks, { type });
      const stamp = new Date().toISOString().slice(0, 19).replace(/[T:]/g, '-');
      if (audio.size > 0) onRecorded(audio, `voice-${stamp}.${EXTENSIONS[type] ?? 'webm'}`, durationMs);
    };
    if (recording.recorder.state !== 'inactive') recording.recorder.stop();
    else recording.recorder.onstop?.(new Event('stop'));
    setState('idle');
  }

  if (state === 'recording') {
    return (
      <div className="recorder" role="group" aria-label={t`Recording a voice message`} onKeyDown={(e) => e.key === 'Escape' && finish(false)}>
        <span className="recorder-dot" aria-hidden="true" />
        <span className="recorder-time" role="timer" aria-live="off">
          {duration(elapsed)}
        </span>
        <button type="button" className="icon-button" onClick={() => finish(false)} aria-label={t`Cancel recording`} title={t`Cancel recording`}>
          <Icon name="trash" />
        </button>
        <button type="button" className="icon-button composer-send" onClick={() => finish(true)} aria-label={t`Send voice message`} title={t`Send voice message`} autoFocus>
          <Icon name="send" />
        </button>
      </div>
    );
  }
  return (
    <>
      <button
        type="button"
        className="icon-button"
        onClick={() => void start()}
        disabled={disabled || state === 'starting'}
        aria-label={t`Record a voice message`}
        title={t`Record a voice message`}
      >
        <Icon name="mic" />
      </button>
      {error && (
        <p className="form-error recorder-error" role="alert">
          {error}{' '}
          <button type="button" className="link-button" onClick={() => setError(null)}>
            <Trans>Close</Trans>
          </button>
        </p>
      )}
    </>
  );
}
