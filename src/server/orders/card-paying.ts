import type { PaymentRefusal } from './order-moves';

// What the order routes ask of card payments. Card payments (src/server/payments) act on orders and import them; the
// orders name here what they need of it, so that neither folder imports the other both ways
// (docs/decisions/0057-boundaries-that-hold.md). `createCardPayments` gives it.

/** A Checkout Session for an order, or why there is none. */
export type CardCheckout =
  | { ok: true; url: string }
  | { ok: false; reason: 'not-found' | 'not-awaiting' }
  | Exclude<PaymentRefusal, { reason: 'refund-failed' }>;

/** A webhook's event taken, or why not. */
export type ReceiveResult = { ok: true } | { ok: false; reason: 'not-offered' | 'invalid-signature' };

export interface CardPaying {
  /** Whether the shop takes cards: Stripe's keys are set. */
  readonly offered: boolean;
  checkout(number: number, uid: string, options?: { reuse?: boolean }): Promise<CardCheckout>;
  receive(body: string, signature: string | undefined): Promise<ReceiveResult>;
}
