import { type FormEvent, useEffect, useId, useState } from 'react';
import { Link, type NavigateFunction, useNavigate } from 'react-router';
import type { SessionUser } from '../../../shared/api';
import { hints } from '../../../shared/hints';
import { pageAfterSignIn, pages } from '../../../shared/pages';
import type { Role } from '../../../shared/roles';
import { Alert } from '../../components/alert';
import { Field } from '../../components/field';
import { call, messageOf } from '../../lib/api';
import { endSession, signedIn } from '../../lib/session';
import { useForm } from '../../lib/use-form';

export type AuthMode = 'signup' | 'login';

const copy = {
  signup: { title: 'Sign up', intro: 'New here? Create an account to fill your cart.', submit: 'Sign up' },
  login: { title: 'Log in', intro: 'Welcome back. Log in to see your cart.', submit: 'Log in' },
} as const;

const endpointOf = { signup: 'signUp', login: 'logIn' } as const;

/** Loaded when the log-in form is shown, not with the page (src/client/lib/passkeys.ts). */
const passkeys = () => import('../../lib/passkeys');
const rules = () => import('../../../shared/validation');

type SignedIn = { user: SessionUser; role: Role };

/**
 * Every way in ends here: with a password or a passkey, the rider is signed in and goes home, or to the page `next`
 * names (a visitor's checkout).
 */
function enter(navigate: NavigateFunction, { user, role }: SignedIn, next: string | null) {
  signedIn(user, role);
  navigate(pageAfterSignIn(next));
}

export function CredentialsForm({ mode, next }: { mode: AuthMode; next: string | null }) {
  const titleId = useId();
  const navigate = useNavigate();
  const form = useForm(async () => (await rules()).credentialsSchema, { email: '', password: '' });
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  /** The password's or the passkey's attempt; a failed one leaves nobody signed in, here or on the server. */
  async function attempt(signIn: () => Promise<SignedIn | undefined>) {
    setBusy(true);
    setFailure(null);
    try {
      const answer = await signIn();
      if (answer) return enter(navigate, answer, next);
    } catch (error) {
      await endSession();
      setFailure(messageOf(error));
    }
    setBusy(false);
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!form.isValid || busy) return;
    void attempt(() => call(endpointOf[mode], { body: form.values }));
  }

  // The log-in form offers this site's passkeys in the e-mail field's autofill for as long as it is shown.
  useEffect(() => {
    if (mode !== 'login') return;
    let wanted = true;
    passkeys()
      .then(({ logInWithPasskey }) => logInWithPasskey({ wanted: () => wanted }))
      .then((answer) => {
        if (answer && wanted) enter(navigate, answer, next);
      })
      .catch((error) => {
        if (wanted) setFailure(messageOf(error));
      });
    return () => {
      wanted = false;
      void passkeys().then(({ cancelPasskey }) => cancelPasskey());
    };
  }, [mode, navigate, next]);

  const text = copy[mode];
  return (
    <>
      <form className="card form" aria-labelledby={titleId} onSubmit={submit} noValidate>
        <h2 id={titleId}>{text.title}</h2>
        <p>{text.intro}</p>
        {failure && <Alert kind="alert">{failure}</Alert>}
        <Field
          label="E-mail"
          type="email"
          autoComplete={mode === 'signup' ? 'email' : 'username webauthn'}
          hint={hints.email}
          {...form.field('email')}
        />
        <Field
          label="Password"
          type="password"
          autoComplete={mode === 'signup' ? 'new-password' : 'current-password'}
          hint={hints.password}
          {...form.field('password')}
        />
        <button type="submit" className="button" disabled={!form.isValid || busy}>
          {text.submit}
        </button>
        {mode === 'login' && (
          <p>
            <Link to={pages.resetPassword.path}>Forgot your password?</Link>
          </p>
        )}
      </form>
      {/* Outside the form: another way in, not a way to send the form. */}
      {mode === 'login' && (
        <p className="passkey-login">
          <button
            type="button"
            className="button button-quiet"
            disabled={busy}
            onClick={() => void attempt(async () => (await passkeys()).logInWithPasskey())}
          >
            Log in with a passkey
          </button>
        </p>
      )}
    </>
  );
}
