import { useEffect, useState } from 'react';
import { RING_SOUND_INTERVAL_MS, SOUND_VOLUME } from '../../../shared/constants';
import ringUrl from './ring.ogg';

/** The ring, every 4 s while `ringing` (calls-errors-constants §9). */
export function useRingSound(ringing: boolean) {
  useEffect(() => {
    if (!ringing) return;
    const audio = new Audio(ringUrl);
    audio.volume = SOUND_VOLUME.notification;
    // A browser that refuses to play before any click simply stays silent: the dialog still shows.
    const play = () => void audio.play().catch(() => {});
    play();
    const timer = setInterval(play, RING_SOUND_INTERVAL_MS);
    return () => {
      clearInterval(timer);
      audio.pause();
    };
  }, [ringing]);
}

/** Seconds since `since`, ticking every second; null before it starts. */
export function useElapsedSeconds(since: string | Date | null): number | null {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!since) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [since]);
  if (!since) return null;
  return Math.max(0, Math.floor((now - new Date(since).getTime()) / 1000));
}

export function formatDuration(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const mm = String(m).padStart(2, '0');
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}

/**
 * How loud each audio track is, 0 to 100, sampled five times a second (the active speaker is the
 * loudest above 5: calls-errors-constants §9).
 */
export function useAudioLevels(tracks: { id: string; track: MediaStreamTrack }[]): Map<string, number> {
  const [levels, setLevels] = useState<Map<string, number>>(() => new Map());
  const key = tracks.map((t) => `${t.id}:${t.track.id}`).join(',');
  useEffect(() => {
    if (tracks.length === 0 || typeof AudioContext === 'undefined') {
      setLevels(new Map());
      return;
    }
    const context = new AudioContext();
    const analysers = tracks.map(({ id, track }) => {
      const source = context.createMediaStreamSource(new MediaStream([track]));
      const analyser = context.createAnalyser();
      analyser.fftSize = 512;
      source.connect(analyser);
      return { id, analyser, data: new Float32Array(analyser.fftSize) };
    });
    const timer = setInterval(() => {
      const next = new Map<string, number>();
      for (const { id, analyser, data } of analysers) {
        analyser.getFloatTimeDomainData(data);
        let sum = 0;
        for (const v of data) sum += v * v;
        next.set(id, Math.min(100, Math.round(Math.sqrt(sum / data.length) * 300)));
      }
      setLevels(next);
    }, 200);
    return () => {
      clearInterval(timer);
      void context.close();
    };
    // The key stands for the track list.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  return levels;
}

/** Phones: the spec's 767 px breakpoint. */
export function useNarrow(): boolean {
  const query = '(max-width: 767px)';
  const [narrow, setNarrow] = useState(() => typeof matchMedia !== 'undefined' && matchMedia(query).matches);
  useEffect(() => {
    const list = matchMedia(query);
    const onChange = () => setNarrow(list.matches);
    list.addEventListener('change', onChange);
    return () => list.removeEventListener('change', onChange);
  }, []);
  return narrow;
}
