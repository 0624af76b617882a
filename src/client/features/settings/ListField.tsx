import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState, type KeyboardEvent } from 'react';

/**
 * A list typed one entry at a time (spec 5, copy e-mail list): each entry is checked when added,
 * a duplicate is refused with `duplicateMessage`, and entries can be taken out again.
 */
export function ListField({
  label,
  items,
  onChange,
  validate,
  duplicateMessage,
  normalize = (v) => v.trim(),
  inputType = 'text',
  pending,
  onPendingChange,
}: {
  label: string;
  items: string[];
  onChange: (items: string[]) => void;
  /** Why the entry cannot be added, or null. */
  validate?: (value: string) => string | null;
  duplicateMessage: string;
  normalize?: (value: string) => string;
  inputType?: 'text' | 'email';
  /** The text typed but not added yet, when the owner needs it (e.g. to add it on submit). */
  pending?: string;
  onPendingChange?: (value: string) => void;
}) {
  const { t } = useLingui();
  const id = useId();
  const [ownText, setOwnText] = useState('');
  const text = pending ?? ownText;
  const setText = onPendingChange ?? setOwnText;
  const [error, setError] = useState<string | null>(null);

  function add() {
    const value = normalize(text);
    if (!value) return;
    const refusal = items.includes(value) ? duplicateMessage : (validate?.(value) ?? null);
    setError(refusal);
    if (refusal) return;
    onChange([...items, value]);
    setText('');
  }
  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    // Enter adds the entry instead of submitting the surrounding form.
    if (event.key === 'Enter') {
      event.preventDefault();
      add();
    }
  }
  return (
    <div className="field list-field">
      <label htmlFor={id}>{label}</label>
      <div className="list-field-entry">
        <input
          id={id}
          type={inputType}
          value={text}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(e) => {
            setText(e.target.value);
            setError(null);
          }}
          onKeyDown={onKeyDown}
        />
        <button type="button" className="button button-secondary button-small" onClick={add}>
          <Trans>Add</Trans>
        </button>
      </div>
      {error && (
        <p id={`${id}-error`} className="field-error" role="alert">
          {error}
        </p>
      )}
      {items.length > 0 && (
        <ul className="list-field-items" aria-label={label}>
          {items.map((item) => (
            <li key={item}>
              <span>{item}</span>
              <button
                type="button"
                className="link-button"
                aria-label={t`Remove ${item}`}
                onClick={() => onChange(items.filter((i) => i !== item))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
