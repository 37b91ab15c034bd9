import { formatOrderNumber } from '../../shared/orders';
import type { Db } from '../db/database';
import type { Logger } from '../log';
import type { BeforeCancel } from '../orders/order-moves';
import type { CardLease } from './card-lease';
import { closeSessions } from './card-sessions';
import { isRefusal, orderKey, reachingStripe, type StripeAccount } from './stripe-client';

export interface CardRefundParts {
  db: Db;
  stripe: StripeAccount | undefined;
  lease: CardLease;
  log: Logger;
}

/**
 * What comes before a card order is cancelled (the orders' cancel runs it, src/server/orders/order-moves.ts): a
 * placed order's sessions are closed at Stripe first (none can be paid after), and a paid one is refunded in full
 * first (one refund, however often asked: the key is the order's). If Stripe refuses the refund, the order stays
 * paid and the refusal says why.
 */
export function cardBeforeCancel({ db, stripe, lease, log }: CardRefundParts): BeforeCancel {
  return async ({ number, status, paymentId, placedAt }, cancel) => {
    const client = stripe?.client;
    if (!client) {
      // Without Stripe's keys a paid card order cannot be refunded; an unpaid one's sessions expire at Stripe, and one
      // that cost nothing was never sent there.
      if (status === 'paid' && paymentId !== null) return { ok: false, reason: 'payments-unavailable' };
      return cancel();
    }
    return reachingStripe(log, () =>
      lease.leased(number, async () => {
        if (status === 'placed') {
          if ((await closeSessions(db, client, number)) === 'paying') {
            return { ok: false, reason: 'payment-in-progress' } as const;
          }
          return cancel();
        }
        // Paid: the refund is marked first, and the order cannot ship from then until it is cancelled (or Stripe
        // refuses the refund), however long Stripe takes or if this server stops meanwhile.
        const marked = await db.kysely
          .updateTable('shop_order')
          .set({ refund_started_at: Date.now() })
          .where('number', '=', number)
          .where('status', '=', 'paid')
          .executeTakeFirst();
        if (Number(marked.numUpdatedRows) === 0 || paymentId === null) return cancel();
        let refundId: string;
        try {
          const refund = await client.refunds.create(
            { payment_intent: paymentId, metadata: { order: formatOrderNumber(number) } },
            { idempotencyKey: `${orderKey(number, placedAt)}-refund` },
          );
          refundId = refund.id;
        } catch (error) {
          if (!isRefusal(error)) throw error;
          await db.kysely
            .updateTable('shop_order')
            .set({ refund_started_at: null })
            .where('number', '=', number)
            .execute();
          log.warn({ order: number, err: error.message }, 'Stripe refused a refund');
          return { ok: false, reason: 'refund-failed', detail: error.message } as const;
        }
        const moved = await cancel({ refundId });
        if (!moved.ok)
          log.error({ order: number, refundId }, 'refunded at Stripe, but the order could not be cancelled');
        return moved;
      }),
    );
  };
}

/** How a payment's provider answered a refund of part of it. */
export type PartRefundResult =
  | { ok: true; refundId: string }
  | { ok: false; reason: 'refund-failed'; detail: string }
  | { ok: false; reason: 'payments-unavailable' };

/** A refund of `amountCents` of an order's payment at its provider, under an idempotency key: one refund per key. */
export type PartRefunder = (
  order: { number: number; paymentId: string | null },
  key: string,
  amountCents: number,
) => Promise<PartRefundResult>;

/**
 * A card payment paid back in part, through Stripe's refund of that amount (a return's, src/server/returns/): one
 * refund per key, however often asked. Stripe's refusal is told in its words; out of reach, `payments-unavailable`.
 */
export function cardPartRefund({ stripe, log }: Pick<CardRefundParts, 'stripe' | 'log'>): PartRefunder {
  return async ({ number, paymentId }, key, amountCents) => {
    const client = stripe?.client;
    if (!client || paymentId === null) return { ok: false, reason: 'payments-unavailable' };
    return reachingStripe(log, async () => {
      try {
        const refund = await client.refunds.create(
          { payment_intent: paymentId, amount: amountCents, metadata: { order: formatOrderNumber(number) } },
          { idempotencyKey: key },
        );
        return { ok: true, refundId: refund.id } as const;
      } catch (error) {
        if (!isRefusal(error)) throw error;
        log.warn({ order: number, err: error.message }, 'Stripe refused a refund of part of a payment');
        return { ok: false, reason: 'refund-failed', detail: error.message } as const;
      }
    });
  };
}
