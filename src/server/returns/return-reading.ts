import type { Kysely } from 'kysely';
import { shopAddressText } from '../../shared/address';
import { formatOrderNumber } from '../../shared/orders';
import type { OrderReturns, Return, ReturnLine, ReturnOutcome, ReturnReason, ReturnState } from '../../shared/returns';
import type { ShopSettings } from '../../shared/settings';
import type { Tables } from '../db/schema';
import { currencyOf, moneyOfRow } from '../orders/order-mapping';
import { type LineMoney, refundOf, shippingDueOf } from '../pricing/refund-money';

/** A day, in milliseconds: return days count from the moment the order was shipped. */
const dayMs = 24 * 60 * 60 * 1000;

const iso = (ms: number | string | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

/** An order's lines as a return reads them: by position, with the money each keeps. */
export async function orderLinesOf(executor: Kysely<Tables>, orderNumber: number) {
  const rows = await executor
    .selectFrom('order_line')
    .selectAll()
    .where('order_number', '=', orderNumber)
    .orderBy('position')
    .execute();
  return rows.map((row) => ({
    position: Number(row.position),
    itemid: row.itemid,
    name: row.name,
    size: row.size,
    sizeKey: row.size_key,
    priceCents: Number(row.price_cents),
    discountCents: Number(row.discount_cents),
    taxCents: Number(row.tax_cents),
  }));
}
export type ReturnOrderLine = Awaited<ReturnType<typeof orderLinesOf>>[number];

/** Whether the order's shipping has been paid back, or is being (a card refund asked with it, not yet kept). */
async function shippingTakenOf(executor: Kysely<Tables>, orderNumber: number, except: string | null) {
  const refunded = await executor
    .selectFrom('refund')
    .select('seq')
    .where('order_number', '=', orderNumber)
    .where('shipping_cents', '>', 0)
    .executeTakeFirst();
  if (refunded) return true;
  let asked = executor
    .selectFrom('return_request')
    .select('number')
    .where('order_number', '=', orderNumber)
    .where('refund_started_at', 'is not', null)
    .where('refund_shipping', '=', 1);
  if (except !== null) asked = asked.where('number', '!=', except);
  return (await asked.executeTakeFirst()) !== undefined;
}

/** Returns as the API gives them, read through `executor`, with their lines and refund. */
export async function readReturns(
  executor: Kysely<Tables>,
  where: { numbers?: readonly string[]; orderNumber?: number },
): Promise<Return[]> {
  let query = executor
    .selectFrom('return_request')
    .innerJoin('shop_order', 'shop_order.number', 'return_request.order_number')
    .select([
      'return_request.number',
      'return_request.order_number',
      'return_request.state',
      'return_request.requested_at',
      'return_request.received_at',
      'return_request.settled_at',
      'return_request.refused_reason',
      'return_request.refund_problem',
      'return_request.exchange_order',
      'shop_order.email',
      'shop_order.money',
      'shop_order.total_cents',
    ]);
  if (where.numbers) {
    if (where.numbers.length === 0) return [];
    query = query.where('return_request.number', 'in', where.numbers);
  }
  if (where.orderNumber !== undefined) query = query.where('return_request.order_number', '=', where.orderNumber);
  const heads = await query
    .orderBy('return_request.requested_at', 'desc')
    .orderBy('return_request.number', 'desc')
    .execute();
  const returns: Return[] = [];
  const linesByOrder = new Map<number, ReturnOrderLine[]>();
  for (const head of heads) {
    const orderNumber = Number(head.order_number);
    const orderLines = linesByOrder.get(orderNumber) ?? (await orderLinesOf(executor, orderNumber));
    linesByOrder.set(orderNumber, orderLines);
    const lineRows = await executor
      .selectFrom('return_line')
      .selectAll()
      .where('return_number', '=', head.number)
      .orderBy('position')
      .execute();
    const refund = await executor
      .selectFrom('refund')
      .select(['amount_cents', 'shipping_cents', 'tax_cents', 'credit_note'])
      .where('return_number', '=', head.number)
      .executeTakeFirst();
    const lines: ReturnLine[] = lineRows.map((row) => {
      const line = orderLines.find((l) => l.position === Number(row.position));
      return {
        line: Number(row.position),
        itemid: line?.itemid ?? '',
        name: line?.name ?? '',
        size: line?.size ?? null,
        priceCents: line?.priceCents ?? 0,
        reason: row.reason as ReturnReason,
        outcome: row.outcome as ReturnOutcome,
        exchangeSize: row.exchange_size,
        receivedAt: iso(row.received_at),
        restocked: row.restocked === null ? null : Number(row.restocked) === 1,
      };
    });
    const money = moneyOfRow(head);
    const toRefund: LineMoney[] = lines
      .filter((line) => line.outcome === 'refund')
      .map((line) => orderLines.find((l) => l.position === line.line) as LineMoney);
    const state = head.state as ReturnState;
    const open = state === 'requested' || state === 'received';
    const shippingTaken = open ? await shippingTakenOf(executor, orderNumber, head.number) : true;
    returns.push({
      number: head.number,
      order: formatOrderNumber(orderNumber),
      state,
      requestedAt: iso(head.requested_at) as string,
      receivedAt: iso(head.received_at),
      settledAt: iso(head.settled_at),
      refusedReason: head.refused_reason,
      lines,
      refund: refund
        ? {
            amountCents: Number(refund.amount_cents),
            shippingCents: Number(refund.shipping_cents),
            creditNote: refund.credit_note,
          }
        : null,
      dueCents: open ? refundOf({ money, allLines: orderLines, lines: toRefund, shipping: false }).amountCents : 0,
      shippingDueCents: shippingTaken ? 0 : shippingDueOf(money, orderLines),
      currency: currencyOf(head),
      refundProblem: head.refund_problem,
      exchangeOrder: head.exchange_order === null ? null : formatOrderNumber(Number(head.exchange_order)),
      email: head.email,
    });
  }
  return returns;
}

/** Where riders send returns: the settings' return address, or the shop's own. */
export function returnAddressOf(settings: Pick<ShopSettings, 'shop' | 'returns' | 'format'>): string {
  const address = settings.returns.address ?? settings.shop.address;
  return `${settings.shop.name}, ${shopAddressText(address, settings.format.locale)}`;
}

/**
 * Until when an order may be returned (epoch ms): its shipping's moment and the settings' days; null when returns
 * are off or the order is not shipped (or collected).
 */
export async function returnableUntil(
  executor: Kysely<Tables>,
  orderNumber: number,
  status: string,
  days: number,
): Promise<number | null> {
  if (days <= 0 || status !== 'shipped') return null;
  const shipped = await executor
    .selectFrom('order_event')
    .select((eb) => eb.fn.max('at').as('at'))
    .where('order_number', '=', orderNumber)
    .where('status', '=', 'shipped')
    .executeTakeFirst();
  if (shipped?.at === null || shipped?.at === undefined) return null;
  return Number(shipped.at) + days * dayMs;
}

/** An order's returns and what may still be asked (the rider's page), read through `executor`. */
export async function orderReturnsOf(
  executor: Kysely<Tables>,
  order: { number: number; status: string },
  settings: Pick<ShopSettings, 'shop' | 'returns' | 'format'>,
  now: number,
): Promise<OrderReturns> {
  const until = await returnableUntil(executor, order.number, order.status, settings.returns.days);
  const open = until !== null && now <= until;
  const lines = await orderLinesOf(executor, order.number);
  const taken = new Set(
    (
      await executor
        .selectFrom('return_line')
        .select('position')
        .where('order_number', '=', order.number)
        .where('active', '=', 1)
        .execute()
    ).map((row) => Number(row.position)),
  );
  const sizes = await executor
    .selectFrom('product_size')
    .innerJoin('product', 'product.itemid', 'product_size.itemid')
    .select(['product_size.itemid', 'product_size.size', 'product_size.stock'])
    .where('product_size.itemid', 'in', lines.length === 0 ? [''] : [...new Set(lines.map((line) => line.itemid))])
    .where('product.shown', '=', 1)
    .where('product_size.stock', '>', 0)
    .orderBy('product_size.itemid')
    .orderBy('product_size.position')
    .execute();
  return {
    returns: await readReturns(executor, { orderNumber: order.number }),
    until: open ? new Date(until).toISOString() : null,
    lines: lines.map((line) => ({
      line: line.position,
      name: line.name,
      size: line.size,
      priceCents: line.priceCents,
      returnable: open && !taken.has(line.position),
      exchangeSizes: sizes
        .filter((size) => size.itemid === line.itemid && size.size !== line.size)
        .map((size) => size.size),
    })),
    address: returnAddressOf(settings),
  };
}
