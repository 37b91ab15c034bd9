// The orders of the demo data (`npm run demo-data`, docs/decisions/0046-a-big-shop.md): two years of a shop's orders,
// planned from the seed, then placed from the riders' carts and moved by the shop's own rules, in the order they
// happened, with the clock of the order store set to each step's time.
import { limits } from '../../shared/limits';
import { type OrderStatus, parseOrderNumber, placeOrderSchema } from '../../shared/orders';
import { deliveryOf } from '../../shared/payment/payment-methods';
import type { CartStore } from '../cart/cart-store';
import type { BatchingDb } from '../db/database';
import type { ActingUser } from '../orders/order-moves';
import type { OrderStore } from '../orders/order-store';
import { type Returned, type StockStore, sizeKey, unitsOf } from '../stock/stock-store';
import { between, pick, random } from './random';
import type { DemoRider } from './riders';

const minuteMs = 60 * 1000;
const hourMs = 60 * minuteMs;
export const dayMs = 24 * hourMs;
/** The orders are spread over the two years before the fill. */
export const spanMs = 730 * dayMs;

/** A product orders may take: its item number and the names of its sizes. */
export interface ShelfProduct {
  itemid: string;
  sizes: readonly string[];
}

interface PlannedOrder {
  /** The rider's place in the list of riders. */
  rider: number;
  lines: { itemid: string; size: string }[];
  paymentMethod: 'bank-transfer' | 'collection';
  /** Its number, once placed. */
  number?: number;
}

/** One thing that happens to an order, at `at` (epoch ms): it is placed, or moved to `to` by its rider or the owner. */
type Step = { at: number; order: number } & (
  | { kind: 'place' }
  | { kind: 'move'; to: OrderStatus; by: 'rider' | 'owner'; note: string }
);

export interface OrderPlan {
  orders: PlannedOrder[];
  /** Every step of every order, in the order they happen. */
  steps: Step[];
  /** When each rider placed a first order, by the rider's place; undefined for a rider who ordered nothing. */
  firstOrderAt: (number | undefined)[];
}

/** How many lines an order has: one for half of them, up to four. */
const lineCounts = [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 3, 3, 3, 4];
const riderReasons = ['Ordered the wrong size.', 'Found one at a show.', 'Ordered twice by mistake.'];

/**
 * The steps after an order's placing, by the rules of a bank transfer or a collection: most are paid and then shipped
 * (handed over, for a collection); some are cancelled by the rider before paying, some never paid and cancelled by the
 * owner after the week the shop gives, a few refunded once paid. Steps that would come after `end` have not happened
 * yet: the order waits where it is (the last days' orders are placed or paid).
 */
function fateOf(next: () => number, order: number, placedAt: number, paymentMethod: string, end: number): Step[] {
  const steps: Step[] = [];
  const move = (at: number, to: OrderStatus, by: 'rider' | 'owner', note = '') => {
    if (at <= end) steps.push({ at, order, kind: 'move', to, by, note });
  };
  const fate = next();
  if (fate < 0.05) {
    move(placedAt + between(next, 10, 24 * 60) * minuteMs, 'cancelled', 'rider', pick(next, riderReasons));
    return steps;
  }
  if (paymentMethod === 'collection') {
    const collected = placedAt + between(next, 1, 14) * dayMs + between(next, 9 * 60, 17 * 60) * minuteMs;
    move(collected, 'paid', 'owner');
    move(collected + 5 * minuteMs, 'shipped', 'owner', 'Collected at the yard.');
    return steps;
  }
  if (fate < 0.08) {
    move(placedAt + 8 * dayMs, 'cancelled', 'owner', 'Not paid in time.');
    return steps;
  }
  const paid = placedAt + between(next, 12 * 60, 6 * 24 * 60) * minuteMs;
  move(paid, 'paid', 'owner');
  const later = paid + between(next, 1, 3) * dayMs;
  if (next() < 0.02) move(later, 'cancelled', 'owner', 'Refunded: the maker cannot deliver this size.');
  else move(later, 'shipped', 'owner', `Tracking 1Z${String(between(next, 0, 99_999_999)).padStart(8, '0')}`);
  return steps;
}

/**
 * The `count` orders of `seed` over the two years before `end`, more of them lately (a shop that grows): each by a
 * rider who has not reached the hourly limit of orders (the rules' `limits.ordersPerHour`), of one to four lines from
 * `shelf` (the first products the likeliest: a shop has its best sellers), with its steps.
 */
export function planOrders(
  seed: number,
  { count, riders, shelf, end }: { count: number; riders: number; shelf: readonly ShelfProduct[]; end: number },
): OrderPlan {
  const next = random(seed);
  const orders: PlannedOrder[] = [];
  const steps: Step[] = [];
  const firstOrderAt: (number | undefined)[] = Array.from({ length: riders }, () => undefined);
  /** Each rider's orders of the last hour, while the plan goes forward in time. */
  const lastHour = new Map<number, number[]>();
  for (let n = 0; n < count; n++) {
    const placedAt = Math.round(end - spanMs + spanMs * Math.sqrt((n + next()) / count));
    let rider = Math.floor(next() * riders);
    for (let tried = 1; ; tried++) {
      const recent = (lastHour.get(rider) ?? []).filter((at) => at > placedAt - hourMs);
      lastHour.set(rider, recent);
      if (recent.length < limits.ordersPerHour) break;
      if (tried === riders) {
        throw new Error(
          `${count} orders are too many for ${riders} riders: at most ${limits.ordersPerHour} an hour each.`,
        );
      }
      rider = (rider + 1) % riders;
    }
    lastHour.get(rider)?.push(placedAt);
    firstOrderAt[rider] ??= placedAt;
    const lines = Array.from({ length: pick(next, lineCounts) }, () => {
      const product = shelf[Math.floor(shelf.length * next() ** 2)] as ShelfProduct;
      return { itemid: product.itemid, size: pick(next, product.sizes) };
    });
    const paymentMethod = next() < 0.8 ? 'bank-transfer' : 'collection';
    orders.push({ rider, lines, paymentMethod });
    steps.push({ at: placedAt, order: n, kind: 'place' }, ...fateOf(next, n, placedAt, paymentMethod, end));
  }
  // In the order they happen; steps at the same moment in the order planned (the sort is stable).
  steps.sort((a, b) => a.at - b.at);
  return { orders, steps, firstOrderAt };
}

/** Steps run in one unit of work. */
const stepsPerBatch = 1000;

export interface PlanParts {
  db: BatchingDb;
  cart: CartStore;
  stock: StockStore;
  /** Made on `db`, with `tick`'s time as its clock. */
  orders: OrderStore;
  /** Sets the order store's clock. */
  tick: (at: number) => void;
  /** Who moves orders for the shop. */
  owner: ActingUser;
  /** Brings the database planner's statistics up to date; run between batches whenever the orders have doubled. */
  analyze: () => Promise<void>;
}

/**
 * Runs the plan's steps in order, a batch to a unit of work: each order is placed from its rider's cart (the rows
 * added, then the checkout), then moved. An order is never refused: a size it finds short is restocked first, by as
 * many as the size had when the orders began (or just enough, for a size that was sold out then), as a shop restocks
 * what sells; anything else refused is a mistake of the plan and ends the fill.
 */
export async function runPlan(
  { db, cart, stock, orders, tick, owner, analyze }: PlanParts,
  plan: OrderPlan,
  riders: readonly DemoRider[],
): Promise<void> {
  /** Each size's stock as the fill leaves it, and as it was before the first order. */
  const shelf = new Map<string, { left: number; first: number }>();
  for (const size of await stock.all()) shelf.set(sizeKey(size), { left: size.stock, first: size.stock });
  const sizeOf = (units: { itemid: string; size: string }) => {
    const found = shelf.get(sizeKey(units));
    if (!found) throw new Error(`No size ${units.size} of product ${units.itemid}.`);
    return found;
  };

  async function place(number: number, order: PlannedOrder) {
    const rider = riders[order.rider] as DemoRider & { uid: string };
    const units = unitsOf(order.lines);
    const restock: Returned[] = units.flatMap((wanted) => {
      const size = sizeOf(wanted);
      return size.left >= wanted.count ? [] : [{ ...wanted, key: null, count: wanted.count - size.left + size.first }];
    });
    if (restock.length > 0) await db.run((uow) => stock.giveBack(uow, restock));
    for (const { count, ...size } of restock) sizeOf(size).left += count;
    const cartItemIds: string[] = [];
    for (const line of order.lines) {
      const added = await cart.add({ uid: rider.uid }, line.itemid, line.size, limits.cartMaxRows);
      if (!added.ok) throw new Error(`A line of order ${number + 1} could not go into the cart: ${added.reason}.`);
      cartItemIds.push(added.item.id);
    }
    // The total the rider is shown, as the checkout's quote gives it.
    const delivery = deliveryOf(order.paymentMethod);
    const { country, region, postalCode } = rider.address;
    const quoted = await db.run((uow) => orders.quote(rider, { delivery, country, region, postalCode }, uow));
    if (!quoted.ok) throw new Error(`Order ${number + 1} could not be quoted: ${quoted.reason}.`);
    const input = placeOrderSchema.parse({
      address: rider.address,
      paymentMethod: order.paymentMethod,
      idempotencyKey: `demo-order-${String(number + 1).padStart(8, '0')}`,
      cartItemIds,
      totalCents: quoted.quote.money.totalCents,
    });
    const placed = await orders.place({ uid: rider.uid, email: rider.email }, input);
    if (!placed.ok) throw new Error(`Order ${number + 1} was refused: ${placed.reason}.`);
    order.number = parseOrderNumber(placed.order.number);
    for (const wanted of units) sizeOf(wanted).left -= wanted.count;
  }

  async function move(number: number, order: PlannedOrder, step: Extract<Step, { kind: 'move' }>) {
    if (order.number === undefined) throw new Error(`Order ${number + 1} was moved before it was placed.`);
    const rider = riders[order.rider] as DemoRider & { uid: string };
    const actor: ActingUser = step.by === 'rider' ? { uid: rider.uid, email: rider.email, role: 'rider' } : owner;
    const moved = await orders.move(order.number, step.to, actor, { note: step.note });
    if (!moved.ok) throw new Error(`Order ${number + 1} could not become ${step.to}: ${moved.reason}.`);
    if (step.to === 'cancelled') for (const units of unitsOf(order.lines)) sizeOf(units).left += units.count;
  }

  // A plan counted on tables of a few rows reads them whole once they hold thousands (PostgreSQL joined every
  // product to each cart's rows): the statistics follow the orders as they double.
  let placed = 0;
  let analyzedAt = stepsPerBatch;
  for (let from = 0; from < plan.steps.length; from += stepsPerBatch) {
    if (placed >= analyzedAt) {
      await analyze();
      analyzedAt = placed * 2;
    }
    await db.batch(async () => {
      for (const step of plan.steps.slice(from, from + stepsPerBatch)) {
        const order = plan.orders[step.order] as PlannedOrder;
        tick(step.at);
        if (step.kind === 'place') {
          await place(step.order, order);
          placed += 1;
        } else await move(step.order, order, step);
      }
    });
  }
}
