import type { ReactNode } from 'react';

export type BadgeTone = 'neutral' | 'accent' | 'ok' | 'warn' | 'danger';

/** A short state or label: 'Open', 'Admin', 'Blocked'. */
export function Badge({ tone = 'neutral', children, className, title }: { tone?: BadgeTone; children: ReactNode; className?: string; title?: string }) {
  return (
    <span className={['badge', tone !== 'neutral' && `badge-${tone}`, className].filter(Boolean).join(' ')} title={title}>
      {children}
    </span>
  );
}

/** Caps a count as the spec does for unread messages: 99+. */
export function formatCount(count: number): string {
  return count > 99 ? '99+' : String(count);
}

/**
 * A count on a navigation item or an icon (unread messages, people waiting). `label` says what it
 * counts for screen readers ('3 unread messages'); the number alone is hidden from them.
 */
export function CountBadge({ count, label, className }: { count: number; label: string; className?: string }) {
  if (count <= 0) return null;
  return (
    <span className={className ? `badge badge-count ${className}` : 'badge badge-count'}>
      <span aria-hidden="true">{formatCount(count)}</span>
      <span className="visually-hidden">{label}</span>
    </span>
  );
}
