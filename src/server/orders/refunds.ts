import type { OrderMoney } from '../../shared/pricing';
import type { UnitOfWork } from '../db/database';
import type { RefundParts } from '../pricing/refund-money';

/** A refund just made, as the refund table keeps it (docs/decisions/0064-returns.md). */
export interface RefundMade {
  orderNumber: number;
  /** The return it settles; null for a whole cancel. */
  returnNumber: string | null;
  at: number;
  parts: RefundParts;
  creditNote: string | null;
  providerRefundId: string | null;
}

/**
 * The refunds of one order, one after the other on every server: whoever refunds an order locks it first, in its unit
 * of work, and reads what was paid back after that.
 */
export async function lockRefunds(uow: UnitOfWork, orderNumber: number): Promise<void> {
  await uow.lock('refund', String(orderNumber));
}

/** What has been paid back of an order, and whether its shipping was, in `uow` (after `lockRefunds`). */
export async function refundedOf(
  uow: UnitOfWork,
  orderNumber: number,
): Promise<{ seq: number; refundedCents: number; shippingRefunded: boolean }> {
  const row = await uow.trx
    .selectFrom('refund')
    .select((eb) => [
      eb.fn.max('seq').as('seq'),
      eb.fn.max('refunded_cents').as('refunded'),
      eb.fn.max('shipping_cents').as('shipping'),
    ])
    .where('order_number', '=', orderNumber)
    .executeTakeFirst();
  return {
    seq: Number(row?.seq ?? 0),
    refundedCents: Number(row?.refunded ?? 0),
    shippingRefunded: Number(row?.shipping ?? 0) > 0,
  };
}

/**
 * Keeps a refund of an order, in the unit of work that makes it (after `lockRefunds`): the next of the order's
 * refunds, with the order's running total, which the database holds at or below what was paid (a CHECK), and whose
 * number two refunds at once cannot both take (the primary key). A refund of nothing is not kept.
 */
export async function recordRefund(uow: UnitOfWork, refund: RefundMade): Promise<void> {
  const { parts } = refund;
  if (parts.amountCents <= 0) return;
  const order = await uow.trx
    .selectFrom('shop_order')
    .select('total_cents')
    .where('number', '=', refund.orderNumber)
    .executeTakeFirstOrThrow();
  const before = await refundedOf(uow, refund.orderNumber);
  await uow.trx
    .insertInto('refund')
    .values({
      order_number: refund.orderNumber,
      seq: before.seq + 1,
      return_number: refund.returnNumber,
      at: refund.at,
      amount_cents: parts.amountCents,
      goods_cents: parts.goodsCents,
      discount_cents: parts.discountCents,
      shipping_cents: parts.shippingCents,
      tax_cents: parts.taxCents,
      tax_lines: JSON.stringify(parts.taxLines),
      refunded_cents: before.refundedCents + parts.amountCents,
      paid_cents: Number(order.total_cents),
      credit_note: refund.creditNote,
      provider_refund_id: refund.providerRefundId,
    })
    .execute();
}

/** A whole order's money as one refund: what a cancel of a paid order pays back. */
export function wholeRefundOf(money: OrderMoney): RefundParts {
  const taxLines = money.taxLines ?? [];
  return {
    amountCents: money.totalCents,
    goodsCents: money.subtotalCents,
    discountCents: -(money.adjustments ?? []).reduce((sum, adjustment) => sum + adjustment.amountCents, 0),
    shippingCents: money.shippingCents,
    taxCents: money.taxCents,
    // Not told apart in a whole refund: all of the order's tax comes back.
    shippingTaxCents: 0,
    taxLines: taxLines.map(({ name, rate, amountCents, included }) => ({ name, rate, amountCents, included })),
  };
}
