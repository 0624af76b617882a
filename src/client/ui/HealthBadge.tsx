import { Trans } from '@lingui/react/macro';
import { trpc } from '../trpc';

/** The server's state in the footer: reachable, and whether it can hold calls right now. */
export function HealthBadge() {
  // While the worker binary is being downloaded or built, ask more often: calls switch on by themselves.
  const health = trpc.system.health.useQuery(undefined, {
    refetchInterval: (query) => (query.state.data?.media.preparing ? 10_000 : 60_000),
  });
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
      {!media.available && media.preparing && (
        <span className="badge badge-warn" title={media.reason}>
          {media.preparing.step === 'build' && media.preparing.percent !== undefined ? (
            <Trans>Calls are being prepared ({media.preparing.percent}%)</Trans>
          ) : (
            <Trans>Calls are being prepared</Trans>
          )}
        </span>
      )}
      {!media.available && !media.preparing && (
        <span className="badge badge-warn" title={media.reason}>
          <Trans>Calls unavailable</Trans>
        </span>
      )}
      <span className="muted">v{version}</span>
    </span>
  );
}
