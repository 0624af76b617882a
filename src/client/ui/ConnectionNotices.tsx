import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import { getSocket, isTooMany } from '../socket';
import { ShellButton } from './ShellButtons';
import { BRAND } from './PageTitle';
import { toast } from './Toast';

/** How long the 'too fast' toast stays: long enough to read a sentence. */
const TOAST_MS = 6000;

/**
 * What the server says about this tab's live connection, where the user looks: a banner that
 * stays while the socket is refused for too many open tabs (nothing live arrives meanwhile, and
 * the socket retries once, then waits), and a short toast (the kit's) when some events were
 * dropped for being too fast. Listens only; whoever needs the socket connects it.
 */
export function ConnectionNotices() {
  const { t } = useLingui();
  const [refused, setRefused] = useState(false);

  useEffect(() => {
    const socket = getSocket();
    const onError = (err: Error & { data?: { code?: string; retrying?: boolean } }) => {
      if (isTooMany(err) && !err.data?.retrying) setRefused(true);
    };
    const onConnect = () => setRefused(false);
    // One toast however many warnings arrive: the same key replaces it.
    const onWarning = () =>
      toast.warn(t`Some of your actions came too fast and were not sent; please slow down.`, { key: 'socket-too-fast', timeout: TOAST_MS });
    socket.on('connect_error', onError);
    socket.on('connect', onConnect);
    socket.on('limit:warning', onWarning);
    return () => {
      socket.off('connect_error', onError);
      socket.off('connect', onConnect);
      socket.off('limit:warning', onWarning);
    };
  }, [t]);

  return (
    <>
      {refused && (
        <div className="connection-banner" role="alert">
          {/* The spec's text for the app open in several tabs (calls-errors-constants §8). */}
          <span>{t`You have one or more ${BRAND} tabs open; please close all the others and click OK to reload the page and start the system.`}</span>
          <ShellButton onClick={() => window.location.reload()}>
            <Trans>OK</Trans>
          </ShellButton>
        </div>
      )}
    </>
  );
}
