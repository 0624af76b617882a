import { Trans } from '@lingui/react/macro';
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { FormError, FormNotice, SubmitButton } from '../../ui/Form';
import { UnsavedChangesGuard } from '../../ui/UnsavedChanges';

/**
 * A form's values next to the last saved ones: `dirty` drives the save-changes confirmation and
 * `saved` the success note, which goes away at the next edit.
 */
export function useDraft<T>(initial: T) {
  const [baseline, setBaseline] = useState(initial);
  const [values, setValues] = useState(initial);
  const [saved, setSaved] = useState(false);
  const dirty = useMemo(() => JSON.stringify(values) !== JSON.stringify(baseline), [values, baseline]);

  // The server's copy changed under the form (an action elsewhere on the screen, a refetch):
  // adopt it, unless the user is in the middle of editing.
  const current = useRef({ dirty, baseline });
  current.current = { dirty, baseline };
  const sourceKey = JSON.stringify(initial);
  useEffect(() => {
    if (current.current.dirty || sourceKey === JSON.stringify(current.current.baseline)) return;
    setBaseline(initial);
    setValues(initial);
    // Keyed on the content: a refetch hands a new object with the same values.
  }, [sourceKey]);
  const set = useCallback(<K extends keyof T>(key: K, value: T[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setSaved(false);
  }, []);
  /** After a save: what the server kept becomes the new baseline. */
  const commit = useCallback((next: T) => {
    setBaseline(next);
    setValues(next);
    setSaved(true);
  }, []);
  return { values, set, dirty, saved, commit };
}
export type Draft<T> = ReturnType<typeof useDraft<T>>;

/**
 * Every settings edit form: the error on top, the success note after a save, the fields, the
 * actions, and the save-changes confirmation when leaving with edits. `save` answers whether it
 * worked, so the confirmation only moves on after a successful save.
 */
export function EditForm<T>({
  draft,
  save,
  pending,
  error,
  submitLabel,
  actions,
  children,
  label,
}: {
  draft: Draft<T>;
  save: () => Promise<boolean>;
  pending: boolean;
  error?: string | null;
  submitLabel?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  label?: string;
}) {
  return (
    <form
      className="settings-form"
      aria-label={label}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <FormError message={error} />
      {draft.saved && !draft.dirty && (
        <FormNotice>
          <Trans>Changes saved successfully!</Trans>
        </FormNotice>
      )}
      {children}
      <div className="form-actions">
        <SubmitButton pending={pending}>{submitLabel ?? <Trans>Save</Trans>}</SubmitButton>
        {actions}
      </div>
      <UnsavedChangesGuard dirty={draft.dirty} onSave={save} />
    </form>
  );
}
