import { card } from '../../shared/payment/card';
import type { Db } from '../db/database';
import type { Logger } from '../log';
import { shopActor } from '../orders/order-moves';
import type { OrderStore } from '../orders/order-store';
import { type CardLease, leaseFree } from './card-lease';
import { closeSessions } from './card-sessions';
import type { StripeAccount } from './stripe-client';

/** Orders the sweep takes at once; the rest wait for its next round. */
const sweepBatch = 20;

export interface CardSweepParts {
  db: Db;
  orders: OrderStore;
  stripe: StripeAccount | undefined;
  lease: CardLease;
  cardPaymentMs: number;
  log: Logger;
}

/**
 * Cancels the card orders whose time to pay has run out: their sessions closed at Stripe, their stock given back,
 * the rider told why. Runs on every server; the lease makes one server take each order, the conditional move makes
 * one cancel. An order whose payment is going through is left for the webhook; one that could not be ended keeps
 * its lease until it runs out, so that it is tried again later and never holds the others up. The number cancelled.
 */
export function createCardSweep({ db, orders, stripe, lease, cardPaymentMs, log }: CardSweepParts) {
  return async function sweep(): Promise<number> {
    const client = stripe?.client;
    const now = Date.now();
    const due = await db.kysely
      .selectFrom('shop_order')
      .select('number')
      .where('payment_method', '=', card.id)
      .where('status', '=', 'placed')
      .where('placed_at', '<=', now - cardPaymentMs)
      .where(leaseFree(now))
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('card_session')
              .select('id')
              .whereRef('card_session.order_number', '=', 'shop_order.number')
              .where('card_session.state', '=', 'complete'),
          ),
        ),
      )
      .orderBy('number')
      .limit(sweepBatch)
      .execute();
    let cancelled = 0;
    const note = `The card payment was not made within ${duration(cardPaymentMs)}.`;
    for (const { number } of due) {
      if (!(await lease.take(Number(number)))) continue;
      try {
        if (!client || (await closeSessions(db, client, Number(number))) === 'closed') {
          const moved = await orders.move(Number(number), 'cancelled', shopActor, { note, from: 'placed' });
          if (moved.ok) cancelled += 1;
        }
        await lease.release(Number(number));
      } catch (error) {
        log.warn({ order: Number(number), err: error }, 'could not end an unpaid card order; trying again later');
      }
    }
    return cancelled;
  };
}

/** `90 minutes`, `1 minute`, `12 seconds`. */
function duration(ms: number): string {
  const [count, unit] =
    ms >= 60_000 ? [Math.round(ms / 60_000), 'minute'] : [Math.max(1, Math.round(ms / 1000)), 'second'];
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

/** How often each server looks for unpaid card orders whose time has run out. */
export function sweepIntervalMs(cardPaymentMs: number): number {
  return Math.max(1000, Math.min(60_000, Math.round(cardPaymentMs / 4)));
}

/** Runs the sweep on this server until stopped. */
export function startCardSweep(sweep: () => Promise<number>, cardPaymentMs: number, log: Logger) {
  let running: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    // One round at a time: a slow Stripe never piles rounds up.
    running ??= sweep()
      .catch((error) => log.warn({ err: error }, 'the card payment sweep failed'))
      .finally(() => {
        running = undefined;
      });
  }, sweepIntervalMs(cardPaymentMs));
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
