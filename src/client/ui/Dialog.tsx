import { Trans } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { Dialog as AriaDialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { Button } from './Button';

/**
 * Every modal of the app sits on this one (React Aria's Modal: focus stays inside and comes back
 * to what opened it, the page behind is hidden from screen readers and does not scroll, menus and
 * tooltips opened inside it stack above it). It is open while mounted: render it when needed.
 * A title that names it, the content and a row of actions. Escape calls `onCancel`, unless
 * `persistent` (the spec's 'Chamando' stays until the caller cancels or someone answers). With
 * `onSubmit` the content is a form: Enter in a field submits. ConfirmDialog and Dialog below are
 * the common shapes.
 */
export function ModalDialog(props: {
  title: ReactNode;
  children?: ReactNode;
  actions: ReactNode;
  onCancel?: () => void;
  persistent?: boolean;
  role?: 'dialog' | 'alertdialog';
  /** Extra class on the modal: `modal-wide`, `modal-large`, or a screen's own. */
  className?: string;
  /** The id of what describes it (an error shown inside). */
  describedBy?: string;
  onSubmit?: () => void;
}) {
  const body = (
    <>
      <Heading slot="title" className="modal-dialog-title">
        {props.title}
      </Heading>
      {props.children}
      <div className="form-actions">{props.actions}</div>
    </>
  );
  return (
    <ModalOverlay
      isOpen
      isKeyboardDismissDisabled={props.persistent}
      onOpenChange={(open) => {
        if (!open && !props.persistent) props.onCancel?.();
      }}
      className="modal-overlay"
    >
      <Modal className={props.className ? `modal ${props.className}` : 'modal'}>
        <AriaDialog role={props.role ?? 'dialog'} className="modal-dialog" aria-describedby={props.describedBy}>
          {props.onSubmit ? (
            <form
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
        </AriaDialog>
      </Modal>
    </ModalOverlay>
  );
}

/**
 * A whole-screen layer on the same modal machinery (the call screen, an image viewer): no frame,
 * the content decides its look. Escape calls `onClose` unless there is none.
 */
export function FullScreenLayer({
  label,
  labelledBy,
  onClose,
  className,
  children,
}: {
  label?: string;
  labelledBy?: string;
  onClose?: () => void;
  className?: string;
  children: ReactNode;
}) {
  return (
    <ModalOverlay
      isOpen
      isKeyboardDismissDisabled={!onClose}
      onOpenChange={(open) => !open && onClose?.()}
      className="modal-overlay modal-overlay-full"
    >
      <Modal className="modal modal-full">
        <AriaDialog aria-label={label} aria-labelledby={labelledBy} className={className ? `modal-dialog ${className}` : 'modal-dialog'}>
          {children}
        </AriaDialog>
      </Modal>
    </ModalOverlay>
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
            <Button variant="secondary" isDisabled={busy} onPress={onClose}>
              <Trans>Cancel</Trans>
            </Button>
            <Button autoFocus isPending={busy} onPress={onConfirm}>
              {confirmLabel ?? <Trans>Confirm</Trans>}
            </Button>
          </>
        ) : (
          <Button autoFocus onPress={onClose}>
            <Trans>OK</Trans>
          </Button>
        )
      }
    >
      {children}
    </ModalDialog>
  );
}
