import { Trans } from '@lingui/react/macro';
import { useEffect, useId, useRef, type ReactNode } from 'react';
import './dialog.css';

/**
 * Every modal of the app sits on this one: a native <dialog> opened with showModal() (focus stays
 * inside, the page behind is inert), a title that names it, the content and a row of actions.
 * Escape calls `onCancel`, unless `persistent` (the spec's 'Chamando' stays until the caller
 * cancels or someone answers). With `onSubmit` the content is a form: Enter in a field submits.
 * ConfirmDialog and Dialog below are the common shapes.
 */
export function ModalDialog(props: {
  title: ReactNode;
  children?: ReactNode;
  actions: ReactNode;
  onCancel?: () => void;
  persistent?: boolean;
  role?: 'dialog' | 'alertdialog';
  /** Extra class: `dialog-wide` for the calls' dialogs, or a screen's own. */
  className?: string;
  /** The id of what describes it (an error shown inside). */
  describedBy?: string;
  onSubmit?: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  const body = (
    <>
      <h2 id={titleId} className="modal-dialog-title">
        {props.title}
      </h2>
      {props.children}
      <div className="form-actions">{props.actions}</div>
    </>
  );
  return (
    <dialog
      ref={ref}
      role={props.role === 'alertdialog' ? 'alertdialog' : undefined}
      className={props.className ? `modal-dialog ${props.className}` : 'modal-dialog'}
      aria-labelledby={titleId}
      aria-describedby={props.describedBy}
      onCancel={(event) => {
        event.preventDefault();
        if (!props.persistent) props.onCancel?.();
      }}
    >
      {props.onSubmit ? (
        <form
          method="dialog"
          className="modal-dialog-body"
          onSubmit={(e) => {
            e.preventDefault();
            props.onSubmit!();
          }}
        >
          {body}
        </form>
      ) : (
        <div className="modal-dialog-body">{body}</div>
      )}
    </dialog>
  );
}

/**
 * A modal message or question: the spec's 'Definir Grupo', 'Para iniciar informe seu nome:',
 * confirmations of removals... Without `onConfirm` it is a message with one OK button.
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
  return (
    <ModalDialog
      title={title}
      onCancel={onClose}
      actions={
        onConfirm ? (
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
        )
      }
    >
      {children}
    </ModalDialog>
  );
}
