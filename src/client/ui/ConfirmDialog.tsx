import { Trans } from '@lingui/react/macro';
import { useId, type ReactNode } from 'react';
import { Button } from './Button';
import { ModalDialog } from './Dialog';

/**
 * A yes/no question (ModalDialog as a form). The error of a failed confirmation shows inside it,
 * where the user is looking; `children` may hold inputs (e.g. the word to type before deleting),
 * and Enter in them confirms. `danger` styles the confirmation as destructive.
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
        if (!props.confirmDisabled && !props.pending) props.onConfirm();
      }}
      actions={
        <>
          <Button variant="secondary" isDisabled={props.pending} onPress={props.onCancel}>
            <Trans>Cancel</Trans>
          </Button>
          <Button
            type="submit"
            variant={props.danger ? 'danger' : 'primary'}
            autoFocus={!props.children}
            isDisabled={props.confirmDisabled}
            isPending={props.pending}
          >
            {props.confirmLabel}
          </Button>
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
