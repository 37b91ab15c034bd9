import { type FormEvent, useState } from 'react';
import { accountNotices } from '../../../shared/account-notices';
import { Alert } from '../../components/alert';
import { ApiError, call, messageOf } from '../../lib/api';
import { signedOut } from '../../lib/session';

export function DeleteAccountForm() {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setFailure(null);
    try {
      await call('deleteAccount');
      signedOut({ kind: 'status', text: accountNotices.accountDeleted });
    } catch (error) {
      if (error instanceof ApiError && error.code === 'auth/requires-recent-login') {
        setFailure(accountNotices.deleteNeedsRecentLogin);
      } else {
        setFailure(messageOf(error));
      }
      setBusy(false);
    }
  }

  return (
    <form className="card form form-danger" aria-labelledby="delete-account-title" onSubmit={submit}>
      <h2 id="delete-account-title">Delete account</h2>
      <p>
        Deleting your account removes your log-in and everything in your cart. Orders you placed stay in the shop's
        records. This cannot be undone.
      </p>
      {failure && <Alert kind="alert">{failure}</Alert>}
      <button type="submit" className="button button-danger" disabled={busy}>
        Delete account
      </button>
    </form>
  );
}
