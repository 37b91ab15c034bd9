import { type ChangeEvent, useCallback, useRef, useState } from 'react';
import type { z } from 'zod';

type Values<F extends string> = Record<F, string>;
type Check = (values: unknown) => Record<string, string>;

/**
 * Form state validated by a shared schema; a field shows its error once typed in or left, and says it aloud. The rules (the schema and
 * zod) load when a field is first focused or typed in, not with the page (ADR 0028): until then nothing has been typed,
 * and the form cannot be sent.
 */
export function useForm<F extends string>(loadSchema: () => Promise<z.ZodType>, initial: Values<F>) {
  const [values, setValues] = useState(initial);
  const [touched, setTouched] = useState<Partial<Record<F, boolean>>>({});
  const [check, setCheck] = useState<Check | null>(null);
  const loading = useRef(false);
  const errors = check ? check(values) : {};
  const isValid = check !== null && Object.keys(errors).length === 0;

  function loadRules() {
    if (loading.current) return;
    loading.current = true;
    Promise.all([loadSchema(), import('../../shared/validation')])
      .then(([schema, { fieldErrors }]) => setCheck(() => (given: unknown) => fieldErrors(schema, given)))
      .catch(() => {
        // Out of reach for now: the next focus or key tries again.
        loading.current = false;
      });
  }

  function field(name: F) {
    return {
      name,
      value: values[name],
      error: touched[name] ? errors[name] : undefined,
      // Errors come and go as the rider types: each is said aloud as it appears (role="alert").
      announceError: true,
      onFocus: loadRules,
      onChange: (event: ChangeEvent<HTMLInputElement | HTMLSelectElement>) => {
        const { value } = event.target;
        loadRules();
        setValues((current) => ({ ...current, [name]: value }));
        setTouched((current) => ({ ...current, [name]: true }));
      },
      onBlur: () => setTouched((current) => ({ ...current, [name]: true })),
    };
  }

  /** A value the page sets itself (a choice made elsewhere on it, a field that no longer fits another's new value). */
  const set = useCallback((name: F, value: string) => {
    setValues((current) => (current[name] === value ? current : { ...current, [name]: value }));
  }, []);

  return { values, isValid, field, set };
}
