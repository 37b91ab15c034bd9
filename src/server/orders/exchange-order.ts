import type { UnitOfWork } from '../db/database';
import { sequences } from '../db/schema';
import { shopActor } from './order-moves';
import { ordersTopic } from './order-topic';

/** A size sent in exchange: the product, the size and the key its stock was held from when the return was asked. */
export interface ExchangeLine {
  itemid: string;
  name: string;
  size: string;
  sizeKey: string | null;
}

/**
 * The order that sends a return's exchanged sizes (docs/product.md §25), in the return's unit of work: to the first
 * order's rider and address, by its delivery, at no charge, its stock taken when the return was asked. It is paid as
 * it is made (nothing to pay, nothing sold: no invoice) and ships as every order does.
 */
export async function placeExchange(
  uow: UnitOfWork,
  {
    orderNumber,
    returnNumber,
    lines,
    at,
  }: { orderNumber: number; returnNumber: string; lines: ExchangeLine[]; at: number },
): Promise<number> {
  const first = await uow.trx
    .selectFrom('shop_order')
    .selectAll()
    .where('number', '=', orderNumber)
    .executeTakeFirstOrThrow();
  const money = JSON.parse(first.money) as { currency?: string };
  const number = await uow.next(sequences.orderNumber);
  await uow.trx
    .insertInto('shop_order')
    .values({
      number,
      uid: first.uid,
      email: first.email,
      idempotency_key: `exchange-${returnNumber}`,
      status: 'paid',
      payment_method: first.payment_method,
      delivery: first.delivery,
      full_name: first.full_name,
      line1: first.line1,
      line2: first.line2,
      city: first.city,
      region: first.region,
      postal_code: first.postal_code,
      country: first.country,
      phone: first.phone,
      money: JSON.stringify({ currency: money.currency ?? 'USD', subtotalCents: 0, shippingCents: 0 }),
      total_cents: 0,
      shipping_cents: 0,
      item_count: lines.length,
      placed_at: at,
      payment_id: null,
      refund_id: null,
      refund_started_at: null,
      card_lease_until: null,
      pay_by: null,
    })
    .execute();
  await uow.trx
    .insertInto('order_line')
    .values(
      lines.map((line, i) => ({
        order_number: number,
        position: i + 1,
        itemid: line.itemid,
        name: line.name,
        price_cents: 0,
        size: line.size,
        size_key: line.sizeKey,
        discount_cents: 0,
        tax_cents: 0,
        placed_at: at,
      })),
    )
    .execute();
  const note = `Exchange for ${returnNumber}`;
  const event = { order_number: number, at, by_role: shopActor.role, by_uid: null, by_email: shopActor.email, note };
  await uow.trx
    .insertInto('order_event')
    .values([
      { ...event, seq: 1, status: 'placed' },
      { ...event, seq: 2, status: 'paid' },
    ])
    .execute();
  uow.publish(ordersTopic, { type: 'placed', number, status: 'paid', uid: first.uid });
  return number;
}
