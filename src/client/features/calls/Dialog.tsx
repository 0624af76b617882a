import { useEffect, useId, useRef, type ReactNode } from 'react';

/**
 * A modal on a native <dialog> (focus stays inside). `persistent` ignores Escape: the spec's
 * 'Chamando' stays until the caller cancels or someone answers.
 */
export function Dialog({
  title,
  children,
  actions,
  onCancel,
  persistent,
  role = 'dialog',
  className,
}: {
  title: string;
  children?: ReactNode;
  actions: ReactNode;
  onCancel?: () => void;
  persistent?: boolean;
  role?: 'dialog' | 'alertdialog';
  className?: string;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  return (
    <dialog
      ref={ref}
      role={role}
      className={`confirm-dialog call-dialog ${className ?? ''}`}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        if (!persistent) onCancel?.();
      }}
    >
      <h2 id={titleId} className="confirm-dialog-title">
        {title}
      </h2>
      {children}
      <div className="form-actions">{actions}</div>
    </dialog>
  );
}
