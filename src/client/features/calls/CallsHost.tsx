import { lazy, Suspense, useEffect } from 'react';
import { connectSocket, getSocket } from '../../socket';
import { trpc } from '../../trpc';
import { configureCalls, onCallEnded, onSignal, setIncoming, useCallsState } from './store';

// mediasoup-client and the call screens are a large chunk most page views never need: it loads
// when a ring arrives or a call is started, answered or joined, not with the page.
const CallOverlay = lazy(() => import('./CallOverlay').then((m) => ({ default: m.CallOverlay })));

/**
 * Always mounted (app layout, public call pages) and light: it listens for rings on the tab's
 * socket and hands the calls store its API client, then mounts the CallOverlay only while the
 * store has something to show.
 */
export function CallsHost() {
  const utils = trpc.useUtils();
  const me = trpc.auth.me.useQuery();
  const userId = me.data?.user?.id ?? null;
  const calls = useCallsState();

  useEffect(() => configureCalls(utils.client, userId), [utils, userId]);

  // Rings come over the tab's own socket, to every tab of the person.
  useEffect(() => {
    if (!userId) return;
    const socket = getSocket();
    const refresh = () => void utils.client.calls.incoming.query().then(setIncoming, () => {});
    socket.on('call:signal', onSignal);
    socket.on('call:ended', onCallEnded);
    socket.on('connect', refresh);
    if (socket.connected) refresh();
    else connectSocket();
    return () => {
      socket.off('call:signal', onSignal);
      socket.off('call:ended', onCallEnded);
      socket.off('connect', refresh);
    };
  }, [userId, utils]);

  const needed = calls.incoming.length > 0 || !!calls.active || !!calls.notice || !!calls.ask;
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <CallOverlay />
    </Suspense>
  );
}
