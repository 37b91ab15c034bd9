import { type FormEvent, useId, useState } from 'react';
import { Link, type LoaderFunctionArgs, useLoaderData, useRevalidator } from 'react-router';
import { formatDateTime } from '../../../shared/dates';
import { documentFileName, documentPaths } from '../../../shared/invoices';
import { limits } from '../../../shared/limits';
import { type Actor, movesFrom, type Order, type OrderStatus, statusLabels } from '../../../shared/orders';
import { pages } from '../../../shared/pages';
import { fillPath } from '../../../shared/paths';
import { Alert } from '../../components/alert';
import { DataTable } from '../../components/data-table';
import { DocumentTitle } from '../../components/document-title';
import { OrderDetails } from '../../components/order-details';
import { call, messageOf } from '../../lib/api';
import { orNotFound } from '../../lib/not-found';
import { useFormat } from '../../lib/shop';
import { AdminNav } from './admin-nav';

export function loader({ params }: LoaderFunctionArgs) {
  return orNotFound(call('adminOrder', { params: { number: params.number ?? '' } }), 'order/not-found');
}

/** Each move an owner can make, as its button and the note it asks for. */
const moveCopy: Partial<Record<OrderStatus, { button: string; note?: string; done: string }>> = {
  paid: { button: 'Mark paid', done: 'marked paid' },
  shipped: {
    button: 'Mark shipped',
    note: 'Note for the rider, such as a tracking number (optional)',
    done: 'marked shipped',
  },
  cancelled: { button: 'Cancel order', note: 'Reason, told to the rider (optional)', done: 'cancelled' },
};

const refundCopy = {
  button: 'Cancel and refund',
  note: 'Reason, told to the rider (optional)',
  done: 'cancelled and refunded in full through Stripe',
};

const actorLabels: Record<Actor, string> = { rider: 'Rider', owner: 'Owner', shop: 'Shop' };

function MoveForm({
  order,
  to,
  onDone,
}: {
  order: Order;
  to: OrderStatus;
  onDone(message: string, ok: boolean): void;
}) {
  // A paid card order is refunded through Stripe as it is cancelled.
  const refund = to === 'cancelled' && order.status === 'paid' && order.card?.paymentId;
  const copy = refund ? refundCopy : moveCopy[to];
  const noteId = useId();
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  if (!copy) return null;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    try {
      // `from` is the status this page shows: if someone else moved the order meanwhile, the move is refused.
      await call('adminMoveOrder', { params: { number: order.number }, body: { to, from: order.status, note } });
      onDone(`Order ${order.number} is ${copy?.done}. The rider gets an e-mail.`, true);
    } catch (error) {
      onDone(messageOf(error), false);
    }
    setBusy(false);
  }

  return (
    <form className="move" onSubmit={submit} aria-label={copy.button}>
      {copy.note && (
        <div className="field">
          <label htmlFor={noteId}>{copy.note}</label>
          <input id={noteId} value={note} maxLength={limits.noteMax} onChange={(e) => setNote(e.target.value)} />
        </div>
      )}
      <button type="submit" className={to === 'cancelled' ? 'button button-danger' : 'button'} disabled={busy}>
        {copy.button}
      </button>
    </form>
  );
}

export default function AdminOrderPage() {
  const format = useFormat();
  const { order } = useLoaderData<typeof loader>();
  const revalidator = useRevalidator();
  const [message, setMessage] = useState<{ kind: 'status' | 'alert'; text: string } | null>(null);
  const historyId = useId();

  async function done(text: string, ok: boolean) {
    setMessage({ kind: ok ? 'status' : 'alert', text });
    await revalidator.revalidate();
  }

  const moves = movesFrom(order.status, 'owner', order.paymentMethod);
  return (
    <section className="page order-page" aria-labelledby="admin-order-title">
      <DocumentTitle page={`Order ${order.number} · Back office`} />
      <h1 id="admin-order-title">Order {order.number}</h1>
      <AdminNav />
      {message && <Alert kind={message.kind}>{message.text}</Alert>}
      <p>
        Placed by <strong>{order.email}</strong>.
      </p>
      <OrderDetails order={order} />
      {order.invoice && (
        <div className="card">
          <h2>Invoice</h2>
          <ul className="documents">
            {[
              ['Invoice', order.invoice],
              ['Credit note', order.creditNote],
            ].map(
              ([label, number]) =>
                number && (
                  <li key={number}>
                    {label} <strong>{number}</strong>{' '}
                    <a href={fillPath(documentPaths.adminInvoice, { number })} download={documentFileName(number)}>
                      Download {number} (PDF)
                    </a>
                  </li>
                ),
            )}
          </ul>
        </div>
      )}
      {moves.length > 0 && (
        <div className="card moves">
          <h2>Move this order</h2>
          {moves.map((to) => (
            <MoveForm key={`${order.status}-${to}`} order={order} to={to} onDone={done} />
          ))}
        </div>
      )}
      <div className="card">
        <h2 id={historyId}>History</h2>
        <DataTable labelledBy={historyId}>
          <thead>
            <tr>
              <th scope="col">Status</th>
              <th scope="col">When</th>
              <th scope="col">By</th>
              <th scope="col">Note</th>
            </tr>
          </thead>
          <tbody>
            {order.history.map((entry, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the history only grows at its end
              <tr key={index}>
                <td>{statusLabels[entry.status]}</td>
                <td>{formatDateTime(entry.at, format.locale)}</td>
                <td>
                  {actorLabels[entry.by]} {entry.who}
                </td>
                <td>{entry.note}</td>
              </tr>
            ))}
          </tbody>
        </DataTable>
      </div>
      <p>
        <Link to={pages.admin.path}>All orders</Link>
      </p>
    </section>
  );
}
