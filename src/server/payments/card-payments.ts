import type { Db } from '../db/database';
import type { Logger } from '../log';
import type { OrderStore } from '../orders/order-store';
import type { SettingsStore } from '../settings/settings-store';
import type { CardLease } from './card-lease';
import { createCardSessions } from './card-sessions';
import { createCardSweep } from './card-sweep';
import { createCardWebhook } from './card-webhook';
import { paymentProblems } from './payment-problems';
import type { StripeAccount } from './stripe-client';

export interface CardPaymentParts {
  db: Db;
  orders: OrderStore;
  /** Undefined: the shop takes no cards (no STRIPE_SECRET_KEY). */
  stripe: StripeAccount | undefined;
  lease: CardLease;
  publicUrl: string;
  /** CARD_PAYMENT_MINUTES, in milliseconds. */
  cardPaymentMs: number;
  log: Logger;
  /** The shop's name on Stripe's page. */
  settings: SettingsStore;
}

export type CardPayments = ReturnType<typeof createCardPayments>;

/**
 * Card payments through Stripe Checkout (docs/product.md §14, docs/decisions/0023-card-payments.md). A card order is
 * placed like any other; then the rider is sent to a Checkout Session made for exactly its total (card-sessions.ts).
 * Only Stripe's signed webhook marks it paid (card-webhook.ts). Whatever talks to Stripe about an order first takes
 * the order's lease (card-lease.ts: one server, one step at a time: a new session, closing the sessions before a
 * cancel, a refund), so two clicks, two owners or two servers' sweeps never act on one order's payment at once; the
 * order's status, moved conditionally, is the mark. Cancels are the orders' (order-moves.ts), which run the card's
 * step before a cancel (card-refunds.ts); the sweep cancels unpaid orders whose time has run out (card-sweep.ts).
 */
export function createCardPayments(parts: CardPaymentParts) {
  return {
    /** Whether the shop takes cards: Stripe's keys are set. */
    offered: parts.stripe !== undefined,
    checkout: createCardSessions(parts).checkout,
    receive: createCardWebhook(parts).receive,
    problems: (page: number) => paymentProblems(parts.db, page),
    sweep: createCardSweep(parts),
  };
}
