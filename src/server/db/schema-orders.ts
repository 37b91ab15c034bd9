/**
 * The tables of carts, orders and what follows them (src/server/db/schema.ts has them all): payments at Stripe,
 * the numbers' counters, invoices and discount codes.
 */

/** One row of a rider's cart (`uid`) or of a visitor's (`visitor_cart_id`): never both, never neither. */
export interface CartItemTable {
  id: string;
  uid: string | null;
  visitor_cart_id: string | null;
  itemid: string;
  name: string;
  price_cents: number;
  details: string;
  /** The size chosen; null for rows added before the shop had sizes (migration 0007). */
  size: string | null;
  created_at: number;
}

/**
 * A visitor's cart (docs/product.md §23): its id is the SHA-256 of the random value of its cookie; `address` the
 * client address group it was made from (new carts are capped per address per hour); swept 30 days after `changed_at`.
 */
export interface VisitorCartTable {
  id: string;
  address: string;
  created_at: number;
  changed_at: number;
}

/** An order as placed (docs/product.md §8): what was bought is copied into it, never looked up later. */
export interface ShopOrderTable {
  number: number;
  /** Null once the account is deleted: the order stays, for the shop's books. */
  uid: string | null;
  /** The address the order was placed with. */
  email: string;
  idempotency_key: string;
  status: string;
  payment_method: string;
  /** shipping or collection (src/shared/delivery.ts). */
  delivery: string;
  full_name: string;
  line1: string;
  line2: string;
  city: string;
  region: string;
  postal_code: string;
  country: string;
  phone: string;
  /** The parts of the order's money (pricing.ts's OrderMoney but its total), as JSON. */
  money: string;
  total_cents: number;
  /** The money's shipping, copied for the reports' index (migration 0042, docs/decisions/0066-reports-at-size.md). */
  shipping_cents: number;
  item_count: number;
  placed_at: number;
  /** A card order's payment at Stripe (a PaymentIntent's id), once paid. */
  payment_id: string | null;
  /** A card order's refund at Stripe, once refunded. */
  refund_id: string | null;
  /** When an owner asked Stripe for the refund; until the order is cancelled (or Stripe refuses), it cannot ship. */
  refund_started_at: number | null;
  /** Epoch ms until which one server talks to Stripe about this order's payment; null or past when none does. */
  card_lease_until: number | null;
  /**
   * A bank-transfer order reminded to pay: the end of the last day its reminder gave (epoch ms), after which the shop
   * cancels it unpaid; null until the reminder is sent (docs/decisions/0049-unpaid-bank-transfers.md).
   */
  pay_by: number | null;
}

/** A Stripe Checkout Session made for a card order; a rider's 'Pay now' makes another after closing the last. */
export interface CardSessionTable {
  id: string;
  order_number: number;
  url: string;
  created_at: number;
  /** open, expired or complete, as last seen at Stripe. */
  state: string;
}

/** A verified webhook event from Stripe, kept by its id, with what the shop made of it. */
export interface StripeEventTable {
  id: string;
  type: string;
  received_at: number;
  /** The order the event names (metadata.order or client_reference_id), as given. */
  order_ref: string | null;
  amount_cents: number | null;
  currency: string | null;
  /** What the shop did: paid, waiting, ignored or problem. */
  outcome: string;
  /** For the owner: why the event did not match, when it did not. */
  problem: string | null;
}

export interface OrderLineTable {
  order_number: number;
  /** 1, 2, ...: the order of the cart rows. */
  position: number;
  itemid: string;
  name: string;
  price_cents: number;
  /** The size bought in; null for lines of orders placed before the shop had sizes. */
  size: string | null;
  /** The key of the size its stock was taken from (`product_size.key`); null for lines from before keys. */
  size_key: string | null;
  /**
   * What the order's discount took off this line, and the tax it carries (added or contained), in cents: the order's
   * spread by largest remainder when it was placed (src/server/pricing/spread.ts; migration 0040 for older orders).
   * The lines' discounts add up to the order's; their tax and shipping's add up to the order's tax.
   */
  discount_cents: number;
  tax_cents: number;
  /** Its order's `placed_at`, copied for the reports' index (docs/decisions/0066-reports-at-size.md). */
  placed_at: number;
}

/** One change of an order's status, the placing included; never updated or deleted. */
export interface OrderEventTable {
  order_number: number;
  /** 1 for the placing, then 2, 3, ... */
  seq: number;
  status: string;
  at: number;
  by_role: string;
  /** Null once that account is deleted; `by_email` keeps who it was. */
  by_uid: string | null;
  by_email: string;
  note: string | null;
}

/** A named counter, bumped inside the transaction that uses its number: numbers without a gap, on either database. */
export interface CounterTable {
  name: string;
  value: number;
}

/** Named number sequences: each a row of `counter`. */
export const sequences = { orderNumber: 'order_number' } as const;

/**
 * The numbers of a kind of document (an invoice, a credit note) issued in `year`: a row of `counter` that the year's
 * first document makes, so that each year's numbers start again from 1.
 */
export function yearlySequence(kind: 'invoice' | 'credit_note' | 'return', year: number) {
  return `${kind}_${year}` as const;
}

export type Sequence = (typeof sequences)[keyof typeof sequences] | ReturnType<typeof yearlySequence>;

/** An invoice or a credit note (docs/product.md §20): what it states is kept when it is issued, and never changes. */
export interface InvoiceTable {
  /** `INV-2026-00001`, `CN-2026-00001`. */
  number: string;
  /** invoice or credit-note. */
  kind: string;
  order_number: number;
  issued_at: number;
  /** The month it was issued in, in the shop's time zone (`2026-11`): the back office lists and zips by it. */
  month: string;
  /** What it states (src/server/invoices/invoice-record.ts), as JSON. */
  record: string;
  /** A credit note's return (`RET-2026-00001`), when it pays back part of the order; null otherwise. */
  return_number: string | null;
}
/**
 * One tax line of a document, as its record states it (a credit note's negative), with its order's place: written
 * with the document, never changed, summed by the owner's tax report (docs/decisions/0066-reports-at-size.md).
 */
export interface DocumentTaxTable {
  document: string;
  /** 1, 2, ...: the line's place in the record's tax lines. */
  position: number;
  issued_at: number;
  name: string;
  country: string;
  region: string;
  amount_cents: number;
}

/** A rider's request to send lines of an order back (docs/product.md §25, docs/decisions/0064-returns.md). */
export interface ReturnRequestTable {
  /** `RET-2026-00001`: gapless per year of the shop's time zone. */
  number: string;
  order_number: number;
  /** The rider who asked; null once that account is deleted. */
  uid: string | null;
  /** requested, received, refunded, exchanged or refused (src/shared/returns.ts). */
  state: string;
  requested_at: number;
  received_at: number | null;
  /** When it was refunded, exchanged or refused. */
  settled_at: number | null;
  refused_reason: string | null;
  /** 1 when the owner ticked 'Refund shipping' for its refund. */
  refund_shipping: number;
  /** When a refund was asked of the card's provider; until it is recorded (or refused) no second one is asked. */
  refund_started_at: number | null;
  /** The provider's words, when it refused the last refund asked. */
  refund_problem: string | null;
  /**
   * How many refunds the provider refused: each new try is asked under a key of its own (a provider keeps its answer
   * to a key, a refusal too), a try taken up after a crash under the same key.
   */
  refund_attempt: number;
  /** The order that sends the sizes exchanged, once made. */
  exchange_order: number | null;
}

/** An order line asked back: `active` 1 while its request is not refused (one active request per line). */
export interface ReturnLineTable {
  return_number: string;
  order_number: number;
  position: number;
  /** src/shared/returns.ts's reasons. */
  reason: string;
  /** refund or exchange. */
  outcome: string;
  /** The size asked for instead, and the key its stock was held from, for an exchange. */
  exchange_size: string | null;
  exchange_size_key: string | null;
  received_at: number | null;
  /** 1 when it went back on the shelf, 0 when the owner marked it damaged; null until received. */
  restocked: number | null;
  active: number;
}

/**
 * Money paid back on an order: a whole cancel's or a return's. Its parts are positive; `refunded_cents` is the order's
 * total paid back after it, held by a CHECK at or below `paid_cents`, and `seq` runs 1, 2, ... per order.
 */
export interface RefundTable {
  order_number: number;
  seq: number;
  return_number: string | null;
  at: number;
  amount_cents: number;
  goods_cents: number;
  discount_cents: number;
  shipping_cents: number;
  tax_cents: number;
  /** What of each tax line came back: [{ name, rate, amountCents, included }], as JSON. */
  tax_lines: string;
  refunded_cents: number;
  paid_cents: number;
  credit_note: string | null;
  /** The card provider's refund's id, when it went back through it. */
  provider_refund_id: string | null;
}

/** A discount code of the owner's (docs/product.md §16); its limits stay as made, `enabled` switches it. */
export interface DiscountCodeTable {
  id: string;
  /** As the owner wrote it; `code_key` is the same without case, unique. */
  code: string;
  code_key: string;
  /** percent, amount or free-shipping (src/shared/discounts.ts). */
  kind: string;
  /** The percentage, or the amount in cents; 0 for free shipping. */
  value: number;
  min_subtotal_cents: number | null;
  /** Days of the shop's time zone (the settings' `format.timeZone`), YYYY-MM-DD, both included. */
  first_day: string | null;
  last_day: string | null;
  max_uses: number | null;
  once_per_rider: number;
  enabled: number;
  /** Orders that used it and were not cancelled; never past `max_uses` (a CHECK holds it). */
  uses: number;
  created_at: number;
  created_by: string;
}

/** An order that used a discount code; `given_back_at` once the order was cancelled and gave its use back. */
export interface DiscountUseTable {
  order_number: number;
  discount_id: string;
  /** The address the order was placed with, lower-cased: 'Once per rider' counts by it. */
  email: string;
  /** The code's 'Once per rider', copied: the unique index covers only these uses. */
  once_per_rider: number;
  given_back_at: number | null;
}
