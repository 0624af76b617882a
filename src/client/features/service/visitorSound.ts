import { useCallback, useState } from 'react';

const KEY = 'atende-visitor-muted';

function readMuted(): boolean {
  try {
    return localStorage.getItem(KEY) === '1';
  } catch {
    return false;
  }
}

/** The visitor's mute choice for the arrival sound, remembered in this browser. */
export function useVisitorMute() {
  const [muted, setMuted] = useState(readMuted);
  const toggle = useCallback(() => {
    setMuted((was) => {
      try {
        localStorage.setItem(KEY, was ? '0' : '1');
      } catch {
        // Not remembered; the choice still holds on this page.
      }
      return !was;
    });
  }, []);
  return { muted, toggle };
}
