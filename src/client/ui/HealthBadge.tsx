import { Trans } from '@lingui/react/macro';
import { trpc } from '../trpc';

/** The server's state in the footer: reachable, and whether it can hold calls right now. */
export function HealthBadge() {
  const health = trpc.system.health.useQuery(undefined, { refetchInterval: 60_000 });
  if (health.isPending) return null;
  if (health.isError) {
    return (
      <span className="badge badge-danger" role="status">
        <Trans>Server unreachable</Trans>
      </span>
    );
  }
  const { ok, version, media } = health.data;
  return (
    <span className="health" role="status">
      {ok ? (
        <span className="badge badge-ok">
          <Trans>Online</Trans>
        </span>
      ) : (
        <span className="badge badge-danger">
          <Trans>Server degraded</Trans>
        </span>
      )}
      {!media.available && (
        <span className="badge badge-warn" title={media.reason}>
          <Trans>Calls unavailable</Trans>
        </span>
      )}
      <span className="muted">v{version}</span>
    </span>
  );
}
