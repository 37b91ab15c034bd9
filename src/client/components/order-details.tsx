import { useId } from 'react';
import { addressLines } from '../../shared/address';
import { formatDateTime } from '../../shared/dates';
import { formatCents } from '../../shared/money';
import { deliveryText, type Order, statusLabels } from '../../shared/orders';
import { lastDayToPay } from '../../shared/payment/bank-transfer';
import { findPaymentMethod } from '../../shared/payment/payment-methods';
import { useRegionName } from '../lib/places';
import { useShop } from '../lib/shop';
import { OrderSummary } from './order-summary';

/**
 * What of the order has been paid back (docs/product.md §25): 'Refunded' once all of it, 'Partly refunded' before;
 * nothing while nothing has (the API leaves `refundedCents` out at 0).
 */
function refundOf({ refundedCents, money }: Order): { label: string; cents: number } | undefined {
  if (!refundedCents) return undefined;
  return { label: refundedCents >= money.totalCents ? 'Refunded' : 'Partly refunded', cents: refundedCents };
}

/** Everything the rider saw of an order: its facts, its lines and totals, where it goes and how it is paid. */
export function OrderDetails({ order }: { order: Order }) {
  const linesId = useId();
  const method = findPaymentMethod(order.paymentMethod);
  const shop = useShop();
  const regionName = useRegionName(order.address);
  // How to pay matters only until the order is paid (or cancelled).
  const pay = order.status === 'placed' ? method?.howToPay(order, shop) : undefined;
  // Reminded, and the shop still cancels unpaid orders: the last day its reminder gave (docs/product.md §8).
  const payBy = shop.bankTransfer.cancelUnpaid ? order.reminder?.payBy : undefined;
  const refund = refundOf(order);
  return (
    <div className="order-details">
      <dl className="facts">
        <dt>Order number</dt>
        <dd>{order.number}</dd>
        <dt>Placed</dt>
        <dd>{formatDateTime(order.placedAt, shop.format.locale)}</dd>
        <dt>Status</dt>
        <dd>{statusLabels[order.status]}</dd>
        {refund && (
          <>
            <dt>Money back</dt>
            <dd>
              {refund.label}:{' '}
              {formatCents(refund.cents, { currency: order.money.currency, locale: shop.format.locale })}
            </dd>
          </>
        )}
        <dt>Delivery</dt>
        <dd>{deliveryText(order)}</dd>
        <dt>Payment</dt>
        <dd>{method?.label ?? order.paymentMethod}</dd>
        {order.card?.paymentId && (
          <>
            <dt>Card payment</dt>
            <dd>
              <code>{order.card.paymentId}</code>
            </dd>
          </>
        )}
        {order.card?.refundId && (
          <>
            <dt>Refund</dt>
            <dd>
              <code>{order.card.refundId}</code>
            </dd>
          </>
        )}
      </dl>
      <div className="card">
        <h2 id={linesId}>What was ordered</h2>
        <OrderSummary labelledBy={linesId} lines={order.lines} money={order.money} />
      </div>
      <div className="card">
        <h2>Delivery address</h2>
        <address>
          {addressLines(order.address, regionName).map((line) => (
            <span className="address-line" key={line}>
              {line}
            </span>
          ))}
        </address>
      </div>
      {pay && (
        <div className="card">
          <h2>How to pay</h2>
          <p>{pay.intro}</p>
          {payBy && (
            <p>
              <strong>Last day to pay: {lastDayToPay(payBy, shop.format)}.</strong> We have sent a reminder; an order
              not paid by the end of that day is cancelled and its items go back on the shelf.
            </p>
          )}
          <dl className="facts">
            {pay.details.map(([label, value]) => (
              <div key={label}>
                <dt>{label}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
        </div>
      )}
    </div>
  );
}
