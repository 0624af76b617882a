import { Check, ChevronDown, Minus, Plus } from 'lucide-react';
import { useId, type InputHTMLAttributes, type ReactNode, type Ref, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';
import {
  Button as AriaButton,
  Checkbox as AriaCheckbox,
  ComboBox as AriaComboBox,
  FieldError,
  Group,
  Input,
  Label,
  ListBox,
  ListBoxItem,
  NumberField as AriaNumberField,
  Popover,
  Radio as AriaRadio,
  RadioGroup as AriaRadioGroup,
  Switch as AriaSwitch,
  Text,
  TextArea,
  TextField as AriaTextField,
} from 'react-aria-components';

/*
 * Form fields: a label over the control, a hint and the error under it, tied to the control for
 * screen readers (React Aria wires aria-describedby and aria-invalid). Errors are the server's or
 * the form's messages, passed as `error`; they are announced when they appear.
 */

function ErrorText({ error }: { error?: string | null }) {
  return (
    <FieldError className="field-error">
      <span role="alert">{error}</span>
    </FieldError>
  );
}

function Hint({ hint }: { hint?: ReactNode }) {
  return hint ? (
    <Text slot="description" className="field-hint">
      {hint}
    </Text>
  ) : null;
}

/** What a text input and a text area share: the field's state, its label, hint and error. */
interface TextFrameProps {
  label: string;
  error?: string | null;
  hint?: ReactNode;
  value: string | undefined;
  required?: boolean;
  disabled?: boolean;
  readOnly?: boolean;
  children: ReactNode;
}

function TextFrame({ label, error, hint, value, required, disabled, readOnly, children }: TextFrameProps) {
  return (
    <AriaTextField
      className="field"
      value={value}
      isInvalid={!!error}
      isRequired={required}
      isDisabled={disabled}
      isReadOnly={readOnly}
      validationBehavior="aria"
    >
      <Label className="field-label">{label}</Label>
      {children}
      <Hint hint={hint} />
      <ErrorText error={error} />
    </AriaTextField>
  );
}

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'aria-invalid' | 'aria-describedby' | 'className'>;

/**
 * A text input. Takes the input's own props (value, onChange(event), type, autoComplete, …) so a
 * plain <input> moves to it unchanged.
 */
export function TextField({
  label,
  error,
  hint,
  ref,
  value,
  required,
  disabled,
  readOnly,
  ...input
}: InputProps & { label: string; error?: string | null; hint?: ReactNode; ref?: Ref<HTMLInputElement> }) {
  const text = typeof value === 'string' ? value : value === undefined ? undefined : String(value);
  return (
    <TextFrame {...{ label, error, hint, required, disabled, readOnly }} value={text}>
      <Input ref={ref} className="field-input" {...input} />
    </TextFrame>
  );
}

type TextAreaProps = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id' | 'aria-invalid' | 'aria-describedby' | 'className'>;

/** Like TextField, for longer texts. */
export function TextAreaField({
  label,
  error,
  hint,
  ref,
  value,
  required,
  disabled,
  readOnly,
  ...textarea
}: TextAreaProps & { label: string; error?: string | null; hint?: ReactNode; ref?: Ref<HTMLTextAreaElement> }) {
  return (
    <TextFrame {...{ label, error, hint, required, disabled, readOnly }} value={typeof value === 'string' ? value : undefined}>
      <TextArea ref={ref} className="field-input" {...textarea} />
    </TextFrame>
  );
}

type SelectProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id' | 'className'>;

/**
 * A choice among a few options: the browser's own <select> (on phones, the system picker), with
 * the kit's label, hint and error. For long lists to search in, use ComboBox.
 */
export function SelectField({
  label,
  options,
  error,
  hint,
  ...select
}: SelectProps & { label: string; options: readonly { value: string; label: string }[]; error?: string | null; hint?: ReactNode }) {
  const id = useId();
  const describedBy = [error && `${id}-error`, hint && `${id}-hint`].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <select id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...select}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {hint && (
        <p id={`${id}-hint`} className="field-hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/** A searchable choice (type to filter, arrows to move, Enter to pick). */
export function ComboBox({
  label,
  options,
  selectedKey,
  onSelectionChange,
  error,
  hint,
  placeholder,
  isDisabled,
}: {
  label: string;
  options: readonly { value: string; label: string }[];
  selectedKey: string | null;
  onSelectionChange: (value: string | null) => void;
  error?: string | null;
  hint?: ReactNode;
  placeholder?: string;
  isDisabled?: boolean;
}) {
  return (
    <AriaComboBox
      className="field"
      selectedKey={selectedKey}
      onSelectionChange={(key) => onSelectionChange(key === null ? null : String(key))}
      isInvalid={!!error}
      isDisabled={isDisabled}
      validationBehavior="aria"
      defaultItems={options.map((o) => ({ id: o.value, name: o.label }))}
    >
      <Label className="field-label">{label}</Label>
      <div className="number-field-group">
        <Input className="field-input" placeholder={placeholder} />
        <AriaButton className="icon-button">
          <ChevronDown aria-hidden="true" />
        </AriaButton>
      </div>
      <Hint hint={hint} />
      <ErrorText error={error} />
      <Popover className="popover" offset={4}>
        <ListBox className="listbox">
          {(item: { id: string; name: string }) => (
            <ListBoxItem className="listbox-item" textValue={item.name}>
              {item.name}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </AriaComboBox>
  );
}

/** A number with − and + steppers (arrow keys too), formatted in the user's language. */
export function NumberField({
  label,
  value,
  onChange,
  minValue,
  maxValue,
  step,
  error,
  hint,
  isDisabled,
  formatOptions,
}: {
  label: string;
  value: number | null;
  onChange: (value: number | null) => void;
  minValue?: number;
  maxValue?: number;
  step?: number;
  error?: string | null;
  hint?: ReactNode;
  isDisabled?: boolean;
  formatOptions?: Intl.NumberFormatOptions;
}) {
  return (
    <AriaNumberField
      className="field"
      value={value ?? Number.NaN}
      onChange={(v) => onChange(Number.isNaN(v) ? null : v)}
      minValue={minValue}
      maxValue={maxValue}
      step={step}
      isInvalid={!!error}
      isDisabled={isDisabled}
      formatOptions={formatOptions}
      validationBehavior="aria"
    >
      <Label className="field-label">{label}</Label>
      <Group className="number-field-group">
        <Input className="field-input" />
        <AriaButton slot="decrement" className="icon-button">
          <Minus aria-hidden="true" />
        </AriaButton>
        <AriaButton slot="increment" className="icon-button">
          <Plus aria-hidden="true" />
        </AriaButton>
      </Group>
      <Hint hint={hint} />
      <ErrorText error={error} />
    </AriaNumberField>
  );
}

/** A yes/no option (React Aria over a real checkbox input). */
export function Checkbox({
  label,
  checked,
  onChange,
  disabled,
  name,
  value,
}: {
  label: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
  name?: string;
  value?: string;
}) {
  return (
    <AriaCheckbox className="checkbox" isSelected={checked} onChange={onChange} isDisabled={disabled} name={name} value={value}>
      {({ isSelected }) => (
        <>
          <span className="checkbox-box" aria-hidden="true">
            {isSelected && <Check />}
          </span>
          <span>{label}</span>
        </>
      )}
    </AriaCheckbox>
  );
}

/** Same as Checkbox (the name the settings screens already used). */
export const CheckboxField = Checkbox;

/** An on/off setting that applies at once (a role="switch"). */
export function Switch({ label, checked, onChange, disabled }: { label: ReactNode; checked: boolean; onChange: (on: boolean) => void; disabled?: boolean }) {
  return (
    <AriaSwitch className="switch" isSelected={checked} onChange={onChange} isDisabled={disabled}>
      <span className="switch-track" aria-hidden="true" />
      <span>{label}</span>
    </AriaSwitch>
  );
}

/** One choice among a few, all visible. */
export function RadioGroup({
  label,
  value,
  onChange,
  options,
  error,
  isDisabled,
  orientation = 'vertical',
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: readonly { value: string; label: ReactNode }[];
  error?: string | null;
  isDisabled?: boolean;
  orientation?: 'vertical' | 'horizontal';
}) {
  return (
    <AriaRadioGroup
      className="choice-group"
      value={value}
      onChange={onChange}
      isInvalid={!!error}
      isDisabled={isDisabled}
      orientation={orientation}
      validationBehavior="aria"
    >
      <Label className="choice-group-label">{label}</Label>
      <div className={orientation === 'horizontal' ? 'choice-options choice-options-horizontal' : 'choice-options'}>
        {options.map((o) => (
          <AriaRadio key={o.value} value={o.value} className="radio">
            <span className="radio-dot" aria-hidden="true" />
            <span>{o.label}</span>
          </AriaRadio>
        ))}
      </div>
      <ErrorText error={error} />
    </AriaRadioGroup>
  );
}
