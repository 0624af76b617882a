import { Trans } from '@lingui/react/macro';
import { useId, type ReactNode } from 'react';
import { ModalDialog } from './Dialog';

/**
 * A yes/no question (ModalDialog as a form). The error of a failed confirmation shows inside it,
 * where the user is looking; `children` may hold inputs (e.g. the word to type before deleting),
 * and Enter in them confirms.
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
  const errorId = useId();
  return (
    <ModalDialog
      title={props.title}
      onCancel={props.onCancel}
      describedBy={props.error ? errorId : undefined}
      onSubmit={() => {
        if (!props.confirmDisabled) props.onConfirm();
      }}
      actions={
        <>
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
        </>
      }
    >
      {props.children}
      {props.error && (
        <p id={errorId} className="form-error" role="alert">
          {props.error}
        </p>
      )}
    </ModalDialog>
  );
}
