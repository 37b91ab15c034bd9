import { type ChangeEvent, useId } from 'react';

interface FieldProps {
  label: string;
  name: string;
  type: 'email' | 'password';
  autoComplete: string;
  value: string;
  error: string | undefined;
  hint?: string;
  onChange(event: ChangeEvent<HTMLInputElement>): void;
  onBlur(): void;
}

/** A labelled input whose hint and first error are tied to it for assistive technology. */
export function Field({ label, name, type, autoComplete, value, error, hint, onChange, onBlur }: FieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {hint && (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      )}
      <input
        id={id}
        name={name}
        type={type}
        autoComplete={autoComplete}
        value={value}
        onChange={onChange}
        onBlur={onBlur}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        spellCheck={false}
        autoCapitalize="none"
      />
      {error && (
        <p id={errorId} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}
