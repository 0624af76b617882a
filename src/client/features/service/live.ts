import { useEffect, useRef } from 'react';
import type { ServerToClientEvents } from '../../../shared/realtime';
import { connectSocket, getSocket } from '../../socket';
import { trpc } from '../../trpc';

/**
 * Listens to one server event on the tab's socket while the component is mounted, connecting the
 * socket once someone (an anonymous visitor too) is signed in. `onReconnect` runs after the
 * connection comes back, when pushes may have been missed: screens refetch there.
 */
export function useSocketEvent<E extends keyof ServerToClientEvents>(event: E, handler: ServerToClientEvents[E], onReconnect?: () => void) {
  const me = trpc.auth.me.useQuery();
  const signedIn = !!me.data?.user;
  const latest = useRef({ handler, onReconnect });
  latest.current = { handler, onReconnect };
  useEffect(() => {
    if (!signedIn) return;
    const socket = getSocket();
    connectSocket();
    const listener = ((...args: unknown[]) => (latest.current.handler as (...a: unknown[]) => void)(...args)) as never;
    // Whatever was sent while this screen had no connection never reached it: catch up on every
    // connect after mount, the first one too when the screen's data was fetched before the
    // socket was up (a slow handshake would otherwise lose the events in between).
    const onConnect = () => latest.current.onReconnect?.();
    socket.on(event, listener);
    socket.on('connect', onConnect);
    return () => {
      socket.off(event, listener);
      socket.off('connect', onConnect);
    };
  }, [event, signedIn]);
}
