import { type Kysely, type Selectable, sql } from 'kysely';
import type { CartItem, Quote } from '../../shared/api';
import { type Delivery, shippingRateOf } from '../../shared/delivery';
import { limits } from '../../shared/limits';
import {
  type Actor,
  canMove,
  formatOrderNumber,
  type HistoryEntry,
  type Order,
  type OrderPage,
  type OrderStatus,
  type OrderSummary,
  orderMoneySchema,
  orderNumberOf,
  type PlaceOrder,
} from '../../shared/orders';
import { card } from '../../shared/payment/card';
import { deliveryOf } from '../../shared/payment/payment-methods';
import { type Breakdown, moneyOf, type OrderMoney, priceOrder } from '../../shared/pricing';
import { settings } from '../../shared/settings';
import type { CartStore } from '../cart/cart-store';
import { topic } from '../db/change-feed';
import type { Db, UnitOfWork } from '../db/database';
import { isConstraintViolation } from '../db/errors';
import { pageCount, rowsOfPage } from '../db/paging';
import { type OrderEventTable, type OrderLineTable, type ShopOrderTable, sequences, type Tables } from '../db/schema';
import type { Outbox } from '../mail/outbox';
import { returnedOf, type StockStore, sizeKey, unitsOf } from '../stock/stock-store';

/** Every order change, on every server: the owners' live list and the rider's order page follow it. */
export type OrderChange = { type: 'placed' | 'moved'; number: number; status: OrderStatus; uid: string | null };
export const ordersTopic = topic<OrderChange>('orders');

/** Whoever acts on an order: the rider it belongs to, an owner, or the shop itself (`uid` null, `email` a name). */
export interface ActingUser {
  uid: string | null;
  email: string;
  role: Actor;
}

export type PlaceResult =
  | { ok: true; created: boolean; order: Order }
  | { ok: false; reason: 'cart-empty' | 'cart-changed' | 'no-user' | 'email-not-confirmed' }
  /** `rows`: the cart rows concerned (of a size sold out, without a size, or no longer sold). */
  | { ok: false; reason: 'sold-out' | 'size-missing' | 'unavailable'; rows: string[] }
  /** `retryAfter`: seconds until the oldest order of the last hour leaves the window. */
  | { ok: false; reason: 'too-many'; retryAfter: number };

export type MoveResult =
  | { ok: true; order: Order }
  | { ok: false; reason: 'not-found' | 'invalid-transition' | 'status-changed'; status?: OrderStatus }
  /** A refund has been asked of Stripe: the order cannot ship. */
  | { ok: false; reason: 'busy' };

/** What a move records of a card payment at Stripe, with the move. */
export interface CardFacts {
  paymentId?: string;
  refundId?: string;
}

/** Which orders a list shows, and which page of them. */
export interface OrderFilter {
  /** Only the orders of this rider (the rider's own list); all orders for an owner. */
  uid?: string;
  status?: OrderStatus;
  /** An order number (`PF-10001` or `10001`) or part of an e-mail address. */
  search?: string;
  page: number;
}

const hourMs = 60 * 60 * 1000;

export interface MoveOptions {
  /** The owner's note (shipped) or the reason (cancelled). */
  note?: string;
  /** The status the actor saw. */
  from?: OrderStatus;
  /** What to keep of the card payment with the move. */
  card?: CardFacts;
}

/** Thrown inside the placing's transaction to roll back the stock it took: the order is refused with `result`. */
class Refused extends Error {
  constructor(readonly result: Extract<PlaceResult, { ok: false }>) {
    super(result.reason);
  }
}

type OrderRow = Selectable<ShopOrderTable>;

/** What the shop charges for these cart rows so delivered: the checkout's quote, and the same again in `place`. */
function quoteOf(items: readonly CartItem[], delivery: Delivery): Breakdown {
  return priceOrder({
    lineCents: items.map((item) => item.priceCents),
    shipping: shippingRateOf(delivery, settings.shipping),
    adjustments: [],
  });
}

const storedMoneySchema = orderMoneySchema.omit({ totalCents: true });

/** An order's money as its row keeps it: the parts as JSON, the total in a column of its own for SQL to read. */
function moneyColumns({ totalCents, ...parts }: OrderMoney): Pick<ShopOrderTable, 'money' | 'total_cents'> {
  return { money: JSON.stringify(parts), total_cents: totalCents };
}

function moneyOfRow(row: Pick<OrderRow, 'money' | 'total_cents'>): OrderMoney {
  return { ...storedMoneySchema.parse(JSON.parse(row.money)), totalCents: Number(row.total_cents) };
}

function toSummary(row: OrderRow): OrderSummary {
  return {
    number: formatOrderNumber(Number(row.number)),
    placedAt: new Date(Number(row.placed_at)).toISOString(),
    status: row.status as OrderStatus,
    itemCount: Number(row.item_count),
    totalCents: Number(row.total_cents),
    email: row.email,
  };
}

function toOrder(
  row: OrderRow,
  lines: OrderLineTable[],
  events: OrderEventTable[],
  forOwner: boolean,
  cardPaymentMs: number,
): Order {
  return {
    ...toSummary(row),
    lines: lines.map((line) => ({
      itemid: line.itemid,
      name: line.name,
      priceCents: Number(line.price_cents),
      size: line.size,
    })),
    ...moneyOfRow(row),
    address: {
      fullName: row.full_name,
      line1: row.line1,
      line2: row.line2,
      city: row.city,
      region: row.region,
      postalCode: row.postal_code,
      country: row.country,
      phone: row.phone,
    },
    paymentMethod: row.payment_method,
    ...(row.delivery !== deliveryOf(row.payment_method) ? { delivery: row.delivery as Delivery } : {}),
    card:
      row.payment_method === card.id
        ? {
            payBy: new Date(Number(row.placed_at) + cardPaymentMs).toISOString(),
            paymentId: row.payment_id,
            refundId: row.refund_id,
          }
        : null,
    history: events.map(
      (event): HistoryEntry => ({
        status: event.status as OrderStatus,
        at: new Date(Number(event.at)).toISOString(),
        by: event.by_role as Actor,
        note: event.note,
        ...(forOwner ? { who: event.by_email } : {}),
      }),
    ),
  };
}

/** `%`, `_` and `\` taken literally in a LIKE pattern. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

export type OrderStore = ReturnType<typeof createOrderStore>;

export interface OrderStoreParts {
  db: Db;
  cart: CartStore;
  stock: StockStore;
  outbox: Outbox;
  /** How long a card order waits for its payment (CARD_PAYMENT_MINUTES). */
  cardPaymentMs: number;
}

/**
 * Orders (docs/product.md §8): placed from the cart in one unit of work with the emptied cart, the change events
 * and the confirmation e-mail; moved from status to status by the rules of src/shared/orders.ts, each move kept in
 * the history and e-mailed. See docs/decisions/0015-orders.md.
 */
export function createOrderStore({ db, cart, stock, outbox, cardPaymentMs }: OrderStoreParts) {
  async function read(executor: Kysely<Tables>, number: number, forOwner: boolean, uid?: string) {
    let query = executor.selectFrom('shop_order').selectAll().where('number', '=', number);
    if (uid !== undefined) query = query.where('uid', '=', uid);
    const row = await query.executeTakeFirst();
    if (!row) return undefined;
    const lines = await executor
      .selectFrom('order_line')
      .selectAll()
      .where('order_number', '=', number)
      .orderBy('position')
      .execute();
    const events = await executor
      .selectFrom('order_event')
      .selectAll()
      .where('order_number', '=', number)
      .orderBy('seq')
      .execute();
    return toOrder(row, lines, events, forOwner, cardPaymentMs);
  }

  /** Where e-mails about an order go: the account's address, or the one it was placed with once the account is gone. */
  async function recipientOf(uow: UnitOfWork, order: { uid: string | null; email: string }): Promise<string> {
    if (order.uid === null) return order.email;
    const user = await uow.trx.selectFrom('user').select('email').where('id', '=', order.uid).executeTakeFirst();
    return user?.email ?? order.email;
  }

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
    item_count: true,
    placed_at: true,
    payment_id: true,
    refund_id: true,
    refund_started_at: true,
    card_lease_until: true,
  });
  const insertLine = db.precompileInsert('order_line', {
    order_number: true,
    position: true,
    itemid: true,
    name: true,
    price_cents: true,
    size: true,
    size_key: true,
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
      const now = Date.now();
      const [mine] = await ordersOf(uow.trx, uid, input.idempotencyKey, rider.email, now - hourMs);
      if (mine?.earlier !== null && mine?.earlier !== undefined) {
        const order = await read(uow.trx, Number(mine.earlier), false);
        if (order) return { ok: true, created: false, order } as const;
      }
      // Read in the order's own transaction, so that a change of address just made counts (docs/product.md §15): the
      // order goes to the address confirmed, whatever the session remembered.
      const user = await uow.trx
        .selectFrom('user')
        .select(['email', 'emailVerified'])
        .where('id', '=', uid)
        .executeTakeFirst();
      if (!user) return { ok: false, reason: 'no-user' } as const;
      if (!user.emailVerified) return { ok: false, reason: 'email-not-confirmed' } as const;
      if (Number(mine?.count ?? 0) >= limits.ordersPerHour) {
        const retryAfter = Math.max(1, Math.ceil((Number(mine?.oldest) + hourMs - now) / 1000));
        return { ok: false, reason: 'too-many', retryAfter } as const;
      }

      const items = await cart.list(uid, uow);
      if (items.length === 0) return { ok: false, reason: 'cart-empty' } as const;
      const seen = new Set(input.cartItemIds);
      if (seen.size !== input.cartItemIds.length || seen.size !== items.length || items.some((i) => !seen.has(i.id))) {
        return { ok: false, reason: 'cart-changed' } as const;
      }
      const delivery = deliveryOf(input.paymentMethod, input.delivery);
      const totals = quoteOf(items, delivery);
      // The owner changed a price since the page showed its quote: the rider confirms the new total first.
      if (input.totalCents !== undefined && input.totalCents !== totals.totalCents) {
        return { ok: false, reason: 'cart-changed' } as const;
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
        ...moneyColumns(moneyOf(totals)),
        item_count: items.length,
        placed_at: now,
        payment_id: null,
        refund_id: null,
        refund_started_at: null,
        card_lease_until: null,
      };
      const lines: OrderLineTable[] = items.map((item, index) => ({
        order_number: number,
        position: index + 1,
        itemid: item.itemid,
        name: item.name,
        price_cents: item.priceCents,
        size: item.size,
        size_key: item.size === null ? null : (keys.get(sizeKey({ itemid: item.itemid, size: item.size })) ?? null),
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
      for (const line of lines) await insertLine(uow.trx, line);
      await insertEvent(uow.trx, placed);
      await cart.empty(uow, uid);
      // The order as a read would give it, from the rows just written.
      const order = toOrder(row, lines, [placed], false, cardPaymentMs);
      await outbox.enqueue(uow, 'order-confirmation', user.email, { order });
      uow.publish(ordersTopic, { type: 'placed', number, status: 'placed', uid });
      return { ok: true, created: true, order } as const;
    });
  }

  async function moveWithin(
    uow: UnitOfWork,
    number: number,
    to: OrderStatus,
    actor: ActingUser,
    { note = '', from, card: facts = {} }: MoveOptions = {},
  ): Promise<MoveResult> {
    let query = uow.trx
      .selectFrom('shop_order')
      .select(['uid', 'email', 'status', 'payment_method'])
      .where('number', '=', number);
    if (actor.role === 'rider') query = query.where('uid', '=', actor.uid);
    const row = await query.executeTakeFirst();
    if (!row) return { ok: false, reason: 'not-found' } as const;
    const status = row.status as OrderStatus;
    if (from !== undefined && from !== status) return { ok: false, reason: 'status-changed', status } as const;
    if (!canMove(status, to, actor.role, row.payment_method)) {
      return { ok: false, reason: 'invalid-transition', status } as const;
    }
    // Only from the status just read: of two moves at once, the second finds it changed and moves nothing.
    let update = uow.trx
      .updateTable('shop_order')
      .set({
        status: to,
        ...(facts.paymentId ? { payment_id: facts.paymentId } : {}),
        ...(facts.refundId ? { refund_id: facts.refundId } : {}),
      })
      .where('number', '=', number)
      .where('status', '=', status);
    // Not once a refund has been asked of Stripe (src/server/payments/card-payments.ts).
    if (to === 'shipped') update = update.where('refund_started_at', 'is', null);
    const moved = await update.executeTakeFirst();
    if (Number(moved.numUpdatedRows) === 0) {
      const now = await uow.trx
        .selectFrom('shop_order')
        .select('status')
        .where('number', '=', number)
        .executeTakeFirst();
      if (to === 'shipped' && now?.status === status) return { ok: false, reason: 'busy' } as const;
      // Another move won. An owner who named the status seen is told it changed; otherwise the move is judged
      // from the status now, as if it had come second (which it did).
      const reason = from === undefined ? 'invalid-transition' : 'status-changed';
      return { ok: false, reason, status: (now?.status ?? status) as OrderStatus } as const;
    }
    const { last } = await uow.trx
      .selectFrom('order_event')
      .select((eb) => eb.fn.max('seq').as('last'))
      .where('order_number', '=', number)
      .executeTakeFirstOrThrow();
    await uow.trx
      .insertInto('order_event')
      .values({
        order_number: number,
        seq: Number(last ?? 0) + 1,
        status: to,
        at: Date.now(),
        by_role: actor.role,
        by_uid: actor.uid,
        by_email: actor.email,
        note: note || null,
      })
      .execute();
    const order = await read(uow.trx, number, actor.role === 'owner');
    if (!order) throw new Error(`Order ${number} vanished inside the transaction that moved it.`);
    // Once only: of two cancels at once, the second moved nothing above and never gets here.
    if (to === 'cancelled') {
      const lines = await uow.trx
        .selectFrom('order_line')
        .select(['itemid', 'size', 'size_key'])
        .where('order_number', '=', number)
        .where('size', 'is not', null)
        .execute();
      const sized = lines.map(({ itemid, size, size_key }) => ({ itemid, size: size as string, key: size_key }));
      await stock.giveBack(uow, returnedOf(sized));
    }
    const recipient = await recipientOf(uow, row);
    if (to === 'paid') await outbox.enqueue(uow, 'order-paid', recipient, { order });
    else if (to === 'shipped') await outbox.enqueue(uow, 'order-shipped', recipient, { order, note });
    else if (to === 'cancelled')
      await outbox.enqueue(uow, 'order-cancelled', recipient, { order, note, by: actor.role });
    uow.publish(ordersTopic, { type: 'moved', number, status: to, uid: row.uid });
    return { ok: true, order } as const;
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

    /** The rider's cart as the checkout shows it, with what it costs: `place` charges exactly this. */
    async quote(uid: string, delivery: Delivery): Promise<Quote> {
      const items = await cart.list(uid);
      return { items, money: moneyOf(quoteOf(items, delivery)) };
    },

    /** One order; with `uid`, only if it is that rider's (another rider's number is simply not found). */
    get(number: number, { uid, forOwner = false }: { uid?: string; forOwner?: boolean }): Promise<Order | undefined> {
      return read(db.kysely, number, forOwner, uid);
    },

    /** A page of orders, newest first. */
    async list({ uid, status, search, page }: OrderFilter): Promise<OrderPage> {
      let query = db.kysely.selectFrom('shop_order');
      if (uid !== undefined) query = query.where('uid', '=', uid);
      if (status) query = query.where('status', '=', status);
      const term = search?.trim().toLowerCase();
      if (term) {
        const prefix = settings.orderNumber.prefix.toLowerCase();
        const number = orderNumberOf(term.startsWith(prefix) ? term.slice(prefix.length) : term);
        query = query.where((eb) =>
          eb.or([
            // A backslash escapes LIKE's wildcards: SQLite has no escape character unless told.
            sql<boolean>`${eb.ref('email')} like ${`%${likeLiteral(term)}%`} escape '\\'`,
            ...(number !== undefined ? [eb('number', '=', number)] : []),
          ]),
        );
      }
      const { count } = await query
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .executeTakeFirstOrThrow();
      const total = Number(count);
      const { limit, offset } = rowsOfPage(page);
      const rows = await query.selectAll().orderBy('number', 'desc').limit(limit).offset(offset).execute();
      return { orders: rows.map(toSummary), page, pages: pageCount(total), total };
    },

    /** Every order placed from `from` until before `until` (epoch ms), oldest first, each with its lines. */
    async placedBetween(from: number, until: number): Promise<Order[]> {
      const inRange = db.kysely.selectFrom('shop_order').where('placed_at', '>=', from).where('placed_at', '<', until);
      const rows = await inRange.selectAll().orderBy('number').execute();
      const lines = await db.kysely
        .selectFrom('order_line')
        .selectAll()
        .where('order_number', 'in', inRange.select('number'))
        .orderBy('order_number')
        .orderBy('position')
        .execute();
      const linesOf = new Map<number, OrderLineTable[]>();
      for (const line of lines) {
        const number = Number(line.order_number);
        const ofOrder = linesOf.get(number);
        if (ofOrder) ofOrder.push(line);
        else linesOf.set(number, [line]);
      }
      return rows.map((row) => toOrder(row, linesOf.get(Number(row.number)) ?? [], [], true, cardPaymentMs));
    },

    /**
     * Moves an order to `to`, if the rules allow `actor` that move from its status now; `from`, when given, is the
     * status the actor saw, and a different one is refused (someone else moved it meanwhile). The move is kept in
     * the history and e-mailed to the rider, in one unit of work. A rider reaches only their own orders.
     */
    move(number: number, to: OrderStatus, actor: ActingUser, options: MoveOptions = {}): Promise<MoveResult> {
      return db.run((uow) => moveWithin(uow, number, to, actor, options));
    },

    /** `move`, inside a unit of work of the caller's (Stripe's webhook records its event in the same one). */
    moveWithin,
  };
}
