import { useState } from 'react';
import { Alert } from '../components/alert';
import { ApiError, call, messageOf } from '../lib/api';
import { type Notice, refreshSession, useSession } from '../lib/session';

/**
 * On every page while the rider's address is not confirmed (docs/product.md §15): where the link went, and 'Send it
 * again'. It goes away by itself once the link is opened, in this tab or any other (the session's `account` event).
 */
export function ConfirmBanner() {
  const { user } = useSession();
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<Notice | null>(null);
  if (!user || user.emailConfirmed) return null;
  const { email } = user;

  async function sendAgain() {
    setBusy(true);
    setMessage(null);
    try {
      await call('resendConfirmation');
      setMessage({ kind: 'status', text: `We have sent a new link to ${email}.` });
    } catch (error) {
      // Confirmed meanwhile (in another browser): the banner goes as the session says so.
      if (error instanceof ApiError && error.code === 'auth/email-already-confirmed') await refreshSession();
      else setMessage({ kind: 'alert', text: messageOf(error) });
    }
    setBusy(false);
  }

  return (
    <section className="confirm-banner" aria-label="E-mail address to confirm">
      <p>Please confirm your e-mail address: we sent a link to {email}.</p>
      <button type="button" className="button button-quiet" onClick={sendAgain} disabled={busy}>
        Send it again
      </button>
      {message && <Alert kind={message.kind}>{message.text}</Alert>}
    </section>
  );
}
