import { Inbox, ShieldAlert, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';

/**
 * Nothing to show: what is missing and what to do about it (`action`: a ButtonLink or Button).
 * `tone="danger"` for a refusal (the plan lacks the feature, no permission): say why, never spin.
 */
export function EmptyState({
  title,
  description,
  action,
  icon: Icon = Inbox,
  tone,
  role,
}: {
  title: ReactNode;
  description?: ReactNode;
  action?: ReactNode;
  icon?: LucideIcon;
  tone?: 'danger';
  /** 'alert' for a refusal that just replaced a loading state. */
  role?: 'status' | 'alert';
}) {
  return (
    <div className={tone === 'danger' ? 'empty-state empty-state-danger' : 'empty-state'} role={role}>
      <span className="empty-state-icon" aria-hidden="true">
        <Icon />
      </span>
      <p className="empty-state-title">{title}</p>
      {description && <p className="empty-state-description">{description}</p>}
      {action && <div className="empty-state-action">{action}</div>}
    </div>
  );
}

/** The server said no (plan, permission): its message, as an empty state. */
export function RefusalState({ title, message, action }: { title: ReactNode; message?: ReactNode; action?: ReactNode }) {
  return <EmptyState tone="danger" icon={ShieldAlert} title={title} description={message} action={action} role="alert" />;
}
