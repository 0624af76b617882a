import { SOUND_VOLUME } from '../../../shared/constants';

/** Where browser notifications stand here (spec 4, push permission: default, granted, other). */
export type BrowserPermission = 'unsupported' | NotificationPermission;

export function browserPermission(): BrowserPermission {
  return typeof window !== 'undefined' && 'Notification' in window ? Notification.permission : 'unsupported';
}

export async function askBrowserPermission(): Promise<BrowserPermission> {
  if (browserPermission() === 'unsupported') return 'unsupported';
  return Notification.requestPermission();
}

/** A browser notification when the tab is not in view; clicking it brings the tab and opens `action`. */
export function showBrowserNotification(n: { id: string; title: string; body?: string; action?: string }, open: (path: string) => void) {
  if (browserPermission() !== 'granted' || document.visibilityState === 'visible') return;
  try {
    const shown = new Notification(n.title, { body: n.body, tag: n.id });
    shown.onclick = () => {
      window.focus();
      if (n.action) open(n.action);
      shown.close();
    };
  } catch {
    // Some browsers only allow notifications from a service worker: the in-app list still has it.
  }
}

let audio: AudioContext | undefined;

/** The queue sound at the spec's queue volume (1): two short tones, made here rather than downloaded. */
export function playQueueSound() {
  try {
    audio ??= new AudioContext();
    const start = audio.currentTime;
    for (const [i, freq] of [880, 660].entries()) {
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      gain.gain.value = SOUND_VOLUME.queue;
      tone.frequency.value = freq;
      tone.connect(gain).connect(audio.destination);
      tone.start(start + i * 0.25);
      tone.stop(start + i * 0.25 + 0.2);
    }
  } catch {
    // No audio output (or autoplay refused before the first click): the queue screen still shows it.
  }
}
