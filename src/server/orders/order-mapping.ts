import type { Kysely, Selectable } from 'kysely';
import { z } from 'zod';
import type { Delivery } from '../../shared/delivery';
import {
  type Actor,
  formatOrderNumber,
  type HistoryEntry,
  type Order,
  type OrderStatus,
  type OrderSummary,
  orderMoneySchema,
} from '../../shared/orders';
import { card } from '../../shared/payment/card';
import { deliveryOf } from '../../shared/payment/payment-methods';
import type { OrderMoney } from '../../shared/pricing';
import type { OrderEventTable, OrderLineTable, ShopOrderTable, Tables } from '../db/schema';
import { documentsOf } from '../invoices/invoicing';
import { moneyOf } from '../pricing/pricing';

/** An order's rows and the API's shapes of it, both ways (docs/product.md §8). */

export type OrderRow = Selectable<ShopOrderTable>;

/**
 * The parts of an order's money its row keeps as JSON: not the total (a column of its own, for SQL to read) nor the
 * sums (the pricing makes them from the parts); the currency of every order placed before it was kept, USD.
 */
const storedMoneySchema = orderMoneySchema
  .omit({ totalCents: true, taxCents: true, netCents: true })
  .extend({ currency: z.string().default('USD') });

/** An order's money as its row keeps it: the parts as JSON, the total in a column of its own for SQL to read. */
export function moneyColumns({
  totalCents,
  taxCents: _tax,
  netCents: _net,
  ...parts
}: OrderMoney): Pick<ShopOrderTable, 'money' | 'total_cents' | 'shipping_cents'> {
  return { money: JSON.stringify(parts), total_cents: totalCents, shipping_cents: parts.shippingCents };
}

/** The currency an order's row says it was priced in. */
export function currencyOf(row: Pick<OrderRow, 'money'>): string {
  return storedMoneySchema.shape.currency.parse(JSON.parse(row.money).currency);
}

export function moneyOfRow(row: Pick<OrderRow, 'money' | 'total_cents'>): OrderMoney {
  return moneyOf({ ...storedMoneySchema.parse(JSON.parse(row.money)), totalCents: Number(row.total_cents) });
}

/** What an order's row says of it without its lines, history or money. */
function factsOf(row: OrderRow) {
  return {
    number: formatOrderNumber(Number(row.number)),
    placedAt: new Date(Number(row.placed_at)).toISOString(),
    status: row.status as OrderStatus,
    itemCount: Number(row.item_count),
    email: row.email,
  };
}

export function toSummary(row: OrderRow): OrderSummary {
  const { totalCents, currency } = moneyOfRow(row);
  return { ...factsOf(row), totalCents, currency };
}

export function toOrder(
  row: OrderRow,
  lines: OrderLineTable[],
  events: OrderEventTable[],
  forOwner: boolean,
  cardPaymentMs: number,
): Order {
  return {
    ...factsOf(row),
    lines: lines.map((line) => ({
      itemid: line.itemid,
      name: line.name,
      priceCents: Number(line.price_cents),
      size: line.size,
    })),
    money: moneyOfRow(row),
    address: {
      fullName: row.full_name,
      line1: row.line1,
      line2: row.line2,
      city: row.city,
      region: row.region,
      postalCode: row.postal_code,
      country: row.country,
      phone: row.phone,
    },
    paymentMethod: row.payment_method,
    ...(row.delivery !== deliveryOf(row.payment_method) ? { delivery: row.delivery as Delivery } : {}),
    card:
      row.payment_method === card.id
        ? {
            payBy: new Date(Number(row.placed_at) + cardPaymentMs).toISOString(),
            paymentId: row.payment_id,
            refundId: row.refund_id,
          }
        : null,
    ...(row.pay_by !== null ? { reminder: { payBy: new Date(Number(row.pay_by)).toISOString() } } : {}),
    history: events.map(
      (event): HistoryEntry => ({
        status: event.status as OrderStatus,
        at: new Date(Number(event.at)).toISOString(),
        by: event.by_role as Actor,
        note: event.note,
        ...(forOwner ? { who: event.by_email } : {}),
      }),
    ),
  };
}

/** One order as the API gives it, read through `executor` (a transaction's, or the database's). */
export async function readOrder(
  executor: Kysely<Tables>,
  number: number,
  { forOwner, cardPaymentMs, uid }: { forOwner: boolean; cardPaymentMs: number; uid?: string },
): Promise<Order | undefined> {
  let query = executor.selectFrom('shop_order').selectAll().where('number', '=', number);
  if (uid !== undefined) query = query.where('uid', '=', uid);
  const row = await query.executeTakeFirst();
  if (!row) return undefined;
  const lines = await executor
    .selectFrom('order_line')
    .selectAll()
    .where('order_number', '=', number)
    .orderBy('position')
    .execute();
  const events = await executor
    .selectFrom('order_event')
    .selectAll()
    .where('order_number', '=', number)
    .orderBy('seq')
    .execute();
  const refunded = await executor
    .selectFrom('refund')
    .select((eb) => eb.fn.max('refunded_cents').as('cents'))
    .where('order_number', '=', number)
    .executeTakeFirst();
  const refundedCents = Number(refunded?.cents ?? 0);
  return {
    ...toOrder(row, lines, events, forOwner, cardPaymentMs),
    ...(await documentsOf(executor, number)),
    ...(refundedCents > 0 ? { refundedCents } : {}),
  };
}
