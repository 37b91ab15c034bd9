import type Stripe from 'stripe';
import { formatOrderNumber } from '../../shared/orders';
import { pages } from '../../shared/pages';
import { fillPath } from '../../shared/paths';
import { card } from '../../shared/payment/card';
import type { Db } from '../db/database';
import type { Logger } from '../log';
import type { CardCheckout } from '../orders/card-paying';
import { currencyOf } from '../orders/order-mapping';
import type { SettingsStore } from '../settings/settings-store';
import type { CardLease } from './card-lease';
import { isRefusal, orderKey, reachingStripe, type StripeAccount } from './stripe-client';

/** Stripe refuses a Checkout Session that expires sooner than 30 minutes or later than 24 hours from now. */
const shortestSessionMs = 31 * 60_000;
const longestSessionMs = 24 * 60 * 60_000;

/**
 * Expires every open session of the order at Stripe, so that none can be paid any more. 'paying' when one of them
 * is already complete: its payment is on its way to the webhook, and the order must wait for it.
 */
export async function closeSessions(db: Db, client: Stripe, number: number): Promise<'closed' | 'paying'> {
  const sessions = await db.kysely
    .selectFrom('card_session')
    .select(['id', 'state'])
    .where('order_number', '=', number)
    .where('state', 'in', ['open', 'complete'])
    .execute();
  // A session completed at Stripe is a payment on its way (a card's in seconds, a bank debit's in days), until its
  // webhook marks the order paid or tells that it failed.
  let paying = sessions.some((session) => session.state === 'complete');
  for (const { id } of sessions.filter((session) => session.state === 'open')) {
    let state: string;
    try {
      state = (await client.checkout.sessions.expire(id)).status ?? 'expired';
    } catch (error) {
      if (!isRefusal(error)) throw error;
      // Not open any more at Stripe: completed (paid, or being paid), expired already, or unknown to this account.
      state = await client.checkout.sessions.retrieve(id).then(
        (session) => session.status ?? 'expired',
        (missing) => {
          if (isRefusal(missing)) return 'expired';
          throw missing;
        },
      );
    }
    await db.kysely.updateTable('card_session').set({ state }).where('id', '=', id).execute();
    if (state === 'complete') paying = true;
  }
  return paying ? 'paying' : 'closed';
}

export interface CardSessionParts {
  db: Db;
  stripe: StripeAccount | undefined;
  lease: CardLease;
  publicUrl: string;
  cardPaymentMs: number;
  log: Logger;
  settings: SettingsStore;
}

/**
 * Stripe Checkout Sessions: a card order is placed like any other; then the rider is sent to a session made for
 * exactly its total (docs/decisions/0023-card-payments.md).
 */
export function createCardSessions({ db, stripe, lease, publicUrl, cardPaymentMs, log, settings }: CardSessionParts) {
  function orderRow(number: number) {
    return db.kysely
      .selectFrom('shop_order')
      .select(['uid', 'email', 'status', 'payment_method', 'total_cents', 'money', 'placed_at'])
      .where('number', '=', number)
      .executeTakeFirst();
  }

  /** A new Checkout Session for the order's total, after closing the last; the browser goes to its URL. */
  async function newSession(client: Stripe, number: number, reuse: boolean): Promise<CardCheckout> {
    const row = await orderRow(number);
    if (!row) return { ok: false, reason: 'not-found' };
    const deadline = Number(row.placed_at) + cardPaymentMs;
    if (row.payment_method !== card.id || row.status !== 'placed' || Date.now() >= deadline) {
      return { ok: false, reason: 'not-awaiting' };
    }
    if (reuse) {
      const open = await db.kysely
        .selectFrom('card_session')
        .select('url')
        .where('order_number', '=', number)
        .where('state', '=', 'open')
        .orderBy('created_at', 'desc')
        .executeTakeFirst();
      if (open) return { ok: true, url: open.url };
    }
    if ((await closeSessions(db, client, number)) === 'paying') return { ok: false, reason: 'payment-in-progress' };
    const { made } = await db.kysely
      .selectFrom('card_session')
      .select((eb) => eb.fn.countAll<number | string>().as('made'))
      .where('order_number', '=', number)
      .executeTakeFirstOrThrow();
    const orderNumber = formatOrderNumber(number);
    const shopName = (await settings.current()).shop.name;
    const orderPage = `${publicUrl}${fillPath(pages.order.path, { number: orderNumber })}`;
    const now = Date.now();
    // At the order's deadline, as far as Stripe allows: the shop closes it at the deadline in any case.
    const expiresAt = Math.floor(Math.min(Math.max(deadline, now + shortestSessionMs), now + longestSessionMs) / 1000);
    const session = await client.checkout.sessions.create(
      {
        mode: 'payment',
        client_reference_id: orderNumber,
        metadata: { order: orderNumber },
        payment_intent_data: { metadata: { order: orderNumber } },
        customer_email: row.email,
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: currencyOf(row).toLowerCase(),
              unit_amount: Number(row.total_cents),
              product_data: { name: `${shopName} order ${orderNumber}` },
            },
          },
        ],
        success_url: `${orderPage}?payment=done`,
        cancel_url: `${orderPage}?payment=cancelled`,
        expires_at: expiresAt,
      },
      // The same attempt with the same terms is one session at Stripe, however often it is asked for.
      { idempotencyKey: `${orderKey(number, row.placed_at)}-session-${Number(made) + 1}-${expiresAt}` },
    );
    if (!session.url) throw new Error(`Stripe made Checkout Session ${session.id} without a URL.`);
    await db.kysely
      .insertInto('card_session')
      .values({ id: session.id, order_number: number, url: session.url, created_at: now, state: 'open' })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    return { ok: true, url: session.url };
  }

  return {
    /**
     * A Checkout Session for the rider's card order (just placed, or 'Pay now' after coming back without paying),
     * after closing any earlier one; its URL. Refused when the order is not waiting for a card payment, when a
     * payment is already going through, or when Stripe cannot be reached (the order stays; 'Pay now' tries again).
     */
    async checkout(number: number, uid: string, { reuse = false }: { reuse?: boolean } = {}): Promise<CardCheckout> {
      // Whose order it is before anything is written: another rider's order is answered as one that does not exist,
      // and its lease is left alone.
      if ((await orderRow(number))?.uid !== uid) return { ok: false, reason: 'not-found' };
      const client = stripe?.client;
      // A shop without Stripe's keys takes no cards: no order of it waits for one.
      if (!client) return { ok: false, reason: 'not-awaiting' };
      return reachingStripe(log, () => lease.leased(number, () => newSession(client, number, reuse)));
    },
  };
}
