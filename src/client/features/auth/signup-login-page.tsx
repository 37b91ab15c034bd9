import { useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { notices } from '../../../shared/notices';
import { nextParam, pages } from '../../../shared/pages';
import { Alert } from '../../components/alert';
import { DocumentTitle } from '../../components/document-title';
import { useSession } from '../../lib/session';
import { useShop } from '../../lib/shop';
import { type AuthMode, CredentialsForm } from './credentials-form';

export default function SignupLoginPage() {
  // The sign-up form shows first, unless the page before asked for the log-in form (after a password reset).
  const asked = (useLocation().state as { form?: AuthMode } | null)?.form;
  const [mode, setMode] = useState<AuthMode>(asked === 'login' ? 'login' : 'signup');
  const { notice } = useSession();
  // A visitor on the way to checkout (docs/product.md §23) comes back to it once signed in.
  const next = useSearchParams()[0].get(nextParam);
  const { shop } = useShop();

  return (
    <section className="page auth-page" aria-labelledby="auth-title">
      <DocumentTitle page={pages.signupLogin.title} />
      <h1 id="auth-title">Welcome to {shop.name}</h1>
      {notice && <Alert kind={notice.kind}>{notice.text}</Alert>}
      {next === pages.checkout.path && <Alert kind="status">{notices.checkOutSignedIn}</Alert>}
      <fieldset className="toggle">
        <legend className="visually-hidden">Choose a form</legend>
        <button type="button" aria-pressed={mode === 'login'} onClick={() => setMode('login')}>
          Log in
        </button>
        <button type="button" aria-pressed={mode === 'signup'} onClick={() => setMode('signup')}>
          Sign up
        </button>
      </fieldset>
      <CredentialsForm key={mode} mode={mode} next={next} />
    </section>
  );
}
