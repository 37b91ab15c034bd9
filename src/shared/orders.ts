/**
 * Orders, for both sides (docs/product.md §8): the statuses and the moves between them, order numbers, and the
 * shapes the API sends. The delivery address is address.ts's, its rules address-rules.ts's.
 */
import './zod-config';
import { z } from 'zod';
import { collectionPhoneMessage, orderAddressSchema, requiredMessage, shippingOnlyFields } from './address-rules';
import { deliveries, deliveryLabels } from './delivery';
import { limits } from './limits';
import { card } from './payment/card';
import { deliveryOf, findPaymentMethod } from './payment/payment-methods';
import type { OrderMoney } from './pricing';
import { roles } from './roles';
import { noControlCharacters } from './text';

// ---------------------------------------------------------------------------------------------------------
// Statuses and moves

export const orderStatuses = ['placed', 'paid', 'shipped', 'cancelled'] as const;
export type OrderStatus = (typeof orderStatuses)[number];

export const statusLabels: Record<OrderStatus, string> = {
  placed: 'Placed',
  paid: 'Paid',
  shipped: 'Shipped',
  cancelled: 'Cancelled',
};

/** Who moves orders: a rider, an owner, or the shop itself (Stripe's webhook, the end of an unpaid card order). */
export const actors = [...roles, 'shop'] as const;
export type Actor = (typeof actors)[number];

/**
 * Every allowed move (docs/product.md §8, §14); `shipped` and `cancelled` are final. `card`: only for a card order
 * (true) or only for the others (false). A card order is marked paid by Stripe's webhook alone, the shop itself; the
 * shop also marks paid an order that costs nothing, as it is placed (`nothingToPay`).
 */
export const orderMoves = [
  { from: 'placed', to: 'paid', by: ['owner'], card: false },
  { from: 'placed', to: 'paid', by: ['shop'] },
  { from: 'paid', to: 'shipped', by: ['owner'] },
  { from: 'placed', to: 'cancelled', by: ['rider', 'owner', 'shop'] },
  { from: 'paid', to: 'cancelled', by: ['owner'] },
] as const satisfies ReadonlyArray<{ from: OrderStatus; to: OrderStatus; by: readonly Actor[]; card?: boolean }>;

/** The moves `actor` may make from `status`, for an order paid by `paymentMethod`. */
export function movesFrom(status: OrderStatus, actor: Actor, paymentMethod: string): OrderStatus[] {
  const isCard = paymentMethod === card.id;
  return orderMoves
    .filter(
      (m) => m.from === status && (m.by as readonly Actor[]).includes(actor) && (!('card' in m) || m.card === isCard),
    )
    .map((m) => m.to);
}

export function canMove(from: OrderStatus, to: OrderStatus, actor: Actor, paymentMethod: string): boolean {
  return movesFrom(from, actor, paymentMethod).includes(to);
}

// ---------------------------------------------------------------------------------------------------------
// Order numbers

/**
 * Order numbers read `PF-10001`, `PF-10002`, ...: fixed in code, not a setting, since riders, e-mails and the books
 * already carry the numbers given (docs/decisions/0034-the-shops-settings.md).
 */
export const orderNumberPrefix = 'PF-';

export function formatOrderNumber(n: number): string {
  return `${orderNumberPrefix}${n}`;
}

/** The largest order number: the database keeps them as 32-bit integers. */
export const maxOrderNumber = 2_147_483_647;

/** A sequence number written in digits (`10001`), if it can be an order's; undefined for anything else. */
export function orderNumberOf(digits: string): number | undefined {
  if (!/^[1-9][0-9]{0,9}$/.test(digits)) return undefined;
  const number = Number(digits);
  return number <= maxOrderNumber ? number : undefined;
}

/** The sequence number of an order number such as `PF-10001`; undefined for anything else. */
export function parseOrderNumber(text: string): number | undefined {
  return text.startsWith(orderNumberPrefix) ? orderNumberOf(text.slice(orderNumberPrefix.length)) : undefined;
}

// ---------------------------------------------------------------------------------------------------------
// The API's shapes

/** An owner's note (a tracking number) or reason (why an order was cancelled), on one line; may be empty. */
export const noteSchema = z
  .string({ error: 'The note must be text.' })
  .trim()
  .max(limits.noteMax, `The note must be at most ${limits.noteMax} characters.`)
  .regex(noControlCharacters, 'The note must be on one line, without control characters.');

export const placeOrderSchema = z
  .strictObject({
    /** Complete for shipping; for 'Collect at the yard', a name and either a phone or the whole address. */
    address: orderAddressSchema,
    /** The id of a method the server offers (GET /api/payment-methods); the server checks which it offers. */
    paymentMethod: z.string({ error: 'Choose one of the payment methods offered.' }).max(64),
    /** Left out: the one the payment method goes with (deliveryOf). */
    delivery: z.enum(deliveries, { error: 'Choose shipping or collection.' }).optional(),
    /** Made once per checkout page: the same key never makes a second order. */
    idempotencyKey: z
      .string()
      .regex(/^[A-Za-z0-9_-]{16,64}$/, 'idempotencyKey must be 16 to 64 letters, digits, - or _.'),
    /** The cart rows the rider saw, by id. */
    cartItemIds: z.array(z.string().max(64)).max(limits.cartMaxRows),
    /**
     * The delivery method chosen among the quote's `shippingOptions`, by id; left out: the first the address's zone
     * offers (or collection, for 'Collect at the yard').
     */
    shippingMethod: z.string({ error: 'Choose one of the delivery methods offered.' }).max(64).optional(),
    /**
     * The method's price the page showed, in cents: when the shop's is another now (the owner changed it meanwhile),
     * the order is refused with `order/shipping-changed`.
     */
    shippingCents: z.number().int().min(0).optional(),
    /**
     * The total the rider was shown (the quote's, GET /api/checkout/quote), in cents: when the order's is another (the
     * owner changed a price, a rate or a method meanwhile), the order is refused with `order/cart-changed`, so that no
     * one is charged an amount they did not see.
     */
    totalCents: z
      .number({ error: 'totalCents is required: the total the rider was shown (GET /api/checkout/quote).' })
      .int()
      .min(0),
    /** The discount code the page applied: checked again and counted with the order (`order/discount-unavailable`). */
    discountCode: z.string().max(64).optional(),
  })
  .superRefine(({ paymentMethod, delivery, address }, context) => {
    const missing = shippingOnlyFields.filter((field) => address[field] === '');
    if (deliveryOf(paymentMethod, delivery) === 'shipping') {
      for (const field of missing) {
        context.addIssue({ code: 'custom', path: ['address', field], message: requiredMessage(field) });
      }
    } else if (missing.length > 0 && address.phone === '') {
      context.addIssue({
        code: 'custom',
        path: ['address', 'phone'],
        message: collectionPhoneMessage,
      });
    }
    const method = findPaymentMethod(paymentMethod);
    if (method?.delivery !== undefined && deliveryOf(paymentMethod, delivery) !== method.delivery) {
      context.addIssue({
        code: 'custom',
        path: ['paymentMethod'],
        message: `${method.label} goes only with '${deliveryLabels[method.delivery]}'.`,
      });
    }
  });

export type PlaceOrder = z.infer<typeof placeOrderSchema>;

export const orderLineSchema = z.object({
  itemid: z.string(),
  name: z.string(),
  priceCents: z.number().int(),
  /** The size bought in; null for an order placed before the shop had sizes. */
  size: z.string().nullable(),
});
export type OrderLine = z.infer<typeof orderLineSchema>;

export const historyEntrySchema = z.object({
  status: z.enum(orderStatuses),
  /** ISO 8601. */
  at: z.string(),
  by: z.enum(actors),
  /** The owner's note (shipped) or the reason (cancelled). */
  note: z.string().nullable(),
  /** Only in the back office: the e-mail address of whoever made the change. */
  who: z.string().optional(),
});
export type HistoryEntry = z.infer<typeof historyEntrySchema>;

export const orderSummarySchema = z.object({
  number: z.string(),
  /** ISO 8601. */
  placedAt: z.string(),
  status: z.enum(orderStatuses),
  itemCount: z.number().int(),
  /** Its total, in cents of `currency` (its money's). */
  totalCents: z.number().int(),
  currency: z.string(),
  /** The e-mail address the order was placed with. */
  email: z.string(),
});
export type OrderSummary = z.infer<typeof orderSummarySchema>;

/** An order's money (pricing.ts's OrderMoney): one value, the order's `money`, copied whole by its documents. */
export const orderMoneySchema = z.object({
  currency: z.string(),
  subtotalCents: z.number().int(),
  shippingCents: z.number().int(),
  adjustments: z
    .array(z.object({ label: z.string(), amountCents: z.number().int(), code: z.string().optional() }))
    .optional(),
  taxLines: z
    .array(
      z.object({
        name: z.string(),
        rate: z.number().int(),
        baseCents: z.number().int(),
        amountCents: z.number().int(),
        included: z.boolean(),
      }),
    )
    .optional(),
  pricesExcludeTax: z.literal(true).optional(),
  /** The delivery method chosen, as it was when the order was placed; left out of orders placed before zones. */
  shippingMethod: z.object({ name: z.string(), estimate: z.string() }).optional(),
  taxCents: z.number().int(),
  netCents: z.number().int(),
  totalCents: z.number().int(),
}) satisfies z.ZodType<OrderMoney>;

/** An order whole: the summary's facts but its total, which its money holds with every other part of what it costs. */
export const orderSchema = orderSummarySchema.omit({ totalCents: true, currency: true }).extend({
  lines: z.array(orderLineSchema),
  money: orderMoneySchema,
  address: orderAddressSchema,
  paymentMethod: z.string(),
  /** How the order reaches the rider; left out when it is the one its payment method goes with (deliveryOf). */
  delivery: z.enum(deliveries).optional(),
  /** A card order's payment (docs/product.md §14); null for the other methods. */
  card: z
    .object({
      /** Until when the rider may pay (ISO 8601); the shop cancels the order after it. */
      payBy: z.string(),
      /** Stripe's id of the payment, once paid. */
      paymentId: z.string().nullable(),
      /** Stripe's id of the refund, once refunded. */
      refundId: z.string().nullable(),
    })
    .nullable(),
  /**
   * A bank-transfer order the shop has reminded to pay (docs/product.md §8): until when (ISO 8601, the end of the
   * shop's last day to pay); the shop cancels it unpaid after that, while the owner's 'Cancel unpaid orders' is on.
   * Left out until the reminder is sent.
   */
  reminder: z.object({ payBy: z.string() }).optional(),
  history: z.array(historyEntrySchema),
  /** Its invoice's number, once paid (docs/product.md §20); left out while it has none. */
  invoice: z.string().optional(),
  /** The number of the credit note that cancelled its invoice, once cancelled after it was paid. */
  creditNote: z.string().optional(),
  /**
   * What has been paid back of it in all, in cents (docs/product.md §25): 'Partly refunded' below the total,
   * 'Refunded' at it. Left out while nothing has been.
   */
  refundedCents: z.number().int().optional(),
});
export type Order = z.infer<typeof orderSchema>;

/**
 * Which page of a list of orders a query asks for, by key (docs/decisions/0043-the-order-list-by-key.md): the newest
 * orders when neither key is given; `before`, the orders numbered below it (older); `after`, those numbered above it.
 * A list's own filters extend it; `oneKey` then refuses a query that gives both.
 */
export const orderKeys = z.strictObject({ before: orderKey('before'), after: orderKey('after') });

export function oneKey<Query extends z.ZodType<{ before?: number; after?: number }>>(query: Query) {
  return query.refine(({ before, after }) => before === undefined || after === undefined, {
    message: 'Give before or after, not both.',
    path: ['after'],
  });
}

function orderKey(name: string) {
  return z
    .string()
    .transform((digits, context) => {
      const number = orderNumberOf(digits);
      if (number === undefined) context.addIssue({ code: 'custom', message: `${name} must be an order's number.` });
      return number ?? z.NEVER;
    })
    .optional();
}

/**
 * A page of orders, newest first, `limits.pageSize` at most: how many orders the list has, counted up to
 * `limits.orderCountMax` (`more` when it has more), and the keys of the pages beside it: `newer` to ask `after`,
 * `older` to ask `before`; null where there is none.
 */
export const orderPageSchema = z.object({
  orders: z.array(orderSummarySchema),
  total: z.number().int(),
  more: z.boolean(),
  newer: z.number().int().nullable(),
  older: z.number().int().nullable(),
});
export type OrderPage = z.infer<typeof orderPageSchema>;

/**
 * How an order reaches the rider, in words, for its page, its e-mails and the CSV: the delivery method it was placed
 * with and its estimate ('Standard, 3 to 5 working days'); for an order from before the zones, its delivery's name.
 */
export function deliveryText(order: Pick<Order, 'money' | 'paymentMethod' | 'delivery'>): string {
  const method = order.money.shippingMethod;
  if (method === undefined) return deliveryLabels[deliveryOf(order.paymentMethod, order.delivery)];
  return method.estimate === '' ? method.name : `${method.name}, ${method.estimate}`;
}
