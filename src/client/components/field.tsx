import { type ChangeEvent, type ReactNode, useId } from 'react';

interface FieldProps {
  label: string;
  name: string;
  type?: 'email' | 'password' | 'text' | 'tel';
  autoComplete: string;
  value: string;
  error: string | undefined;
  hint?: string;
  onChange(event: ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>): void;
  onBlur(): void;
  onFocus?(): void;
  /** A list to choose from instead of a text box: [value, text] pairs. */
  options?: ReadonlyArray<readonly [value: string, text: string]>;
  /** A box of several lines instead of one. */
  multiline?: boolean;
  /** The keyboard a phone shows: digits, or digits and a decimal point. */
  inputMode?: 'numeric' | 'decimal';
  /** Says the error aloud as it appears (role="alert"), for a form whose fields are checked as they are typed in. */
  announceError?: boolean;
}

/** A labelled input (a list, or a box of several lines) whose hint and first error are tied to it for assistive technology. */
export function Field({
  label,
  name,
  type = 'text',
  autoComplete,
  value,
  error,
  hint,
  onChange,
  onBlur,
  onFocus,
  options,
  multiline,
  inputMode,
  announceError,
}: FieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ');
  const shared = {
    id,
    name,
    autoComplete,
    value,
    onChange,
    onBlur,
    onFocus,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy || undefined,
  };
  let control: ReactNode;
  if (options) {
    control = (
      <select {...shared}>
        {options.map(([optionValue, text]) => (
          <option key={optionValue} value={optionValue}>
            {text}
          </option>
        ))}
      </select>
    );
  } else if (multiline) {
    control = <textarea {...shared} rows={5} />;
  } else {
    const verbatim = type === 'email' || type === 'password';
    control = (
      <input
        {...shared}
        type={type}
        inputMode={inputMode}
        spellCheck={verbatim ? false : undefined}
        autoCapitalize={verbatim ? 'none' : undefined}
      />
    );
  }
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {hint && (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      )}
      {control}
      {error && (
        <p id={errorId} className="field-error" role={announceError ? 'alert' : undefined}>
          {error}
        </p>
      )}
    </div>
  );
}
