import { type FormEvent, useEffect, useState } from 'react';
import { formatDate } from '../../../shared/dates';
import { hints } from '../../../shared/hints';
import type { Passkey } from '../../../shared/passkeys';
import { passkeyNameFormSchema } from '../../../shared/validation';
import { Alert } from '../../components/alert';
import { Field } from '../../components/field';
import { ApiError, call, messageOf } from '../../lib/api';
import { useSession } from '../../lib/session';
import { useFormat } from '../../lib/shop';
import { useForm } from '../../lib/use-form';

const needsRecentLogin =
  'Adding a passkey needs a log-in in the last 5 minutes. Please log out, log in again, then add it.';

/** What to tell the rider about a failed change: adding a passkey after a log-in too old says what to do. */
function failureOf(error: unknown): string {
  if (error instanceof ApiError && error.code === 'auth/requires-recent-login') return needsRecentLogin;
  return messageOf(error);
}

/** The rider's passkeys (docs/product.md §15): each listed with when it was added, removable; and a form to add one. */
export function PasskeysSection() {
  const format = useFormat();
  const { user } = useSession();
  const [passkeys, setPasskeys] = useState<Passkey[] | null>(null);
  const [message, setMessage] = useState<{ kind: 'status' | 'alert'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const form = useForm(async () => passkeyNameFormSchema, { name: '' });

  useEffect(() => {
    let shown = true;
    call('passkeys')
      .then((reply) => shown && setPasskeys(reply.passkeys))
      .catch((error) => shown && setMessage({ kind: 'alert', text: messageOf(error) }));
    return () => {
      shown = false;
    };
  }, []);

  /** A change, and what to say once it is made (nothing when it was cancelled). */
  async function change(work: () => Promise<string | undefined>) {
    setBusy(true);
    setMessage(null);
    try {
      const done = await work();
      if (done) setMessage({ kind: 'status', text: done });
    } catch (error) {
      setMessage({ kind: 'alert', text: failureOf(error) });
    }
    setBusy(false);
  }

  function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!form.isValid || busy) return;
    void change(async () => {
      // Loaded when a passkey is added, not with the page (src/client/lib/passkeys.ts).
      const { addPasskey } = await import('../../lib/passkeys');
      const passkey = await addPasskey(passkeyNameFormSchema.parse(form.values).name);
      if (!passkey) return undefined;
      setPasskeys((current) => [...(current ?? []), passkey]);
      return `The passkey ${passkey.name} has been added.`;
    });
  }

  function remove(passkey: Passkey) {
    void change(async () => {
      await call('removePasskey', { params: { id: passkey.id } });
      setPasskeys((current) => (current ?? []).filter((p) => p.id !== passkey.id));
      return `The passkey ${passkey.name} has been removed.`;
    });
  }

  return (
    <section className="card form" aria-labelledby="passkeys-title">
      <h2 id="passkeys-title">Passkeys</h2>
      <p>
        A passkey logs you in with this device's screen lock (your fingerprint, face or PIN) instead of your password.
        Adding one needs a confirmed e-mail address and a log-in in the last 5 minutes.
      </p>
      {message && <Alert kind={message.kind}>{message.text}</Alert>}
      {passkeys && passkeys.length === 0 && <p>You have no passkeys yet.</p>}
      {passkeys && passkeys.length > 0 && (
        <ul className="passkey-list" aria-label="Your passkeys">
          {passkeys.map((passkey) => (
            <li key={passkey.id}>
              <span>
                <strong>{passkey.name}</strong>, added {formatDate(passkey.createdAt, format.locale)}
              </span>
              <button type="button" className="button button-quiet" disabled={busy} onClick={() => remove(passkey)}>
                Remove<span className="visually-hidden"> {passkey.name}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {/* Until the address is confirmed the server refuses a passkey: the section says why instead (§15). It appears
          as soon as the link is opened, in this tab or another (the session's `account` event). */}
      {user?.emailConfirmed ? (
        <form className="form" aria-labelledby="add-passkey-title" onSubmit={add} noValidate>
          <h3 id="add-passkey-title">Add a passkey</h3>
          <Field label="Passkey name" autoComplete="off" hint={hints.passkeyName} {...form.field('name')} />
          <button type="submit" className="button" disabled={!form.isValid || busy}>
            Add a passkey
          </button>
        </form>
      ) : (
        <p>You can add a passkey once your e-mail address is confirmed: open the link we sent to {user?.email}.</p>
      )}
    </section>
  );
}
