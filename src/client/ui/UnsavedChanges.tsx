import { Trans } from '@lingui/react/macro';
import { useCallback, useEffect, useState } from 'react';
import { useBlocker, type BlockerFunction } from 'react-router-dom';
import { ModalDialog } from './Dialog';

/**
 * Asks 'Do you want to save the changes?' (spec: 'Deseja salvar as alterações feitas?') when the
 * user leaves a form with unsaved edits: in-app navigation through the router's blocker, closing
 * or reloading the tab through the browser's own prompt (browsers show their text, not ours).
 * `onSave` answers whether the save worked: only then does the navigation go on.
 * Mount one per screen: the router keeps a single blocker at a time.
 */
export function UnsavedChangesGuard({ dirty, onSave }: { dirty: boolean; onSave: () => Promise<boolean> }) {
  const shouldBlock = useCallback<BlockerFunction>(
    // Only leaving the screen counts: a change of ?query or #hash keeps the form on screen.
    ({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname,
    [dirty],
  );
  const blocker = useBlocker(shouldBlock);

  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers only prompt when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  if (blocker.state !== 'blocked') return null;
  return (
    <SaveChangesDialog
      onSave={async () => {
        // A failed save stays on the form, where its error is shown.
        if (await onSave()) blocker.proceed();
        else blocker.reset();
      }}
      onDiscard={() => blocker.proceed()}
      onCancel={() => blocker.reset()}
    />
  );
}

/** The question itself, on the app's modal (ModalDialog): Escape cancels. */
export function SaveChangesDialog({ onSave, onDiscard, onCancel }: { onSave: () => Promise<void>; onDiscard: () => void; onCancel: () => void }) {
  const [saving, setSaving] = useState(false);
  return (
    <ModalDialog
      title={<Trans>Do you want to save the changes?</Trans>}
      onCancel={onCancel}
      actions={
        <>
          <button
            type="button"
            className="button"
            autoFocus
            disabled={saving}
            aria-busy={saving || undefined}
            onClick={async () => {
              setSaving(true);
              try {
                await onSave();
              } finally {
                setSaving(false);
              }
            }}
          >
            <Trans>Save</Trans>
          </button>
          <button type="button" className="button button-secondary" disabled={saving} onClick={onDiscard}>
            <Trans>Discard</Trans>
          </button>
          <button type="button" className="button button-secondary" disabled={saving} onClick={onCancel}>
            <Trans>Cancel</Trans>
          </button>
        </>
      }
    />
  );
}
