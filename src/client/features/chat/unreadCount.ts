import { useSyncExternalStore } from 'react';

/**
 * The selected company's unread conversation count, as the chat (ChatProvider, in its own chunk)
 * knows it, for the navigation's badge that lives outside the chat's React tree.
 */
let count = 0;
const listeners = new Set<() => void>();

export function setUnreadCount(next: number) {
  if (next === count) return;
  count = next;
  for (const listener of listeners) listener();
}

export function useUnreadCount(): number {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    () => count,
  );
}
