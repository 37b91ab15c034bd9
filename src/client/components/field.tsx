import { type ChangeEvent, type ReactNode, useId } from 'react';

interface FieldProps {
  label: string;
  name: string;
  type?: 'email' | 'password' | 'text' | 'tel';
  autoComplete: string;
  value: string;
  error: string | undefined;
  hint?: string;
  onChange(event: ChangeEvent<HTMLInputElement | HTMLSelectElement>): void;
  onBlur(): void;
  /** A list to choose from instead of a text box: [value, text] pairs. */
  options?: ReadonlyArray<readonly [value: string, text: string]>;
}

/** A labelled input (or list) whose hint and first error are tied to it for assistive technology. */
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
  options,
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
  } else {
    const verbatim = type === 'email' || type === 'password';
    control = (
      <input
        {...shared}
        type={type}
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
        <p id={errorId} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}
