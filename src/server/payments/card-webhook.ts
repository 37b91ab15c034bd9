import { type OrderStatus, parseOrderNumber } from '../../shared/orders';
import { card } from '../../shared/payment/card';
import type { Db, UnitOfWork } from '../db/database';
import type { Logger } from '../log';
import type { ReceiveResult } from '../orders/card-paying';
import { currencyOf } from '../orders/order-mapping';
import type { ActingUser } from '../orders/order-moves';
import type { OrderStore } from '../orders/order-store';
import type { StripeAccount } from './stripe-client';
import { type ReadEvent, readEvent } from './stripe-events';

/** How old a webhook's signature may be (Stripe's own default): an older one is a replay. */
const signatureToleranceSeconds = 300;

/** Whoever marks a card order paid: Stripe's webhook, for the shop. */
const stripeActor: ActingUser = { uid: null, email: 'Stripe', role: 'shop' };

/** What a webhook event did: kept with it, and shown to the owner when it is a problem. */
interface Outcome {
  outcome: 'paid' | 'waiting' | 'ignored' | 'problem';
  orderRef: string | null;
  amountCents: number | null;
  currency: string | null;
  problem: string | null;
}

export interface CardWebhookParts {
  db: Db;
  orders: OrderStore;
  stripe: StripeAccount | undefined;
  log: Logger;
}

/** Stripe's webhook: only its signed events mark a card order paid (docs/decisions/0023-card-payments.md). */
export function createCardWebhook({ db, orders, stripe, log }: CardWebhookParts) {
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
            .select(['status', 'payment_method', 'total_cents', 'money', 'payment_id'])
            .where('number', '=', number)
            .executeTakeFirst();
    if (number === undefined || !row)
      return problem(`Paid for an order the shop does not have (${orderRef ?? 'none named'}).`);
    if (row.payment_method !== card.id) return problem(`Paid for ${orderRef}, which is not a card order.`);
    if (session.amount_total !== Number(row.total_cents)) {
      return problem(`Paid ${session.amount_total} cents for ${orderRef}, whose total is ${row.total_cents} cents.`);
    }
    const currency = currencyOf(row);
    if (session.currency?.toUpperCase() !== currency) {
      return problem(`Paid in ${session.currency?.toUpperCase()} for ${orderRef}, which is in ${currency}.`);
    }
    const paymentId = typeof session.payment_intent === 'string' ? session.payment_intent : session.payment_intent?.id;
    let status = row.status as OrderStatus;
    if (status === 'placed') {
      const moved = await orders.moveWithin(uow, number, 'paid', stripeActor, {
        payment: { paymentId: paymentId ?? session.id },
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
    /**
     * Stripe's webhook: the raw body checked against its signature first (nothing in it is trusted before), then the
     * event recorded by its id and acted on in one unit of work: one event delivered twice, or to two servers at
     * once, is recorded once, and only the recording acts. Resolves once committed, so a 2xx follows the commit.
     */
    async receive(body: string, signature: string | undefined): Promise<ReceiveResult> {
      if (!stripe) return { ok: false, reason: 'not-offered' };
      let signed: boolean;
      try {
        // True, or a throw; anything else (no verifier) is no signature checked, and refused.
        signed =
          stripe.client.webhooks.signature?.verifyHeader(
            body,
            signature ?? '',
            stripe.webhookSecret,
            signatureToleranceSeconds,
          ) === true;
      } catch {
        signed = false;
      }
      if (!signed) return { ok: false, reason: 'invalid-signature' };
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
      return { ok: true };
    },
  };
}
