import { Trans } from '@lingui/react/macro';
import { useEffect, useId, useRef, type ReactNode } from 'react';
import './dialog.css';

/**
 * A modal message or question on a native <dialog> (focus stays inside, Escape closes): the
 * spec's 'Definir Grupo', 'Para iniciar informe seu nome:', confirmations of removals...
 * Without `onConfirm` it is a message with one OK button.
 */
export function Dialog({
  title,
  children,
  onClose,
  onConfirm,
  confirmLabel,
  busy,
}: {
  title: string;
  children?: ReactNode;
  onClose: () => void;
  onConfirm?: () => void;
  confirmLabel?: ReactNode;
  busy?: boolean;
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
      className="confirm-dialog"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <h2 id={titleId} className="confirm-dialog-title">
        {title}
      </h2>
      {children}
      <div className="form-actions">
        {onConfirm ? (
          <>
            <button type="button" className="button" autoFocus disabled={busy} aria-busy={busy || undefined} onClick={onConfirm}>
              {confirmLabel ?? <Trans>Confirm</Trans>}
            </button>
            <button type="button" className="button button-secondary" disabled={busy} onClick={onClose}>
              <Trans>Cancel</Trans>
            </button>
          </>
        ) : (
          <button type="button" className="button" autoFocus onClick={onClose}>
            <Trans>OK</Trans>
          </button>
        )}
      </div>
    </dialog>
  );
}
