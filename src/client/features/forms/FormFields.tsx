import { Trans, useLingui } from '@lingui/react/macro';
import { useId, type ReactNode } from 'react';
import { FILE_FIELD_TYPES, formatPhone, type FormField, type FormFieldError } from '../../../shared/domain/forms';
import { maskBrazilianPhone, onlyDigits } from '../../../shared/domain/phone';
import { FIELD_ERROR_TEXTS } from './texts';

/** An answer as the screens hold it (files: what the server stored, without its key). */
export type ClientValue = string | number | boolean | string[] | { name: string; size: number; mime: string } | null;

/**
 * Every field of a form as inputs: the fill screens (both sides) and the builder's preview.
 * `fileSlot` draws the file, image and signature answers (upload, link, signature pad).
 */
export function FormFields(props: {
  fields: readonly FormField[];
  values: Record<string, ClientValue>;
  errors: Record<string, FormFieldError | undefined>;
  disabled?: boolean;
  onChange: (fieldId: string, value: ClientValue) => void;
  fileSlot?: (field: FormField) => ReactNode;
}) {
  return (
    <div className="form-fields">
      {props.fields.map((field) => (
        <FieldInput key={field.id} field={field} value={props.values[field.id] ?? null} error={props.errors[field.id]} disabled={props.disabled} onChange={(v) => props.onChange(field.id, v)} fileSlot={props.fileSlot} />
      ))}
    </div>
  );
}

/** A phone as typed: the Brazilian mask while it looks Brazilian, '+' and digits otherwise. */
export function phoneForInput(value: ClientValue): string {
  if (typeof value !== 'string' || !value) return '';
  if (value.startsWith('+')) return value;
  // Stored answers are digits with the country code; typed ones are masked as they grow.
  return /^55\d{10,11}$/.test(value) ? formatPhone(value) : maskBrazilianPhone(value);
}

function FieldInput({ field, value, error, disabled, onChange, fileSlot }: { field: FormField; value: ClientValue; error?: FormFieldError; disabled?: boolean; onChange: (v: ClientValue) => void; fileSlot?: (f: FormField) => ReactNode }) {
  const { i18n } = useLingui();
  const id = useId();
  if (field.type === 'heading') {
    return (
      <div className="form-heading">
        <h4>{field.label}</h4>
        {field.help && <p className="muted">{field.help}</p>}
      </div>
    );
  }
  const hintId = field.help ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  const common = { id, disabled: disabled || field.readOnly, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy, required: field.required && !field.readOnly } as const;
  const text = typeof value === 'string' || typeof value === 'number' ? String(value) : '';
  const shown = field.readOnly ? field.defaultValue : text;
  const label = (
    <>
      {field.label}
      {field.required && !field.readOnly && <span aria-hidden="true"> *</span>}
    </>
  );
  const foot = (
    <>
      {field.help && (
        <p id={hintId} className="field-hint muted">
          {field.help}
        </p>
      )}
      {error && (
        <p id={errorId} className="field-error" role="alert">
          {i18n._(FIELD_ERROR_TEXTS[error])}
        </p>
      )}
    </>
  );

  if (field.type === 'singleChoice' || field.type === 'multipleChoice' || field.type === 'checkbox') {
    const chosen = Array.isArray(value) ? value : [];
    return (
      <fieldset className="field form-choice" aria-describedby={describedBy} aria-invalid={error ? true : undefined} disabled={disabled || field.readOnly}>
        <legend>{label}</legend>
        {field.type === 'checkbox' ? (
          <label className="form-option">
            <input type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} /> <Trans>Yes</Trans>
          </label>
        ) : (
          field.options.map((option) => (
            <label key={option} className="form-option">
              {field.type === 'singleChoice' ? (
                <input type="radio" name={id} checked={value === option} onChange={() => onChange(option)} />
              ) : (
                <input type="checkbox" checked={chosen.includes(option)} onChange={(e) => onChange(e.target.checked ? [...chosen, option] : chosen.filter((c) => c !== option))} />
              )}{' '}
              {option}
            </label>
          ))
        )}
        {foot}
      </fieldset>
    );
  }

  let control: ReactNode;
  if (FILE_FIELD_TYPES.has(field.type)) {
    return (
      <div className="field form-file" role="group" aria-labelledby={`${id}-label`} aria-describedby={describedBy}>
        <span id={`${id}-label`} className="form-file-label">
          {label}
        </span>
        {fileSlot ? fileSlot(field) : <p className="muted">{field.type === 'signature' ? <Trans>Signature pad</Trans> : <Trans>File upload</Trans>}</p>}
        {foot}
      </div>
    );
  } else if (field.type === 'longText') {
    control = <textarea {...common} rows={4} value={shown} onChange={(e) => onChange(e.target.value)} />;
  } else if (field.type === 'phone') {
    control = (
      <input
        {...common}
        type="tel"
        inputMode="tel"
        autoComplete="tel"
        placeholder="(11) 98765-4321"
        value={field.readOnly ? field.defaultValue : phoneForInput(value)}
        onChange={(e) => onChange(e.target.value.trim().startsWith('+') ? `+${onlyDigits(e.target.value)}` : maskBrazilianPhone(e.target.value))}
      />
    );
  } else {
    const type = { email: 'email', date: 'date', time: 'time' }[field.type as string] ?? 'text';
    control = (
      <input
        {...common}
        type={type}
        inputMode={field.type === 'number' ? 'decimal' : undefined}
        autoComplete={field.type === 'email' ? 'email' : undefined}
        value={shown}
        onChange={(e) => onChange(e.target.value)}
      />
    );
  }
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {control}
      {foot}
    </div>
  );
}
