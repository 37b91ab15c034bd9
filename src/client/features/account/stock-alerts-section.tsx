import { useId, useState } from 'react';
import { Link, useRevalidator } from 'react-router';
import type { StockAlert } from '../../../shared/api';
import { formatDateTime } from '../../../shared/dates';
import { pages } from '../../../shared/pages';
import { fillPath } from '../../../shared/paths';
import { Alert } from '../../components/alert';
import { call, messageOf } from '../../lib/api';
import type { Notice } from '../../lib/session';
import { useFormat } from '../../lib/shop';

/**
 * 'Back-in-stock alerts' (docs/product.md §27): the sizes the rider waits for, each with its product, since when, and
 * 'Cancel'. An alert ends by itself with its e-mail when the size is back.
 */
export function StockAlertsSection({ alerts }: { alerts: StockAlert[] }) {
  const format = useFormat();
  const titleId = useId();
  const revalidator = useRevalidator();
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<Notice | null>(null);

  async function cancel(alert: StockAlert) {
    if (busy) return;
    setBusy(true);
    try {
      await call('cancelStockAlert', { params: { id: alert.id } });
      setMessage({ kind: 'status', text: `Cancelled: ${alert.product}, size ${alert.size}.` });
    } catch (error) {
      setMessage({ kind: 'alert', text: messageOf(error) });
    }
    await revalidator.revalidate();
    setBusy(false);
  }

  return (
    <section className="card stock-alerts" aria-labelledby={titleId}>
      <h2 id={titleId}>Back-in-stock alerts</h2>
      {message && <Alert kind={message.kind}>{message.text}</Alert>}
      {alerts.length === 0 ? (
        <p>None. A size sold out offers 'Email me when it is back'.</p>
      ) : (
        <ul className="session-list" aria-labelledby={titleId}>
          {alerts.map((alert) => (
            <li key={alert.id} className="session">
              <div className="session-facts">
                <p className="session-name">
                  <Link to={fillPath(pages.product.path, { slug: alert.slug })}>{alert.product}</Link>, size{' '}
                  {alert.size}
                </p>
                <p>
                  Since <time dateTime={alert.since}>{formatDateTime(alert.since, format.locale)}</time>
                </p>
              </div>
              <button type="button" className="button button-quiet" disabled={busy} onClick={() => cancel(alert)}>
                Cancel
                <span className="visually-hidden">
                  {' '}
                  the alert for {alert.product}, size {alert.size}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
