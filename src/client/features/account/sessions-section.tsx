import { useId, useState } from 'react';
import { useRevalidator } from 'react-router';
import type { AccountSession } from '../../../shared/api';
import { formatDateTime, formatLastUse } from '../../../shared/dates';
import { lastUseStepMinutes } from '../../../shared/limits';
import { deviceName } from '../../../shared/user-agent';
import { Alert } from '../../components/alert';
import { call, messageOf } from '../../lib/api';
import { type Notice, signedOut } from '../../lib/session';
import { useFormat } from '../../lib/shop';

/** The list's whole state: the sessions it shows come from the page's loader, refreshed after each ending. */
interface SessionsSectionProps {
  sessions: AccountSession[];
}

const otherDevices = (count: number) => (count === 1 ? '1 other device' : `${count} other devices`);

/**
 * 'Where you are logged in' (docs/product.md §4): every session of the rider, this device first, each with a button
 * that logs it out, and 'Log out of all other devices'. Logging this device out here is a log-out like the header's.
 */
export function SessionsSection({ sessions }: SessionsSectionProps) {
  const format = useFormat();
  const titleId = useId();
  const revalidator = useRevalidator();
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<Notice | null>(null);
  const others = sessions.filter((session) => !session.current).length;

  /** Ends sessions by `end`, then shows what happened and the list as it now is. */
  async function ending(end: () => Promise<Notice | null>) {
    if (busy) return;
    setBusy(true);
    setMessage(null);
    let notice: Notice | null;
    try {
      notice = await end();
    } catch (error) {
      notice = { kind: 'alert', text: messageOf(error) };
    }
    if (!notice) return;
    setMessage(notice);
    await revalidator.revalidate();
    setBusy(false);
  }

  function endOne(session: AccountSession) {
    return ending(async () => {
      await call('endAccountSession', { params: { id: session.id } });
      if (!session.current) return { kind: 'status', text: `Logged out of ${deviceName(session.userAgent)}.` };
      signedOut();
      return null;
    });
  }

  function endOthers() {
    return ending(async () => {
      const { ended } = await call('endOtherSessions');
      return { kind: 'status', text: `Logged out of ${otherDevices(ended)}.` };
    });
  }

  return (
    <section className="card sessions" aria-labelledby={titleId}>
      <h2 id={titleId}>Where you are logged in</h2>
      {message && <Alert kind={message.kind}>{message.text}</Alert>}
      <ul className="session-list" aria-labelledby={titleId}>
        {sessions.map((session) => {
          const name = deviceName(session.userAgent);
          const address = session.address || 'an unknown address';
          return (
            <li key={session.id} className="session">
              <div className="session-facts">
                <p className="session-name">
                  {name}
                  {session.current && (
                    <>
                      {' '}
                      <span className="session-this">This device</span>
                    </>
                  )}
                </p>
                <p>From {address}</p>
                <p>
                  {session.current ? (
                    'In use now'
                  ) : (
                    <>
                      Last used{' '}
                      <time dateTime={session.lastUsedAt} title={formatDateTime(session.lastUsedAt, format.locale)}>
                        {formatLastUse(session.lastUsedAt, lastUseStepMinutes, format.locale)}
                      </time>
                    </>
                  )}
                </p>
              </div>
              <button type="button" className="button button-quiet" disabled={busy} onClick={() => endOne(session)}>
                Log out
                <span className="visually-hidden">
                  {session.current ? ` this device, ${name}` : ` ${name} from ${address}`}
                </span>
              </button>
            </li>
          );
        })}
      </ul>
      {others > 0 && (
        <button type="button" className="button" disabled={busy} onClick={endOthers}>
          Log out of all other devices
        </button>
      )}
    </section>
  );
}
