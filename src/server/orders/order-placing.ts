import type { CartItem, Quote, QuoteQuery } from '../../shared/api';
import type { DiscountRefusal } from '../../shared/discounts';
import { errorCatalogue } from '../../shared/errors';
import { limits } from '../../shared/limits';
import { sumCents } from '../../shared/money';
import type { Order, PlaceOrder } from '../../shared/orders';
import { card, cardMinimumCents } from '../../shared/payment/card';
import { deliveryOf, nothingToPay } from '../../shared/payment/payment-methods';
import { notShippedMessage, type ShippingOption } from '../../shared/shipping';
import type { CartStore } from '../cart/cart-store';
import type { Db, UnitOfWork } from '../db/database';
import { isConstraintViolation } from '../db/errors';
import { type OrderEventTable, type OrderLineTable, sequences } from '../db/schema';
import type { Check, DiscountStore } from '../discounts/discount-store';
import type { Outbox } from '../mail/outbox';
import { priceCheckout } from '../pricing/pricing';
import type { SettingsStore } from '../settings/settings-store';
import { type StockStore, sizeKey, unitsOf } from '../stock/stock-store';
import { moneyColumns, type OrderRow, readOrder, toOrder } from './order-mapping';
import { type createMoves, shopActor } from './order-moves';
import { ordersTopic } from './order-topic';

type Moves = ReturnType<typeof createMoves>;

export type PlaceResult =
  | { ok: true; created: boolean; order: Order }
  | {
      ok: false;
      reason: 'cart-empty' | 'cart-changed' | 'no-user' | 'email-not-confirmed' | 'no-such-method' | 'card-minimum';
    }
  /** The address is outside every shipping zone (`country`: its code). */
  | { ok: false; reason: 'not-shipped'; country: string }
  /** The chosen method's price is not the one the page showed: `option` is the method as it is now. */
  | { ok: false; reason: 'shipping-changed'; option: ShippingOption }
  /** `rows`: the cart rows concerned (of a size sold out, without a size, or no longer sold). */
  | { ok: false; reason: 'sold-out' | 'size-missing' | 'unavailable'; rows: string[] }
  /** `retryAfter`: seconds until the oldest order of the last hour leaves the window. */
  | { ok: false; reason: 'too-many'; retryAfter: number }
  /** The discount code sent cannot be used (any more), and why; `minSubtotalCents` for `minimum`. */
  | { ok: false; reason: 'discount-unavailable'; why: DiscountRefusal; minSubtotalCents: number };

/** The checkout's quote, or why the discount code asked for cannot be used. */
export type QuoteResult = { ok: true; quote: Quote } | Extract<Check, { ok: false }>;

const hourMs = 60 * 60 * 1000;

/** Thrown inside the placing's transaction to roll back the stock it took: the order is refused with `result`. */
class Refused extends Error {
  constructor(readonly result: Extract<PlaceResult, { ok: false }>) {
    super(result.reason);
  }
}

const subtotalOf = (items: readonly CartItem[]) => sumCents(items.map((item) => item.priceCents));

export interface PlacingParts {
  db: Db;
  cart: CartStore;
  stock: StockStore;
  outbox: Pick<Outbox, 'enqueue'>;
  discounts: DiscountStore;
  settings: SettingsStore;
  cardPaymentMs: number;
  /** The time an order is placed at, and its hourly limit counted from (Date.now; the demo data's fill sets its own). */
  clock?: () => number;
  /** A move inside the order's own unit of work (order-moves.ts): an order that costs nothing is paid as it is placed. */
  moveWithin: Moves['moveWithin'];
}

/**
 * Placing an order (docs/product.md §8): from the cart, in one unit of work with the stock taken, the emptied cart,
 * the change events and the confirmation e-mail; and the checkout's quote, priced as `place` prices it.
 */
export function createPlacing(parts: PlacingParts) {
  const { db, cart, stock, outbox, discounts, settings, cardPaymentMs, clock = Date.now, moveWithin } = parts;
  // The placing's queries, compiled once (src/server/db/precompiled.ts): it is the busiest write of the shop.
  // In one look at the orders of the rider and of the rider's e-mail address: the one this key made, if any, and how
  // many were placed for the address since `since`. The hourly cap counts by address, not by account, so that
  // deleting the account and signing up again with the address starts nothing afresh: detached orders keep it.
  const ordersOf = db.precompile(4, (uid: string, key: string, email: string, since: number) =>
    db.kysely
      .selectFrom('shop_order')
      .select((eb) => {
        const recentForEmail = eb.and([eb('email', '=', email), eb('placed_at', '>', since)]);
        return [
          eb.fn
            .max(
              eb
                .case()
                .when(eb.and([eb('uid', '=', uid), eb('idempotency_key', '=', key)]))
                .then(eb.ref('number'))
                .end(),
            )
            .as('earlier'),
          eb.fn.sum<number | string>(eb.case().when(recentForEmail).then(1).else(0).end()).as('count'),
          eb.fn.min(eb.case().when(recentForEmail).then(eb.ref('placed_at')).end()).as('oldest'),
        ];
      })
      .where((eb) => eb.or([eb('uid', '=', uid), eb('email', '=', email)])),
  );
  const accountOf = db.precompile(1, (uid: string) =>
    db.kysely.selectFrom('user').select(['email', 'emailVerified']).where('id', '=', uid),
  );
  const insertOrder = db.precompileInsert('shop_order', {
    number: true,
    uid: true,
    email: true,
    idempotency_key: true,
    status: true,
    payment_method: true,
    delivery: true,
    full_name: true,
    line1: true,
    line2: true,
    city: true,
    region: true,
    postal_code: true,
    country: true,
    phone: true,
    money: true,
    total_cents: true,
    shipping_cents: true,
    item_count: true,
    placed_at: true,
    payment_id: true,
    refund_id: true,
    refund_started_at: true,
    card_lease_until: true,
    pay_by: true,
  });
  const insertLine = db.precompileInsert('order_line', {
    order_number: true,
    position: true,
    itemid: true,
    name: true,
    price_cents: true,
    size: true,
    size_key: true,
    discount_cents: true,
    tax_cents: true,
    placed_at: true,
  });
  const insertEvent = db.precompileInsert('order_event', {
    order_number: true,
    seq: true,
    status: true,
    at: true,
    by_role: true,
    by_uid: true,
    by_email: true,
    note: true,
  });

  async function place(rider: { uid: string; email: string }, input: PlaceOrder): Promise<PlaceResult> {
    const { uid } = rider;
    return db.run(async (uow) => {
      // Checkouts and cart changes of one rider run one after the other, on every server.
      await uow.lock('cart', uid);
      const now = clock();
      const [mine] = await ordersOf(uow.trx, uid, input.idempotencyKey, rider.email, now - hourMs);
      if (mine?.earlier !== null && mine?.earlier !== undefined) {
        const order = await readOrder(uow.trx, Number(mine.earlier), { forOwner: false, cardPaymentMs });
        if (order) return { ok: true, created: false, order } as const;
      }
      // Read in the order's own transaction, so that a change of address just made counts (docs/product.md §15): the
      // order goes to the address confirmed, whatever the session remembered.
      const [user] = await accountOf(uow.trx, uid);
      if (!user) return { ok: false, reason: 'no-user' } as const;
      if (!user.emailVerified) return { ok: false, reason: 'email-not-confirmed' } as const;
      if (Number(mine?.count ?? 0) >= limits.ordersPerHour) {
        const retryAfter = Math.max(1, Math.ceil((Number(mine?.oldest) + hourMs - now) / 1000));
        return { ok: false, reason: 'too-many', retryAfter } as const;
      }

      const weighed = await cart.weighed({ uid }, uow);
      const { items } = weighed;
      if (items.length === 0) return { ok: false, reason: 'cart-empty' } as const;
      const seen = new Set(input.cartItemIds);
      if (seen.size !== input.cartItemIds.length || seen.size !== items.length || items.some((i) => !seen.has(i.id))) {
        return { ok: false, reason: 'cart-changed' } as const;
      }
      // The code is checked again here, in the order's transaction; its use is counted below, once the stock is taken.
      const checked =
        input.discountCode === undefined
          ? undefined
          : await discounts.check(input.discountCode, subtotalOf(items), user.email, uow, now);
      if (checked && !checked.ok) {
        const { reason: why, minSubtotalCents } = checked;
        return { ok: false, reason: 'discount-unavailable', why, minSubtotalCents } as const;
      }
      const delivery = deliveryOf(input.paymentMethod, input.delivery);
      // Shipping and tax as the settings and the rows' weights are in this transaction, never as the browser says.
      const shop = await settings.inside(uow);
      const discount = checked?.usable.discount;
      const priced = priceCheckout(shop, {
        cart: weighed,
        delivery,
        place: input.address,
        methodId: input.shippingMethod,
        ...(discount ? { discount } : {}),
      });
      const { chosen, money, lineShares } = priced;
      if (priced.problem) return { ok: false, ...priced.problem } as const;
      if (chosen === undefined) return { ok: false, reason: 'no-such-method' } as const;
      // The owner changed the method's price since the page showed it: the rider sees the new price first.
      if (input.shippingCents !== undefined && input.shippingCents !== chosen.cents) {
        return { ok: false, reason: 'shipping-changed', option: chosen } as const;
      }
      // The owner changed a price or a tax rate since the page showed its quote: the rider confirms the new total first.
      if (input.totalCents !== money.totalCents) {
        return { ok: false, reason: 'cart-changed' } as const;
      }
      // Stripe takes no card payment below its minimum; an order that costs nothing needs none (below).
      if (input.paymentMethod === card.id && money.totalCents > 0 && money.totalCents < cardMinimumCents) {
        return { ok: false, reason: 'card-minimum' } as const;
      }
      const unavailable = items.filter((item) => !item.available);
      if (unavailable.length > 0) {
        return { ok: false, reason: 'unavailable', rows: unavailable.map((i) => i.id) } as const;
      }
      const sizeless = items.filter((item) => item.size === null);
      if (sizeless.length > 0) return { ok: false, reason: 'size-missing', rows: sizeless.map((i) => i.id) } as const;

      // The stock of every row, or none: a size with fewer left than the rows ask for refuses the whole order.
      const sized = items.map((item) => ({ ...item, size: item.size as string }));
      const { short, keys } = await stock.take(uow, unitsOf(sized));
      if (short.length > 0) {
        const soldOut = (item: (typeof sized)[number]) =>
          short.some((units) => units.itemid === item.itemid && units.size === item.size);
        throw new Refused({ ok: false, reason: 'sold-out', rows: sized.filter(soldOut).map((item) => item.id) });
      }

      const number = await uow.next(sequences.orderNumber);
      const { address } = input;
      const row: OrderRow = {
        number,
        uid,
        email: user.email,
        idempotency_key: input.idempotencyKey,
        status: 'placed',
        payment_method: input.paymentMethod,
        delivery,
        full_name: address.fullName,
        line1: address.line1,
        line2: address.line2,
        city: address.city,
        region: address.region,
        postal_code: address.postalCode,
        country: address.country,
        phone: address.phone,
        ...moneyColumns(money),
        item_count: items.length,
        placed_at: now,
        payment_id: null,
        refund_id: null,
        refund_started_at: null,
        card_lease_until: null,
        pay_by: null,
      };
      const lines: OrderLineTable[] = items.map((item, index) => ({
        order_number: number,
        position: index + 1,
        itemid: item.itemid,
        name: item.name,
        price_cents: item.priceCents,
        size: item.size,
        size_key: item.size === null ? null : (keys.get(sizeKey({ itemid: item.itemid, size: item.size })) ?? null),
        // Its share of the discount and tax, spread by the pricing in this transaction (docs/product.md §8).
        discount_cents: lineShares[index]?.discountCents ?? 0,
        tax_cents: lineShares[index]?.taxCents ?? 0,
        placed_at: now,
      }));
      const placed: OrderEventTable = {
        order_number: number,
        seq: 1,
        status: 'placed',
        at: now,
        by_role: 'rider',
        by_uid: uid,
        by_email: user.email,
        note: null,
      };
      await insertOrder(uow.trx, row);
      // The use, counted by the database: of two orders for the last use, the second is refused here.
      if (checked) {
        const why = await discounts.redeem(uow, checked.usable, number, user.email);
        if (why) throw new Refused({ ok: false, reason: 'discount-unavailable', why, minSubtotalCents: 0 });
      }
      for (const line of lines) await insertLine(uow.trx, line);
      await insertEvent(uow.trx, placed);
      await cart.empty(uow, { uid });
      // The order as a read would give it, from the rows just written.
      const order = toOrder(row, lines, [placed], false, cardPaymentMs);
      await outbox.enqueue(uow, 'order-confirmation', user.email, { order });
      uow.publish(ordersTopic, { type: 'placed', number, status: 'placed', uid });
      if (money.totalCents > 0) return { ok: true, created: true, order } as const;
      // Nothing to pay (a code took it all): paid by the shop as it is placed, with its invoice, never sent to Stripe.
      const paid = await moveWithin(uow, number, 'paid', shopActor, { note: nothingToPay, from: 'placed' });
      if (!paid.ok) throw new Error(`Order ${number}, which costs nothing, could not be marked paid: ${paid.reason}.`);
      return { ok: true, created: true, order: paid.order } as const;
    });
  }

  return {
    /**
     * Turns the rider's cart into an order, unless the key already made one (that order is answered again), the
     * rider ordered too often, the cart is empty or not the rows the rider saw, or a row's size is sold out (nothing
     * is then taken) or missing.
     */
    async place(rider: { uid: string; email: string }, input: PlaceOrder): Promise<PlaceResult> {
      try {
        return await place(rider, input);
      } catch (error) {
        if (error instanceof Refused) return error.result;
        // The account was deleted while the order was being placed.
        if (isConstraintViolation(error, 'foreignKey')) return { ok: false, reason: 'no-user' };
        throw error;
      }
    },

    /**
     * The rider's cart as the checkout shows it, with the delivery methods for the address and what the order costs
     * with the one chosen (the first, when the one named is no longer offered) and the discount code given, if any:
     * `place` charges exactly this. Outside every zone, or with no method for the cart, the goods alone and why; a
     * code that cannot be used, why. Inside `uow` when given (the demo data's fill, whose cart is in its batch).
     */
    async quote(
      rider: { uid: string; email: string },
      { delivery, country, region, postalCode, method, discountCode }: QuoteQuery,
      uow?: UnitOfWork,
    ): Promise<QuoteResult> {
      const weighed = await cart.weighed({ uid: rider.uid }, uow);
      const { items } = weighed;
      const checked =
        discountCode === undefined
          ? undefined
          : await discounts.check(discountCode, subtotalOf(items), rider.email, uow);
      if (checked && !checked.ok) return checked;
      const discount = checked?.usable.discount;
      const priced = priceCheckout(await settings.current(uow), {
        cart: weighed,
        delivery,
        place: { country, region, postalCode },
        ...(method === undefined ? {} : { methodId: method }),
        ...(discount ? { discount } : {}),
      });
      // A method no longer offered gives way to the first that is; with none, the goods alone and why.
      const { options, chosen, money, problem } = priced;
      if (chosen) return { ok: true, quote: { items, money, shipping: { options, chosen: chosen.id } } };
      const refusal =
        problem?.reason === 'not-shipped'
          ? notShippedMessage(country)
          : errorCatalogue['order/invalid-shipping-method'].message;
      return { ok: true, quote: { items, money, shipping: { options: [], chosen: null, refusal } } };
    },
  };
}
