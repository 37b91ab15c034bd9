import { useId, useState } from 'react';
import { Link, type LoaderFunctionArgs, useLoaderData, useRevalidator } from 'react-router';
import { formatDateTime } from '../../../shared/dates';
import { documentFileName, documentPaths } from '../../../shared/invoices';
import { formatCents } from '../../../shared/money';
import { pages } from '../../../shared/pages';
import { fillPath } from '../../../shared/paths';
import { type ReturnLine, returnOutcomeLabels, returnReasonLabels, returnStateLabels } from '../../../shared/returns';
import { itemWithSize } from '../../../shared/sizes';
import { Alert } from '../../components/alert';
import { DataTable } from '../../components/data-table';
import { DocumentTitle } from '../../components/document-title';
import { call } from '../../lib/api';
import { orNotFound } from '../../lib/not-found';
import { useFormat } from '../../lib/shop';
import { AdminNav } from './admin-nav';
import { ReceiveForm, RefuseForm, SettleForm } from './returns-actions';
import { useLiveOrders } from './use-live-orders';

export function loader({ params }: LoaderFunctionArgs) {
  return orNotFound(call('adminReturn', { params: { number: params.number ?? '' } }), 'return/not-found');
}

/** What the rider wants for a line: the money, or the size named. */
function wanted(line: ReturnLine): string {
  return line.outcome === 'exchange' && line.exchangeSize !== null
    ? `Exchange for size ${line.exchangeSize}`
    : returnOutcomeLabels[line.outcome];
}

/** Whether a line is back: on the shelf, put aside, or not yet. */
function receipt(line: ReturnLine): string {
  if (line.restocked === null) return 'Not yet';
  return line.restocked ? 'Restocked' : 'Damaged, not restocked';
}

/** A return (docs/product.md §25): its lines, whose it is, its state and the owner's actions for that state. */
export default function AdminReturnPage() {
  const { return: item } = useLoaderData<typeof loader>();
  const { locale } = useFormat();
  const revalidator = useRevalidator();
  const linesId = useId();
  const [message, setMessage] = useState<{ kind: 'status' | 'alert'; text: string } | null>(null);
  useLiveOrders();
  const money = (cents: number) => formatCents(cents, { currency: item.currency, locale });

  async function done(text: string, ok: boolean) {
    setMessage({ kind: ok ? 'status' : 'alert', text });
    await revalidator.revalidate();
  }

  return (
    <section className="page order-page" aria-labelledby="return-title">
      <DocumentTitle page={`Return ${item.number} · Back office`} />
      <h1 id="return-title">Return {item.number}</h1>
      <AdminNav />
      {message && <Alert kind={message.kind}>{message.text}</Alert>}
      {item.refundProblem && (
        <Alert kind="alert">
          The last refund was refused: {item.refundProblem} The return stays received: try 'Refund' again.
        </Alert>
      )}
      <dl className="facts return-facts">
        <dt>State</dt>
        <dd>{returnStateLabels[item.state]}</dd>
        <dt>Order</dt>
        <dd>
          <Link to={fillPath(pages.adminOrder.path, { number: item.order })}>{item.order}</Link>
        </dd>
        <dt>Rider</dt>
        <dd>{item.email}</dd>
        <dt>Asked</dt>
        <dd>{formatDateTime(item.requestedAt, locale)}</dd>
        {item.receivedAt && (
          <>
            <dt>Received</dt>
            <dd>{formatDateTime(item.receivedAt, locale)}</dd>
          </>
        )}
        {item.settledAt && (
          <>
            <dt>{returnStateLabels[item.state]}</dt>
            <dd>{formatDateTime(item.settledAt, locale)}</dd>
          </>
        )}
        {item.refusedReason && (
          <>
            <dt>Reason refused</dt>
            <dd>{item.refusedReason}</dd>
          </>
        )}
      </dl>
      <div className="card">
        <h2 id={linesId}>Items</h2>
        <DataTable labelledBy={linesId}>
          <thead>
            <tr>
              <th scope="col">Item</th>
              <th scope="col" className="number">
                Price
              </th>
              <th scope="col">Reason</th>
              <th scope="col">Wanted</th>
              <th scope="col">Received</th>
            </tr>
          </thead>
          <tbody>
            {item.lines.map((line) => (
              <tr key={line.line}>
                <td>{itemWithSize(line.name, line.size)}</td>
                <td className="number">{money(line.priceCents)}</td>
                <td>{returnReasonLabels[line.reason]}</td>
                <td>{wanted(line)}</td>
                <td>{receipt(line)}</td>
              </tr>
            ))}
          </tbody>
        </DataTable>
      </div>
      {(item.refund || item.exchangeOrder) && (
        <div className="card">
          <h2>Settled</h2>
          {item.refund && (
            <p>
              Paid back {money(item.refund.amountCents)}
              {item.refund.shippingCents > 0 && `, of which shipping ${money(item.refund.shippingCents)}`}.
            </p>
          )}
          {item.refund?.creditNote && (
            <p>
              Credit note <strong>{item.refund.creditNote}</strong>{' '}
              <a
                href={fillPath(documentPaths.adminInvoice, { number: item.refund.creditNote })}
                download={documentFileName(item.refund.creditNote)}
              >
                Download {item.refund.creditNote} (PDF)
              </a>
            </p>
          )}
          {item.exchangeOrder && (
            <p>
              The exchange goes out as order{' '}
              <Link to={fillPath(pages.adminOrder.path, { number: item.exchangeOrder })}>{item.exchangeOrder}</Link>.
            </p>
          )}
        </div>
      )}
      {(item.state === 'requested' || item.state === 'received') && (
        <div className="card">
          <h2>Handle this return</h2>
          {item.state === 'requested' && (
            <>
              <ReceiveForm item={item} onDone={done} />
              <RefuseForm item={item} onDone={done} />
            </>
          )}
          {item.state === 'received' && <SettleForm item={item} onDone={done} />}
        </div>
      )}
      <p>
        <Link to={pages.adminReturns.path}>All returns</Link>
      </p>
    </section>
  );
}
