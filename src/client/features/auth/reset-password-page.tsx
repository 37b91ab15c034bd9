import { type FormEvent, useEffect, useId, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { accountNotices } from '../../../shared/account-notices';
import { hints } from '../../../shared/hints';
import { pages } from '../../../shared/pages';
import { Alert } from '../../components/alert';
import { DocumentTitle } from '../../components/document-title';
import { Field } from '../../components/field';
import { ApiError, call, messageOf } from '../../lib/api';
import { endSession } from '../../lib/session';
import { useForm } from '../../lib/use-form';

const rules = () => import('../../../shared/validation');

/** Asks for a link by e-mail; the answer is the same whether or not the address has an account. */
function RequestLinkForm({ title }: { title: string }) {
  const titleId = useId();
  const form = useForm(async () => (await rules()).resetRequestSchema, { email: '' });
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ kind: 'status' | 'alert'; text: string } | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!form.isValid || busy) return;
    setBusy(true);
    setMessage(null);
    try {
      await call('requestPasswordReset', { body: form.values });
      setMessage({ kind: 'status', text: accountNotices.resetRequested });
    } catch (error) {
      setMessage({ kind: 'alert', text: messageOf(error) });
    }
    setBusy(false);
  }

  return (
    <form className="card form" aria-labelledby={titleId} onSubmit={submit} noValidate>
      <h2 id={titleId}>{title}</h2>
      <p>
        Enter the e-mail address of your account. We send a link to choose a new password; it works once, for one hour.
      </p>
      {message && <Alert kind={message.kind}>{message.text}</Alert>}
      <Field label="E-mail" type="email" autoComplete="email" hint={hints.email} {...form.field('email')} />
      <button type="submit" className="button" disabled={!form.isValid || busy}>
        Send link
      </button>
    </form>
  );
}

/** Sets a new password through the link's token, once the link is known to be good. */
function NewPasswordForm({ token }: { token: string }) {
  const navigate = useNavigate();
  const form = useForm(async () => (await rules()).newPasswordSchema, { password: '' });
  const [link, setLink] = useState<'checking' | 'good' | { failure: string }>('checking');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    call('checkResetLink', { body: { token } }).then(
      () => setLink('good'),
      (error) => setLink({ failure: messageOf(error) }),
    );
  }, [token]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!form.isValid || busy) return;
    setBusy(true);
    setFailure(null);
    try {
      await call('resetPassword', { body: { token, password: form.values.password } });
      // Every session and passkey of the account has ended; this browser forgets its user too, and the rider logs in.
      await endSession({ kind: 'status', text: accountNotices.passwordReset });
      // In place of the link, so that the spent token leaves the address bar and the history.
      navigate(pages.signupLogin.path, { state: { form: 'login' }, replace: true });
    } catch (error) {
      if (error instanceof ApiError && error.code.startsWith('auth/reset-link-')) setLink({ failure: error.message });
      else setFailure(messageOf(error));
      setBusy(false);
    }
  }

  if (link === 'checking') return <p role="status">Checking your link…</p>;
  if (link !== 'good') {
    return (
      <>
        <Alert kind="alert">{link.failure}</Alert>
        <RequestLinkForm title="Send a new link" />
      </>
    );
  }
  return (
    <form className="card form" aria-labelledby="new-password-title" onSubmit={submit} noValidate>
      <h2 id="new-password-title">Choose a new password</h2>
      <p>A new password logs out every device and removes every passkey of your account.</p>
      {failure && <Alert kind="alert">{failure}</Alert>}
      <Field
        label="New password"
        type="password"
        autoComplete="new-password"
        hint={hints.password}
        {...form.field('password')}
      />
      <button type="submit" className="button" disabled={!form.isValid || busy}>
        Set new password
      </button>
    </form>
  );
}

export default function ResetPasswordPage() {
  // The link carries its token in the fragment, which never reaches a server or a proxy's log.
  const token = new URLSearchParams(useLocation().hash.slice(1)).get('token');
  return (
    <section className="page auth-page" aria-labelledby="reset-title">
      <DocumentTitle page={pages.resetPassword.title} />
      <h1 id="reset-title">Reset your password</h1>
      {token ? <NewPasswordForm key={token} token={token} /> : <RequestLinkForm title="Forgot your password?" />}
    </section>
  );
}
