import type { ExpressionBuilder } from 'kysely';
import Stripe from 'stripe';
import type { PaymentProblemPage } from '../../shared/admin';
import { brand } from '../../shared/brand';
import { canMove, formatOrderNumber, type OrderStatus, parseOrderNumber } from '../../shared/orders';
import { pages } from '../../shared/pages';
import { fillPath } from '../../shared/paths';
import { card } from '../../shared/payment/card';
import type { StripeConfig } from '../config';
import type { Db, UnitOfWork } from '../db/database';
import { pageCount, rowsOfPage } from '../db/paging';
import type { Tables } from '../db/schema';
import { HttpError } from '../http/errors';
import type { Logger } from '../log';
import type { ActingUser, MoveOptions, MoveResult } from '../orders/order-moves';
import type { OrderStore } from '../orders/order-store';
import { type ReadEvent, readEvent } from './stripe-events';

/** How long a server may talk to Stripe about one order's payment before another may take over. */
const leaseMs = 2 * 60_000;
/** Stripe refuses a Checkout Session that expires sooner than 30 minutes or later than 24 hours from now. */
const shortestSessionMs = 31 * 60_000;
const longestSessionMs = 24 * 60 * 60_000;
/** How old a webhook's signature may be (Stripe's own default): an older one is a replay. */
const signatureToleranceSeconds = 300;
/** Orders the sweep takes at once; the rest wait for its next round. */
const sweepBatch = 20;

/** Whoever marks a card order paid (Stripe's webhook) or cancels it when its time has run out: the shop itself. */
const stripeActor: ActingUser = { uid: null, email: 'Stripe', role: 'shop' };
const shopActor: ActingUser = { uid: null, email: brand.title, role: 'shop' };

export interface CardPaymentParts {
  db: Db;
  orders: OrderStore;
  /** Undefined: the shop takes no cards (no STRIPE_SECRET_KEY). */
  stripe: StripeConfig | undefined;
  publicUrl: string;
  /** CARD_PAYMENT_MINUTES, in milliseconds. */
  cardPaymentMs: number;
  log: Logger;
}

export type CardPayments = ReturnType<typeof createCardPayments>;

/** The official library, pointed at STRIPE_API_URL when set (a local fake, or Stripe's stripe-mock). */
function stripeClient({ secretKey, apiUrl }: StripeConfig): Stripe {
  return new Stripe(secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    ...(apiUrl
      ? {
          host: apiUrl.hostname,
          port: apiUrl.port || (apiUrl.protocol === 'https:' ? 443 : 80),
          protocol: apiUrl.protocol === 'https:' ? 'https' : 'http',
        }
      : {}),
  });
}

/** Stripe answered with a refusal (a card error, an invalid request), not a network failure. */
function isRefusal(error: unknown): error is Stripe.errors.StripeError {
  return (
    error instanceof Stripe.errors.StripeError &&
    !(error instanceof Stripe.errors.StripeConnectionError) &&
    !(error instanceof Stripe.errors.StripeAPIError)
  );
}

/** Stripe out of reach, or answering what we did not expect: the rider is told to try again. Anything else throws. */
function unreachable(error: unknown, log: Logger): HttpError {
  if (error instanceof HttpError) return error;
  if (!(error instanceof Stripe.errors.StripeError)) throw error;
  log.warn({ err: error.message, type: error.type }, 'Stripe could not be reached or refused a request');
  return new HttpError('server/payments-unavailable');
}

/**
 * The start of the idempotency keys of an order's requests to Stripe: its number and the moment it was placed, so
 * that a shop started afresh (a new database, a restored backup) never meets the keys of an earlier order that had
 * the same number (Stripe keeps keys for 24 hours).
 */
function orderKey(number: number, placedAt: number): string {
  return `piaffe-order-${number}-${Number(placedAt)}`;
}

/** No server holds the order's lease at `now`. */
function leaseFree(now: number) {
  return (eb: ExpressionBuilder<Tables, 'shop_order'>) =>
    eb.or([eb('card_lease_until', 'is', null), eb('card_lease_until', '<', now)]);
}

/** What a webhook event did: kept with it, and shown to the owner when it is a problem. */
interface Outcome {
  outcome: 'paid' | 'waiting' | 'ignored' | 'problem';
  orderRef: string | null;
  amountCents: number | null;
  currency: string | null;
  problem: string | null;
}

/**
 * Card payments through Stripe Checkout (docs/product.md §14, docs/decisions/0023-card-payments.md). A card order is
 * placed like any other; then the rider is sent to a Checkout Session made for exactly its total. Only Stripe's
 * signed webhook marks it paid. Whatever talks to Stripe about an order first takes the order's lease (one server,
 * one step at a time: a new session, closing the sessions before a cancel, a refund), so two clicks, two owners or
 * two servers' sweeps never act on one order's payment at once; the order's status, moved conditionally, is the mark.
 */
export function createCardPayments({ db, orders, stripe: config, publicUrl, cardPaymentMs, log }: CardPaymentParts) {
  const stripe = config ? stripeClient(config) : undefined;

  /** Takes the order's lease, if no other server holds it. */
  async function lease(number: number): Promise<boolean> {
    const now = Date.now();
    const taken = await db.kysely
      .updateTable('shop_order')
      .set({ card_lease_until: now + leaseMs })
      .where('number', '=', number)
      .where(leaseFree(now))
      .executeTakeFirst();
    return Number(taken.numUpdatedRows) === 1;
  }

  async function release(number: number): Promise<void> {
    await db.kysely.updateTable('shop_order').set({ card_lease_until: null }).where('number', '=', number).execute();
  }

  /** Runs `work` holding the order's lease; `payment/busy` when another holds it. */
  async function leased<T>(number: number, work: () => Promise<T>): Promise<T> {
    if (!(await lease(number))) throw new HttpError('payment/busy');
    try {
      return await work();
    } finally {
      await release(number);
    }
  }

  function orderRow(number: number) {
    return db.kysely
      .selectFrom('shop_order')
      .select(['uid', 'email', 'status', 'payment_method', 'total_cents', 'placed_at', 'payment_id', 'refund_id'])
      .where('number', '=', number)
      .executeTakeFirst();
  }

  /**
   * Expires every open session of the order at Stripe, so that none can be paid any more. 'paying' when one of them
   * is already complete: its payment is on its way to the webhook, and the order must wait for it.
   */
  async function closeSessions(client: Stripe, number: number): Promise<'closed' | 'paying'> {
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

  /** A new Checkout Session for the order's total, after closing the last; the browser goes to its URL. */
  async function newSession(client: Stripe, number: number, reuse: boolean): Promise<string> {
    const row = await orderRow(number);
    if (!row) throw new HttpError('order/not-found');
    const deadline = Number(row.placed_at) + cardPaymentMs;
    if (row.payment_method !== card.id || row.status !== 'placed' || Date.now() >= deadline) {
      throw new HttpError('payment/not-awaiting');
    }
    if (reuse) {
      const open = await db.kysely
        .selectFrom('card_session')
        .select('url')
        .where('order_number', '=', number)
        .where('state', '=', 'open')
        .orderBy('created_at', 'desc')
        .executeTakeFirst();
      if (open) return open.url;
    }
    if ((await closeSessions(client, number)) === 'paying') throw new HttpError('payment/in-progress');
    const { made } = await db.kysely
      .selectFrom('card_session')
      .select((eb) => eb.fn.countAll<number | string>().as('made'))
      .where('order_number', '=', number)
      .executeTakeFirstOrThrow();
    const orderNumber = formatOrderNumber(number);
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
              currency: brand.currency.toLowerCase(),
              unit_amount: Number(row.total_cents),
              product_data: { name: `${brand.title} order ${orderNumber}` },
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
    return session.url;
  }

  /** What a verified event means for its order, applied inside the unit of work that records the event. */
  async function apply(uow: UnitOfWork, event: ReadEvent): Promise<Outcome> {
    const none: Outcome = { outcome: 'ignored', orderRef: null, amountCents: null, currency: null, problem: null };
    if (event.problem) return { ...none, outcome: 'problem', problem: event.problem };
    const { session } = event;
    if (!session) return none;
    const orderRef = session.metadata?.order ?? session.client_reference_id ?? null;
    const seen = { orderRef, amountCents: session.amount_total, currency: session.currency };
    const problem = (text: string): Outcome => ({ ...seen, outcome: 'problem', problem: text });
    if (event.type === 'checkout.session.async_payment_failed') {
      // The payment on its way failed: the rider may pay again, or the order be cancelled.
      await uow.trx.updateTable('card_session').set({ state: 'failed' }).where('id', '=', session.id).execute();
      return { ...seen, outcome: 'ignored', problem: null };
    }
    if (session.payment_status !== 'paid') return { ...seen, outcome: 'waiting', problem: null };

    const number = orderRef === null ? undefined : parseOrderNumber(orderRef);
    const row =
      number === undefined
        ? undefined
        : await uow.trx
            .selectFrom('shop_order')
            .select(['status', 'payment_method', 'total_cents', 'payment_id'])
            .where('number', '=', number)
            .executeTakeFirst();
    if (number === undefined || !row)
      return problem(`Paid for an order the shop does not have (${orderRef ?? 'none named'}).`);
    if (row.payment_method !== card.id) return problem(`Paid for ${orderRef}, which is not a card order.`);
    if (session.amount_total !== Number(row.total_cents)) {
      return problem(`Paid ${session.amount_total} cents for ${orderRef}, whose total is ${row.total_cents} cents.`);
    }
    if (session.currency?.toUpperCase() !== brand.currency) {
      return problem(`Paid in ${session.currency?.toUpperCase()} for ${orderRef}, which is in ${brand.currency}.`);
    }
    const paymentId = typeof session.payment_intent === 'string' ? session.payment_intent : session.payment_intent?.id;
    let status = row.status as OrderStatus;
    if (status === 'placed') {
      const moved = await orders.moveWithin(uow, number, 'paid', stripeActor, {
        card: { paymentId: paymentId ?? session.id },
      });
      if (moved.ok) {
        await uow.trx.updateTable('card_session').set({ state: 'complete' }).where('id', '=', session.id).execute();
        return { ...seen, outcome: 'paid', problem: null };
      }
      // Moved meanwhile (a cancel committed first): judged by the status now.
      status = moved.reason === 'busy' ? status : (moved.status ?? status);
    }
    // The same payment told again (its completion and its later success): nothing more to do.
    if (status !== 'cancelled' && row.payment_id !== null && row.payment_id === (paymentId ?? session.id)) {
      return { ...seen, outcome: 'ignored', problem: null };
    }
    return problem(
      status === 'cancelled'
        ? `Paid for ${orderRef} after it was cancelled: refund it at Stripe.`
        : `A second payment for ${orderRef}, which was already paid: refund one at Stripe.`,
    );
  }

  return {
    /** Whether the shop takes cards: Stripe's keys are set. */
    offered: stripe !== undefined,

    /**
     * A Checkout Session for the rider's card order (just placed, or 'Pay now' after coming back without paying),
     * after closing any earlier one; its URL. Refused when the order is not waiting for a card payment, when a
     * payment is already going through, or when Stripe cannot be reached (the order stays; 'Pay now' tries again).
     */
    async checkout(number: number, uid: string, { reuse = false }: { reuse?: boolean } = {}): Promise<string> {
      // Whose order it is before anything is written: another rider's order is answered as one that does not exist,
      // and its lease is left alone.
      if ((await orderRow(number))?.uid !== uid) throw new HttpError('order/not-found');
      const client = stripe;
      // A shop without Stripe's keys takes no cards: no order of it waits for one.
      if (!client) throw new HttpError('payment/not-awaiting');
      try {
        return await leased(number, () => newSession(client, number, reuse));
      } catch (error) {
        throw unreachable(error, log);
      }
    },

    /**
     * Cancels an order, the card payment's way: a placed card order's sessions are closed at Stripe first (none can
     * be paid after), and a paid one is refunded in full first (one refund, however often asked: the key is the
     * order's). If Stripe refuses the refund, the order stays paid and the error says why. Other orders move as usual.
     */
    async cancel(number: number, actor: ActingUser, options: MoveOptions = {}): Promise<MoveResult> {
      const row = await orderRow(number);
      const client = stripe;
      // Judged by the rules before anything is asked of Stripe; a refused move is answered by the order store.
      const allowed =
        row !== undefined &&
        row.payment_method === card.id &&
        (actor.role !== 'rider' || row.uid === actor.uid) &&
        (options.from === undefined || options.from === row.status) &&
        canMove(row.status as OrderStatus, 'cancelled', actor.role, row.payment_method);
      if (!allowed) return orders.move(number, 'cancelled', actor, options);
      if (!client) {
        // Without Stripe's keys a paid card order cannot be refunded; an unpaid one's sessions expire at Stripe.
        if (row.status === 'paid') throw new HttpError('server/payments-unavailable');
        return orders.move(number, 'cancelled', actor, options);
      }
      const sameStatus = { ...options, from: row.status as OrderStatus };
      try {
        return await leased(number, async () => {
          if (row.status === 'placed') {
            if ((await closeSessions(client, number)) === 'paying') throw new HttpError('payment/in-progress');
            return orders.move(number, 'cancelled', actor, sameStatus);
          }
          // Paid: the refund is marked first, and the order cannot ship from then until it is cancelled (or Stripe
          // refuses the refund), however long Stripe takes or if this server stops meanwhile.
          const marked = await db.kysely
            .updateTable('shop_order')
            .set({ refund_started_at: Date.now() })
            .where('number', '=', number)
            .where('status', '=', 'paid')
            .executeTakeFirst();
          if (Number(marked.numUpdatedRows) === 0 || row.payment_id === null) {
            return orders.move(number, 'cancelled', actor, sameStatus);
          }
          let refundId: string;
          try {
            const refund = await client.refunds.create(
              { payment_intent: row.payment_id, metadata: { order: formatOrderNumber(number) } },
              { idempotencyKey: `${orderKey(number, row.placed_at)}-refund` },
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
            throw new HttpError(
              'payment/refund-failed',
              `Stripe refused the refund: ${error.message} The order stays paid.`,
            );
          }
          const moved = await orders.move(number, 'cancelled', actor, { ...sameStatus, card: { refundId } });
          if (!moved.ok)
            log.error({ order: number, refundId }, 'refunded at Stripe, but the order could not be cancelled');
          return moved;
        });
      } catch (error) {
        throw unreachable(error, log);
      }
    },

    /**
     * Stripe's webhook: the raw body checked against its signature first (nothing in it is trusted before), then the
     * event recorded by its id and acted on in one unit of work: one event delivered twice, or to two servers at
     * once, is recorded once, and only the recording acts. Resolves once committed, so a 2xx follows the commit.
     */
    async receive(body: string, signature: string | undefined): Promise<void> {
      if (!stripe || !config) throw new HttpError('request/not-found');
      let signed: boolean;
      try {
        // True, or a throw; anything else (no verifier) is no signature checked, and refused.
        signed =
          stripe.webhooks.signature?.verifyHeader(
            body,
            signature ?? '',
            config.webhookSecret,
            signatureToleranceSeconds,
          ) === true;
      } catch {
        signed = false;
      }
      if (!signed) throw new HttpError('payment/invalid-signature');
      // Signed, and still checked for its shape: a malformed event is kept as a problem and answered 2xx, since
      // Stripe would only send the same bytes again (docs/decisions/0023-card-payments.md).
      const event = readEvent(body);
      await db.run(async (uow) => {
        const recorded = await uow.trx
          .insertInto('stripe_event')
          .values({
            id: event.id,
            type: event.type,
            received_at: Date.now(),
            order_ref: null,
            amount_cents: null,
            currency: null,
            outcome: 'ignored',
            problem: null,
          })
          .onConflict((oc) => oc.column('id').doNothing())
          .returning('id')
          .executeTakeFirst();
        // Seen before, here or on another server (which waited for this one's commit): already acted on.
        if (!recorded) return;
        const { outcome, orderRef, amountCents, currency, problem } = await apply(uow, event);
        await uow.trx
          .updateTable('stripe_event')
          .set({ outcome, order_ref: orderRef, amount_cents: amountCents, currency, problem })
          .where('id', '=', event.id)
          .execute();
        if (problem) log.warn({ event: event.id, type: event.type, problem }, 'a Stripe event did not match');
      });
    },

    /** A page of the webhook events that did not match an order, newest first, for the owner. */
    async problems(page: number): Promise<PaymentProblemPage> {
      const query = db.kysely.selectFrom('stripe_event').where('outcome', '=', 'problem');
      const { count } = await query
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .executeTakeFirstOrThrow();
      const { limit, offset } = rowsOfPage(page);
      const rows = await query
        .selectAll()
        .orderBy('received_at', 'desc')
        .orderBy('id')
        .limit(limit)
        .offset(offset)
        .execute();
      return {
        problems: rows.map((row) => ({
          id: row.id,
          type: row.type,
          receivedAt: new Date(Number(row.received_at)).toISOString(),
          orderRef: row.order_ref,
          amountCents: row.amount_cents === null ? null : Number(row.amount_cents),
          currency: row.currency,
          problem: row.problem ?? '',
        })),
        page,
        pages: pageCount(Number(count)),
        total: Number(count),
      };
    },

    /**
     * Cancels the card orders whose time to pay has run out: their sessions closed at Stripe, their stock given
     * back, the rider told why. Runs on every server; the lease makes one server take each order, the conditional
     * move makes one cancel. An order whose payment is going through is left for the webhook; one that could not be
     * ended keeps its lease until it runs out, so that it is tried again later and never holds the others up.
     */
    async sweep(): Promise<number> {
      const client = stripe;
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
        if (!(await lease(Number(number)))) continue;
        try {
          if (!client || (await closeSessions(client, Number(number))) === 'closed') {
            const moved = await orders.move(Number(number), 'cancelled', shopActor, { note, from: 'placed' });
            if (moved.ok) cancelled += 1;
          }
          await release(Number(number));
        } catch (error) {
          log.warn({ order: Number(number), err: error }, 'could not end an unpaid card order; trying again later');
        }
      }
      return cancelled;
    },
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
export function startCardSweep(payments: CardPayments, cardPaymentMs: number, log: Logger) {
  let running: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    // One round at a time: a slow Stripe never piles rounds up.
    running ??= payments
      .sweep()
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
