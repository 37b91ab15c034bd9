import { type FormEvent, useId, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { pages } from '../../../shared/pages';
import { credentialsSchema, hints } from '../../../shared/validation';
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

export function CredentialsForm({ mode }: { mode: AuthMode }) {
  const titleId = useId();
  const navigate = useNavigate();
  const form = useForm(credentialsSchema, { email: '', password: '' });
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!form.isValid || busy) return;
    setBusy(true);
    setFailure(null);
    try {
      const { user, role } = await call(endpointOf[mode], { body: form.values });
      signedIn(user, role);
      navigate(pages.home.path);
    } catch (error) {
      // A failed sign-in leaves nobody signed in, here or on the server.
      await endSession();
      setFailure(messageOf(error));
      setBusy(false);
    }
  }

  const text = copy[mode];
  return (
    <form className="card form" aria-labelledby={titleId} onSubmit={submit} noValidate>
      <h2 id={titleId}>{text.title}</h2>
      <p>{text.intro}</p>
      {failure && <Alert kind="alert">{failure}</Alert>}
      <Field
        label="E-mail"
        type="email"
        autoComplete={mode === 'signup' ? 'email' : 'username'}
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
  );
}
