import { Link } from 'react-router';
import { formatDate, formatDateTime } from '../../../shared/dates';
import { documentFileName, documentPaths } from '../../../shared/invoices';
import { formatCents } from '../../../shared/money';
import { pages } from '../../../shared/pages';
import { fillPath } from '../../../shared/paths';
import {
  type OrderReturns as OrderReturnsData,
  type Return,
  returnOutcomeLabels,
  returnReasonLabels,
  returnStateLabels,
} from '../../../shared/returns';
import { itemWithSize } from '../../../shared/sizes';
import { useFormat } from '../../lib/shop';

/** A return as its rider reads it: its state, its lines and their reasons, where to send it, what came back. */
function ReturnCard({ item, address }: { item: Return; address: string }) {
  const { locale } = useFormat();
  const money = (cents: number) => formatCents(cents, { currency: item.currency, locale });
  return (
    <article className="return" aria-labelledby={`return-${item.number}`}>
      <h3 id={`return-${item.number}`}>Return {item.number}</h3>
      <dl className="facts">
        <dt>State</dt>
        <dd>{returnStateLabels[item.state]}</dd>
        <dt>Asked</dt>
        <dd>{formatDateTime(item.requestedAt, locale)}</dd>
      </dl>
      <ul>
        {item.lines.map((line) => (
          <li key={line.line}>
            {itemWithSize(line.name, line.size)}: {returnReasonLabels[line.reason]},{' '}
            {line.outcome === 'exchange' && line.exchangeSize !== null
              ? `exchange for size ${line.exchangeSize}`
              : returnOutcomeLabels[line.outcome].toLowerCase()}
          </li>
        ))}
      </ul>
      {item.state === 'requested' && (
        <p>
          Send the parcel to: <strong>{address}</strong>
        </p>
      )}
      {item.state === 'refused' && <p>Refused: {item.refusedReason}</p>}
      {item.refund && (
        <p>
          Refunded {money(item.refund.amountCents)}
          {item.refund.shippingCents > 0 && `, of which shipping ${money(item.refund.shippingCents)}`}.
        </p>
      )}
      {item.refund?.creditNote && (
        <p>
          Credit note {item.refund.creditNote}{' '}
          <a
            className="button button-quiet"
            href={fillPath(documentPaths.orderDocument, { number: item.order, document: item.refund.creditNote })}
            download={documentFileName(item.refund.creditNote)}
          >
            Download credit note (PDF)
          </a>
        </p>
      )}
      {item.exchangeOrder && (
        <p>
          The new size is sent as order{' '}
          <Link to={fillPath(pages.order.path, { number: item.exchangeOrder })}>{item.exchangeOrder}</Link>.
        </p>
      )}
    </article>
  );
}

/** The order's returns, and 'Return items' while something may still be returned (docs/product.md §25). */
export function OrderReturns({ order, data }: { order: string; data: OrderReturnsData }) {
  const { locale } = useFormat();
  const open = data.until !== null && data.lines.some((line) => line.returnable);
  if (!open && data.returns.length === 0) return null;
  return (
    <div className="card">
      <h2>Returns</h2>
      {data.returns.map((item) => (
        <ReturnCard key={item.number} item={item} address={data.address} />
      ))}
      {open && data.until !== null && (
        <p>
          Something does not fit? You may return items until {formatDate(data.until, locale)}.{' '}
          <Link className="button" to={fillPath(pages.orderReturn.path, { number: order })}>
            Return items
          </Link>
        </p>
      )}
    </div>
  );
}
