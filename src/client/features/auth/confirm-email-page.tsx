import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { pages } from '../../../shared/pages';
import { Alert } from '../../components/alert';
import { DocumentTitle } from '../../components/document-title';
import { call, messageOf } from '../../lib/api';
import { refreshSession, useSession } from '../../lib/session';

type Outcome = { confirmed: string } | { failure: string };

/**
 * Each link is opened once per page load, however often React runs the effect: a second use of the token would find
 * it spent.
 */
const opened = new Map<string, Promise<Outcome>>();

function open(token: string): Promise<Outcome> {
  let outcome = opened.get(token);
  if (!outcome) {
    outcome = call('confirmEmail', { body: { token } }).then(
      async ({ email }) => {
        // This tab's banner goes at once; other tabs hear of it through their live stream.
        await refreshSession();
        return { confirmed: email };
      },
      (error: unknown) => ({ failure: messageOf(error) }),
    );
    opened.set(token, outcome);
  }
  return outcome;
}

/** The page the e-mailed link opens (docs/product.md §15): it confirms the address, in any browser. */
export default function ConfirmEmailPage() {
  const navigate = useNavigate();
  const { pathname, hash } = useLocation();
  const { user } = useSession();
  // The link carries its token in the fragment, which never reaches a server, a proxy's log or a Referer.
  const [token] = useState(() => new URLSearchParams(hash.slice(1)).get('token'));
  const [outcome, setOutcome] = useState<Outcome | null>(
    token ? null : { failure: 'This page needs the link from the e-mail we sent you.' },
  );

  useEffect(() => {
    if (!token) return;
    let current = true;
    void open(token).then((result) => {
      if (!current) return;
      setOutcome(result);
      // The spent token leaves the address bar and the history.
      navigate(pathname, { replace: true });
    });
    return () => {
      current = false;
    };
  }, [token, navigate, pathname]);

  return (
    <section className="page auth-page" aria-labelledby="confirm-title">
      <DocumentTitle page={pages.confirmEmail.title} />
      <h1 id="confirm-title">Confirm your e-mail address</h1>
      {outcome === null && <p role="status">Confirming your address…</p>}
      {outcome && 'confirmed' in outcome && (
        <Alert kind="status">Thank you: your e-mail address {outcome.confirmed} is confirmed.</Alert>
      )}
      {outcome && 'failure' in outcome && <Alert kind="alert">{outcome.failure}</Alert>}
      {outcome && (
        <p>
          {user ? (
            <Link className="button" to={pages.home.path}>
              Continue Shopping
            </Link>
          ) : (
            <Link className="button" to={pages.signupLogin.path} state={{ form: 'login' }}>
              Log in
            </Link>
          )}
        </p>
      )}
      {outcome && 'failure' in outcome && !user && <p>Log in to ask for a new link.</p>}
    </section>
  );
}
