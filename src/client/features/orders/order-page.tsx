import { useEffect, useState } from 'react';
import {
  Link,
  type LoaderFunctionArgs,
  useLoaderData,
  useLocation,
  useRevalidator,
  useSearchParams,
} from 'react-router';
import { formatDateTime } from '../../../shared/dates';
import { documentFileName, documentPaths } from '../../../shared/invoices';
import { liveStreams } from '../../../shared/live-streams';
import { statusLabels } from '../../../shared/orders';
import { pages } from '../../../shared/pages';
import { fillPath } from '../../../shared/paths';
import { Alert } from '../../components/alert';
import { DocumentTitle } from '../../components/document-title';
import { OrderDetails } from '../../components/order-details';
import { call, loadContract, messageOf } from '../../lib/api';
import { followEvents } from '../../lib/live-events';
import { orNotFound } from '../../lib/not-found';
import { useFormat } from '../../lib/shop';
import { OrderReturns } from './order-returns';

/**
 * The order, if it is the rider's, and its returns; any other number is the Snap! page, as a number that does not
 * exist.
 */
export async function loader({ params }: LoaderFunctionArgs) {
  const number = { number: params.number ?? '' };
  const [{ order }, returns] = await Promise.all([
    orNotFound(call('order', { params: number }), 'order/not-found'),
    orNotFound(call('orderReturns', { params: number }), 'return/order-not-found'),
  ]);
  return { order, returns };
}

const ordersStream = { ...liveStreams.orders, schemas: async () => (await loadContract()).orderEventSchemas };

export default function OrderPage() {
  const format = useFormat();
  const { order, returns } = useLoaderData<typeof loader>();
  const state = useLocation().state as { placed?: boolean; payError?: string; returned?: string } | null;
  const placed = state?.placed === true;
  // Back from Stripe's page: `done` after paying, `cancelled` after leaving it without paying.
  const [search] = useSearchParams();
  const backFromPaying = search.get('payment') === 'done';
  const awaitingCard = order.card !== null && order.status === 'placed';
  const revalidator = useRevalidator();
  const { revalidate } = revalidator;
  const [paying, setPaying] = useState(false);

  // While a card payment is awaited, the page follows the rider's orders: the webhook's confirmation shows at once.
  useEffect(() => {
    if (!awaitingCard) return;
    return followEvents(ordersStream, (event) => {
      if (event.type === 'ready' || (event.type === 'order' && event.number === order.number)) void revalidate();
    });
  }, [awaitingCard, order.number, revalidate]);

  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ kind: 'status' | 'alert'; text: string } | null>(null);

  async function payNow() {
    setPaying(true);
    setMessage(null);
    try {
      const { url } = await call('payOrder', { params: { number: order.number } });
      window.location.assign(url);
    } catch (error) {
      setMessage({ kind: 'alert', text: messageOf(error) });
      setPaying(false);
      await revalidator.revalidate();
    }
  }

  async function cancel() {
    setBusy(true);
    setMessage(null);
    try {
      await call('cancelOrder', { params: { number: order.number } });
      setMessage({ kind: 'status', text: `Your order ${order.number} has been cancelled.` });
    } catch (error) {
      setMessage({
        kind: 'alert',
        text: messageOf(error),
      });
    }
    await revalidator.revalidate();
    setConfirming(false);
    setBusy(false);
  }

  return (
    <section className="page order-page" aria-labelledby="order-title">
      <DocumentTitle page={`Order ${order.number}`} />
      <h1 id="order-title">{placed ? 'Thank you for your order' : `Order ${order.number}`}</h1>
      {placed && (
        <Alert kind="status">
          Your order {order.number} has been placed. We have sent you an e-mail with the details.
        </Alert>
      )}
      {state?.returned && (
        <Alert kind="status">
          Your return {state.returned} has been requested. We have sent you an e-mail with where to send the parcel.
        </Alert>
      )}
      {message && <Alert kind={message.kind}>{message.text}</Alert>}
      {awaitingCard && backFromPaying && <Alert kind="status">Thank you: we are confirming your payment.</Alert>}
      {order.card && order.status === 'paid' && backFromPaying && (
        <Alert kind="status">Thank you: your card payment has arrived.</Alert>
      )}
      {awaitingCard && !backFromPaying && (
        <div className="card form">
          <h2>Awaiting card payment</h2>
          {state?.payError && <Alert kind="alert">{state.payError}</Alert>}
          <p>
            Please pay by {formatDateTime(order.card?.payBy ?? '', format.locale)}; an order not paid by then is
            cancelled and its items go back on the shelf.
          </p>
          <p>
            <button type="button" className="button" disabled={paying} onClick={payNow}>
              Pay now
            </button>
          </p>
        </div>
      )}
      <OrderDetails order={order} />
      {order.invoice && (
        <div className="card">
          <h2>Invoice</h2>
          <p className="actions">
            <a
              className="button"
              href={fillPath(documentPaths.orderInvoice, { number: order.number })}
              download={documentFileName(order.invoice)}
            >
              Download invoice (PDF)
            </a>
            {order.creditNote && (
              <a
                className="button button-quiet"
                href={fillPath(documentPaths.orderCreditNote, { number: order.number })}
                download={documentFileName(order.creditNote)}
              >
                Download credit note (PDF)
              </a>
            )}
          </p>
        </div>
      )}
      <OrderReturns order={order.number} data={returns} />
      <div className="card">
        <h2>History</h2>
        <ol className="history">
          {order.history.map((entry, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the history only grows at its end
            <li key={index}>
              {statusLabels[entry.status]}, {formatDateTime(entry.at, format.locale)}
              {entry.by === 'rider' ? '' : ' by the shop'}
              {entry.note ? `: ${entry.note}` : ''}
            </li>
          ))}
        </ol>
      </div>
      {order.status === 'placed' && (
        <div className="card form">
          <h2>Cancel this order</h2>
          {confirming ? (
            <>
              <p>Cancel order {order.number}? This cannot be undone.</p>
              <p className="actions">
                <button type="button" className="button button-danger" disabled={busy} onClick={cancel}>
                  Yes, cancel the order
                </button>
                <button
                  type="button"
                  className="button button-quiet"
                  disabled={busy}
                  onClick={() => setConfirming(false)}
                >
                  Keep the order
                </button>
              </p>
            </>
          ) : (
            <p>
              <button type="button" className="button button-quiet" onClick={() => setConfirming(true)}>
                Cancel order
              </button>
            </p>
          )}
        </div>
      )}
      <p className="actions">
        <Link className="button" to={pages.orders.path}>
          Your orders
        </Link>
        <Link className="button button-quiet" to={pages.home.path}>
          Continue Shopping
        </Link>
      </p>
    </section>
  );
}
