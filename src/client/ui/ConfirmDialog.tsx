import { Trans } from '@lingui/react/macro';
import { useEffect, useId, useRef, type ReactNode } from 'react';
import './dialog.css';

/**
 * A yes/no question in a native modal <dialog> (focus stays inside, Escape cancels). The error of
 * a failed confirmation shows inside it, where the user is looking; `children` may hold inputs
 * (e.g. the word to type before deleting).
 */
export function ConfirmDialog(props: {
  title: string;
  children?: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  pending?: boolean;
  error?: string | null;
  confirmDisabled?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const errorId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);

  return (
    <dialog
      ref={ref}
      className="confirm-dialog"
      aria-labelledby={titleId}
      aria-describedby={props.error ? errorId : undefined}
      onCancel={(event) => {
        event.preventDefault();
        props.onCancel();
      }}
    >
      <form
        method="dialog"
        className="confirm-dialog-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (!props.confirmDisabled) props.onConfirm();
        }}
      >
        <h2 id={titleId} className="confirm-dialog-title">
          {props.title}
        </h2>
        {props.children}
        {props.error && (
          <p id={errorId} className="form-error" role="alert">
            {props.error}
          </p>
        )}
        <div className="form-actions">
          <button
            type="submit"
            className={props.danger ? 'button button-danger' : 'button'}
            autoFocus={!props.children}
            disabled={props.pending || props.confirmDisabled}
            aria-busy={props.pending || undefined}
          >
            {props.confirmLabel}
          </button>
          <button type="button" className="button button-secondary" disabled={props.pending} onClick={props.onCancel}>
            <Trans>Cancel</Trans>
          </button>
        </div>
      </form>
    </dialog>
  );
}
