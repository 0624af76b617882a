/**
 * The chat's two sounds at the spec's volumes (send 0.1, receive 0.5). The files are ours, made
 * with ffmpeg from sine tones (never downloaded):
 *   send.mp3:    880 Hz, 90 ms, fades in 5 ms and out 50 ms
 *   receive.mp3: 660 Hz for 120 ms then 990 Hz for 160 ms, faded
 * (`ffmpeg -f lavfi -i "sine=frequency=880:duration=0.09" -af afade… -c:a libmp3lame -b:a 48k`).
 */
import { SOUND_VOLUME } from '../../../shared/constants';
import receiveUrl from '../../assets/receive.mp3';
import sendUrl from '../../assets/send.mp3';

const URLS = { send: sendUrl, receive: receiveUrl } as const;

export function playSound(kind: keyof typeof URLS) {
  try {
    const audio = new Audio(URLS[kind]);
    audio.volume = SOUND_VOLUME[kind];
    // Browsers refuse to play before the user has interacted with the page: nothing to do then.
    void audio.play().catch(() => {});
  } catch {
    // No audio support (some embedded browsers).
  }
}

/** How long a tab holds the right to play one message's sound: the others got the same push meanwhile. */
const SOUND_LOCK_MS = 3_000;

/**
 * Plays a sound once across the user's tabs: every tab receives the same message, and only the
 * one that takes the lock named after it plays (Web Locks; a browser without them plays in each).
 */
export function playOnceAcrossTabs(kind: keyof typeof URLS, key: string) {
  const locks = (navigator as Navigator & { locks?: LockManager }).locks;
  if (!locks) return playSound(kind);
  void locks
    .request(`atende-sound-${key}`, { ifAvailable: true }, async (lock) => {
      if (!lock) return;
      playSound(kind);
      await new Promise((resolve) => setTimeout(resolve, SOUND_LOCK_MS));
    })
    .catch(() => {});
}
