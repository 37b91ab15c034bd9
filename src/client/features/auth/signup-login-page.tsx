import { useState } from 'react';
import { useLocation } from 'react-router';
import { brand } from '../../../shared/brand';
import { pages, pageTitle } from '../../../shared/pages';
import { Alert } from '../../components/alert';
import { useSession } from '../../lib/session';
import { type AuthMode, CredentialsForm } from './credentials-form';

export default function SignupLoginPage() {
  // The sign-up form shows first, unless the page before asked for the log-in form (after a password reset).
  const asked = (useLocation().state as { form?: AuthMode } | null)?.form;
  const [mode, setMode] = useState<AuthMode>(asked === 'login' ? 'login' : 'signup');
  const { notice } = useSession();

  return (
    <section className="page auth-page" aria-labelledby="auth-title">
      <title>{pageTitle(pages.signupLogin.title)}</title>
      <h1 id="auth-title">Welcome to {brand.title}</h1>
      {notice && <Alert kind={notice.kind}>{notice.text}</Alert>}
      <fieldset className="toggle">
        <legend className="visually-hidden">Choose a form</legend>
        <button type="button" aria-pressed={mode === 'login'} onClick={() => setMode('login')}>
          Log in
        </button>
        <button type="button" aria-pressed={mode === 'signup'} onClick={() => setMode('signup')}>
          Sign up
        </button>
      </fieldset>
      <CredentialsForm key={mode} mode={mode} />
    </section>
  );
}
