import { formatCents } from '../../shared/money';
import { formatOrderNumber } from '../../shared/orders';
import type { Db, UnitOfWork } from '../db/database';
import { issueRefundNote } from '../invoices/invoicing';
import { legalDetailsOf } from '../invoices/legal-details';
import type { Outbox } from '../mail/outbox';
import { placeExchange } from '../orders/exchange-order';
import { moneyOfRow } from '../orders/order-mapping';
import { recipientOf } from '../orders/order-moves';
import { ordersTopic } from '../orders/order-topic';
import { lockRefunds, recordRefund, refundedOf } from '../orders/refunds';
import type { CardLease } from '../payments/card-lease';
import type { PartRefunder } from '../payments/card-refunds';
import { orderKey } from '../payments/stripe-client';
import { refundMoney, refundOf } from '../pricing/refund-money';
import type { SettingsStore } from '../settings/settings-store';
import { orderLinesOf } from './return-reading';
import { Refused, type ReturnResult, readReturn, refusable, returnHead } from './return-store';

export type SettleResult =
  | ReturnResult
  | { ok: false; reason: 'refund-failed'; detail: string }
  | {
      ok: false;
      reason: 'payments-unavailable';
    };

export interface SettlingParts {
  db: Db;
  outbox: Pick<Outbox, 'enqueue'>;
  settings: SettingsStore;
  lease: CardLease;
  /** By payment method's id: how its payments are paid back in part (a card's, through Stripe). */
  refunders: ReadonlyMap<string, PartRefunder>;
  clock?: () => number;
}

/**
 * 'Refund' on a received return (docs/product.md §25, docs/decisions/0064-returns.md): the refund lines' share (and
 * shipping, once per order, when asked) paid back, kept as the order's refund with its credit note, and the exchange's
 * new order made, in one unit of work. A card order's refund is asked of Stripe first, holding the order's lease, under
 * the return's own key: asked again after a crash or a refusal, it is the same refund, never a second.
 */
export function createReturnSettling({ db, outbox, settings, lease, refunders, clock = Date.now }: SettlingParts) {
  /** What the return pays back with shipping or without, in `uow`. */
  async function partsOf(uow: UnitOfWork, number: string, orderNumber: number, shipping: boolean) {
    const order = await uow.trx
      .selectFrom('shop_order')
      .select(['money', 'total_cents'])
      .where('number', '=', orderNumber)
      .executeTakeFirstOrThrow();
    const money = moneyOfRow(order);
    const orderLines = await orderLinesOf(uow.trx, orderNumber);
    const returned = await uow.trx
      .selectFrom('return_line')
      .select(['position', 'outcome', 'exchange_size', 'exchange_size_key'])
      .where('return_number', '=', number)
      .orderBy('position')
      .execute();
    const lineOf = (position: number) =>
      orderLines.find((line) => line.position === position) as (typeof orderLines)[0];
    const refunded = returned.filter((row) => row.outcome === 'refund').map((row) => lineOf(Number(row.position)));
    const exchanged = returned
      .filter((row) => row.outcome === 'exchange')
      .map((row) => ({ ...lineOf(Number(row.position)), size: row.exchange_size ?? '', key: row.exchange_size_key }));
    const withShipping = shipping && !(await refundedOf(uow, orderNumber)).shippingRefunded;
    const parts = refundOf({ money, allLines: orderLines, lines: refunded, shipping: withShipping });
    return { money, parts, refunded, exchanged, withShipping };
  }

  /** The return settled, in one unit of work: its refund kept, its credit note, its exchange's order, the e-mail. */
  function finish(number: string, shipping: boolean | 'as-asked', providerRefundId: string | null) {
    return refusable(db, async (uow) => {
      const head = await returnHead(uow, number);
      if (head.state === 'requested') throw new Refused('not-received', head.state);
      if (head.state !== 'received') throw new Refused('state-changed', head.state);
      await lockRefunds(uow, head.orderNumber);
      const asked = shipping === 'as-asked' ? Number(head.refund_shipping) === 1 : shipping;
      const { money, parts, refunded, exchanged } = await partsOf(uow, number, head.orderNumber, asked);
      const at = clock();
      const shop = await settings.current(uow);
      const creditNote =
        parts.amountCents > 0
          ? await issueRefundNote(
              uow,
              head.orderNumber,
              number,
              {
                lines: refunded.map(({ itemid, name, priceCents, size }) => ({ itemid, name, priceCents, size })),
                money: refundMoney(money, parts),
              },
              async () => ({ seller: legalDetailsOf(shop), format: shop.format }),
              at,
            )
          : undefined;
      await recordRefund(uow, {
        orderNumber: head.orderNumber,
        returnNumber: number,
        at,
        parts,
        creditNote: creditNote ?? null,
        providerRefundId,
      });
      const exchangeOrder =
        exchanged.length > 0
          ? await placeExchange(uow, {
              orderNumber: head.orderNumber,
              returnNumber: number,
              lines: exchanged.map(({ itemid, name, size, key }) => ({ itemid, name, size, sizeKey: key })),
              at,
            })
          : null;
      const state = refunded.length > 0 || parts.amountCents > 0 ? 'refunded' : 'exchanged';
      await uow.trx
        .updateTable('return_request')
        .set({
          state,
          settled_at: at,
          refund_started_at: null,
          refund_problem: null,
          refund_shipping: parts.shippingCents > 0 ? 1 : 0,
          exchange_order: exchangeOrder,
        })
        .where('number', '=', number)
        .execute();
      await outbox.enqueue(uow, 'return-settled', await recipientOf(uow, head), {
        number,
        order: formatOrderNumber(head.orderNumber),
        refund:
          parts.amountCents > 0 ? formatCents(parts.amountCents, { ...shop.format, currency: money.currency }) : null,
        creditNote: creditNote ?? null,
        exchangeOrder: exchangeOrder === null ? null : formatOrderNumber(exchangeOrder),
      });
      uow.publish(ordersTopic, { type: 'return', number: head.orderNumber, status: 'shipped', uid: head.uid });
      return readReturn(uow, number);
    });
  }

  /**
   * Claims the refund at the provider for this return, holding the order's lease: its amount and whether shipping is
   * among it are fixed by the first claim (a claim left by a crash is taken up as it was), so that the same key always
   * asks the same refund.
   */
  function claim(number: string, refundShipping: boolean) {
    return db.run(async (uow) => {
      const head = await returnHead(uow, number);
      if (head.state === 'requested') throw new Refused('not-received', head.state);
      if (head.state !== 'received') throw new Refused('state-changed', head.state);
      await lockRefunds(uow, head.orderNumber);
      const shipping = head.refund_started_at === null ? refundShipping : Number(head.refund_shipping) === 1;
      const { parts, withShipping } = await partsOf(uow, number, head.orderNumber, shipping);
      await uow.trx
        .updateTable('return_request')
        .set({
          refund_started_at: head.refund_started_at ?? clock(),
          refund_shipping: withShipping ? 1 : 0,
          refund_problem: null,
        })
        .where('number', '=', number)
        .execute();
      return { amountCents: parts.amountCents, head };
    });
  }

  async function settleAtProvider(
    number: string,
    refundShipping: boolean,
    refunder: PartRefunder,
  ): Promise<SettleResult> {
    let claimed: Awaited<ReturnType<typeof claim>>;
    try {
      claimed = await claim(number, refundShipping);
    } catch (error) {
      if (error instanceof Refused) return { ok: false, reason: error.reason, state: error.state };
      throw error;
    }
    const { amountCents, head } = claimed;
    if (amountCents === 0) return finish(number, 'as-asked', null);
    const key = `${orderKey(head.orderNumber, Number(head.placed_at))}-${number}-${head.refund_attempt}`;
    const refunded = await refunder({ number: head.orderNumber, paymentId: head.payment_id }, key, amountCents);
    if (!refunded.ok) {
      // Refused: the return stays received with the provider's words, and 'Refund' may be tried again, under the next
      // key (the provider keeps its refusal to this one). Out of reach: the claim stays, so that the next try asks the
      // same refund under the same key.
      if (refunded.reason === 'refund-failed') {
        await db.kysely
          .updateTable('return_request')
          .set((eb) => ({
            refund_started_at: null,
            refund_problem: refunded.detail,
            refund_attempt: eb('refund_attempt', '+', 1),
          }))
          .where('number', '=', number)
          .where('state', '=', 'received')
          .execute();
      }
      return refunded;
    }
    return finish(number, 'as-asked', refunded.refundId);
  }

  return {
    async settle(number: string, { refundShipping }: { refundShipping: boolean }): Promise<SettleResult> {
      const head = await db.kysely
        .selectFrom('return_request')
        .innerJoin('shop_order', 'shop_order.number', 'return_request.order_number')
        .select(['return_request.order_number', 'shop_order.payment_method'])
        .where('return_request.number', '=', number)
        .executeTakeFirst();
      if (!head) return { ok: false, reason: 'not-found' };
      const refunder = refunders.get(head.payment_method);
      // A bank transfer or collection order: the owner pays back, and the shop keeps that it was.
      if (!refunder) return finish(number, refundShipping, null);
      const leased = await lease.leased(Number(head.order_number), () =>
        settleAtProvider(number, refundShipping, refunder),
      );
      if (!leased.ok && leased.reason === 'payment-busy') return { ok: false, reason: 'refund-busy' };
      return leased as SettleResult;
    },
  };
}

export type ReturnSettling = ReturnType<typeof createReturnSettling>;
