import { type FormEvent, useId, useState } from 'react';
import type { z } from 'zod';
import { Field } from '../../components/field';
import { messageOf } from '../../lib/api';
import { endSession, useSession } from '../../lib/session';
import { useForm } from '../../lib/use-form';

interface ChangeFormProps {
  title: string;
  field: 'email' | 'password';
  label: string;
  type: 'email' | 'password';
  autoComplete: string;
  hint: string;
  /** The form's rules (useForm loads them with the first focus or key). */
  schema: () => Promise<z.ZodType>;
  submit: string;
  successNotice: string;
  save(value: string): Promise<void>;
}

/** One setting to change; afterwards the user is logged out, whether the change worked or not. */
export function ChangeForm(props: ChangeFormProps) {
  const titleId = useId();
  const { user } = useSession();
  const form = useForm(props.schema, { [props.field]: '' } as Record<'email' | 'password', string>);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!form.isValid || busy) return;
    setBusy(true);
    let failure: string | null = null;
    try {
      await props.save(form.values[props.field]);
    } catch (error) {
      failure = messageOf(error);
    }
    await endSession(failure ? { kind: 'alert', text: failure } : { kind: 'status', text: props.successNotice });
  }

  return (
    <form className="card form" aria-labelledby={titleId} onSubmit={submit} noValidate>
      <h2 id={titleId}>{props.title}</h2>
      {props.field === 'password' && (
        // Lets password managers file the new password under the right account.
        <input type="text" name="username" autoComplete="username" value={user?.email ?? ''} readOnly hidden />
      )}
      <Field
        label={props.label}
        type={props.type}
        autoComplete={props.autoComplete}
        hint={props.hint}
        {...form.field(props.field)}
      />
      <button type="submit" className="button" disabled={!form.isValid || busy}>
        {props.submit}
      </button>
    </form>
  );
}
