import { useLingui } from '@lingui/react/macro';
import type { CSSProperties } from 'react';

/** One grey shape where something is loading. */
export function Skeleton({ width = '100%', height = '1rem', circle, style }: { width?: CSSProperties['width']; height?: CSSProperties['height']; circle?: boolean; style?: CSSProperties }) {
  return <span className={circle ? 'skeleton skeleton-circle' : 'skeleton'} style={{ width, height, ...style }} aria-hidden="true" />;
}

/**
 * A screen or list loading: the rough shape of what is coming (rows with an avatar, or lines of
 * text), announced once as 'Loading…'. Use instead of a spinner wherever the shape is known.
 */
export function LoadingSkeleton({ rows = 4, variant = 'list', label }: { rows?: number; variant?: 'list' | 'text' | 'table' | 'form'; label?: string }) {
  const { t } = useLingui();
  return (
    <div className="skeleton-group" role="status" aria-label={label ?? t`Loading…`} aria-busy="true">
      {variant === 'form' && <Skeleton width="40%" height="1.5rem" />}
      {Array.from({ length: rows }, (_, i) =>
        variant === 'list' ? (
          <div className="skeleton-row" key={i}>
            <Skeleton circle width={40} height={40} />
            <div className="skeleton-lines">
              <Skeleton width={`${60 - ((i * 13) % 25)}%`} />
              <Skeleton width={`${85 - ((i * 17) % 30)}%`} height="0.8rem" />
            </div>
          </div>
        ) : variant === 'table' ? (
          <div className="skeleton-row" key={i}>
            <Skeleton width="30%" />
            <Skeleton width="25%" />
            <Skeleton width="20%" />
          </div>
        ) : variant === 'form' ? (
          <div className="skeleton-lines" key={i}>
            <Skeleton width="25%" height="0.8rem" />
            <Skeleton height="2.5rem" />
          </div>
        ) : (
          <Skeleton key={i} width={`${95 - ((i * 19) % 35)}%`} />
        ),
      )}
    </div>
  );
}
