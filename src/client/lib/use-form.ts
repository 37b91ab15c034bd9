import { type ChangeEvent, useState } from 'react';
import type { z } from 'zod';
import { fieldErrors } from '../../shared/validation';

type Values<F extends string> = Record<F, string>;

/** Form state validated by a shared schema; a field shows its error once typed in or left. */
export function useForm<F extends string>(schema: z.ZodType, initial: Values<F>) {
  const [values, setValues] = useState(initial);
  const [touched, setTouched] = useState<Partial<Record<F, boolean>>>({});
  const errors = fieldErrors(schema, values);
  const isValid = Object.keys(errors).length === 0;

  function field(name: F) {
    return {
      name,
      value: values[name],
      error: touched[name] ? errors[name] : undefined,
      onChange: (event: ChangeEvent<HTMLInputElement | HTMLSelectElement>) => {
        const { value } = event.target;
        setValues((current) => ({ ...current, [name]: value }));
        setTouched((current) => ({ ...current, [name]: true }));
      },
      onBlur: () => setTouched((current) => ({ ...current, [name]: true })),
    };
  }

  return { values, isValid, field };
}
