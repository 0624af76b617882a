import { useLingui } from '@lingui/react/macro';
import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { refusalRoute } from '../../shared/domain/membership';
import { globalDoctorTarget, useIsGlobalDoctor } from './globalDoctor';
import type { ServerToClientEvents } from '../../shared/realtime';
import { getSocket } from '../socket';
import { trpc } from '../trpc';
import { useMyStanding, useSelectedCompany } from './company';
import { toast } from '../ui/Toast';

/**
 * What the server pushes about this person's standing in a company, acted on at once:
 * - access revoked (an admin blocked or removed them): every cached answer is dropped and asked
 *   again (the /i shell's company gate then routes to /{emp}/block), and a tab on that company's
 *   own pages goes to /{emp}/block at once;
 * - profile changed: the menus are drawn again from fresh answers, and since open screens may
 *   still show what the old profile allowed, it asks to reload.
 * Listens only; whoever needs the socket connects it.
 */
export function AccessNotices() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const location = useLocation();
  const utils = trpc.useUtils();
  const path = useRef(location.pathname);
  path.current = location.pathname;
  const selected = useRef<string | undefined>(undefined);
  selected.current = useSelectedCompany().company?.domain;
  const globalDoctor = useRef(false);
  globalDoctor.current = useIsGlobalDoctor();
  const standing = useMyStanding();
  const lastStanding = useRef<{ domain: string; key: string } | null>(null);

  const askToReload = () =>
    toast.warn(t`Your profile has been changed, reload the page!`, {
      key: 'profile-changed',
      timeout: 0,
      action: { label: t`Reload`, onAction: () => window.location.reload() },
    });

  // A push sent while this tab was reconnecting never arrives: on every reconnect the standing is
  // asked again. A refusal then sends the tab away through the company gate (blocked, removed),
  // and a standing that changed meanwhile asks to reload, as the lost push would have.
  useEffect(() => {
    const socket = getSocket();
    let connectedBefore = socket.connected;
    const onConnect = () => {
      if (connectedBefore) void utils.company.current.invalidate();
      connectedBefore = true;
    };
    socket.on('connect', onConnect);
    return () => void socket.off('connect', onConnect);
  }, [utils]);
  useEffect(() => {
    const domain = selected.current;
    if (!standing || !domain) return;
    const key = JSON.stringify([standing.isAdmin, standing.profile, standing.permissions]);
    const before = lastStanding.current;
    lastStanding.current = { domain, key };
    if (before && before.domain === domain && before.key !== key) askToReload();
  }, [standing]);

  useEffect(() => {
    const socket = getSocket();
    const onRevoked: ServerToClientEvents['access:revoked'] = ({ domain, reason }) => {
      // The /i screens refetch company.current, whose refusal the company gate turns into the redirect.
      void utils.invalidate();
      const target = globalDoctorTarget(refusalRoute(domain, reason), domain, globalDoctor.current);
      // The /i screens work for the selected company: when that is the one that refused, leave now
      // rather than wait for the gate's refetch to come back refused.
      const inShell = path.current.startsWith('/i/') && selected.current === domain;
      const inside = inShell || path.current === `/${domain}` || path.current.startsWith(`/${domain}/`);
      if (target && inside && path.current !== target) void navigate(target, { replace: true });
    };
    const onProfileChanged: ServerToClientEvents['member:profileChanged'] = () => {
      // The menus follow at once (the answers they were drawn from are asked again); a screen
      // already open may still hold what the old profile allowed, hence the request to reload.
      void utils.invalidate();
      askToReload();
    };
    socket.on('access:revoked', onRevoked);
    socket.on('member:profileChanged', onProfileChanged);
    return () => {
      socket.off('access:revoked', onRevoked);
      socket.off('member:profileChanged', onProfileChanged);
    };
  }, [t, navigate, utils]);

  return null;
}
