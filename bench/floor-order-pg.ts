// The floor of Piaffe's order placement (POST /api/orders) on PostgreSQL, written by hand (bench/README.md):
// floor-order.ts's statements in one transaction on one of the pool's connections, each prepared on it, the rider's
// key held first as Piaffe holds it; the request's check, the order's JSON and its e-mail are floor-order.ts's own.
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { limits } from '../src/shared/limits';
import { postgresCartAddRoute } from './floor-cart-add-pg';
import {
  type CartRowToOrder,
  confirmation,
  hourMs,
  type OrderJson,
  type OrderRow,
  orderOfRows,
  orderRowValues,
  type Placed,
  type PlaceOrder,
  placedOrder,
  placeOrderRoute,
  refusalOf,
  SoldOut,
  sizeOf,
  type Taken,
  tooMany,
  unitsOf,
} from './floor-order';
import { type Handler, type Rider, serveFloor } from './support/floor-kit';
import {
  lockRider,
  type On,
  openFloorPool,
  postgresCodes,
  postgresSignUpRoute,
  prepared,
  transaction,
} from './support/floor-kit-pg';

export function postgresPlaceOrderRoute(pool: pg.Pool): Handler {
  const recent = prepared<{ count: number; oldest: number }>(
    'order-recent',
    `select count(*) as "count", min("placed_at") as "oldest" from "shop_order" where "uid" = $1 and "placed_at" > $2`,
  );
  const cartOf = prepared<CartRowToOrder>(
    'order-cart',
    `select c."id", c."itemid", c."name", c."price_cents" as "priceCents", c."size",
       (p."shown" = 1 and (c."size" is null or s."size" is not null)) as "available"
     from "cart_item" c
     left join "product" p on p."itemid" = c."itemid"
     left join "product_size" s on s."itemid" = c."itemid" and s."size" = c."size"
     where c."uid" = $1 order by c."created_at", c."id"`,
  );
  // Takes `count` only where at least that many are left; no row back means sold out. The size's key goes on the line.
  const take = prepared<{ stock: number; key: string }>(
    'order-take',
    `update "product_size" set "stock" = "stock" - $1 where "itemid" = $2 and "size" = $3 and "stock" >= $1 returning "stock", "key"`,
  );
  // The counter row Piaffe bumps for its numbers on PostgreSQL too (migration 0013): held until the commit, no gap.
  const bump = prepared<{ value: number }>(
    'order-bump',
    `update "counter" set "value" = "value" + 1 where "name" = 'order_number' returning "value"`,
  );
  const insertOrder = prepared(
    'order-insert',
    `insert into "shop_order" ("number", "uid", "email", "idempotency_key", "status", "payment_method", "full_name", "line1", "line2", "city", "region", "postal_code", "country", "phone", "money", "total_cents", "item_count", "placed_at") values ($1, $2, $3, $4, 'placed', $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)`,
  );
  const insertLine = prepared(
    'order-line',
    `insert into "order_line" ("order_number", "position", "itemid", "name", "price_cents", "size", "size_key") values ($1, $2, $3, $4, $5, $6, $7)`,
  );
  const insertEvent = prepared(
    'order-event',
    `insert into "order_event" ("order_number", "seq", "status", "at", "by_role", "by_uid", "by_email", "note") values ($1, 1, 'placed', $2, 'rider', $3, $4, null)`,
  );
  const emptyCart = prepared('order-empty-cart', `delete from "cart_item" where "uid" = $1`);
  const insertMail = prepared(
    'order-mail',
    `insert into "outbox" ("id", "kind", "recipient", "subject", "text_body", "html_body", "state", "attempts", "next_attempt_at", "last_error", "created_at", "sent_at") values ($1, 'order-confirmation', $2, $3, $4, $5, 'waiting', 0, $6, null, $6, null)`,
  );
  // Only off the usual path: a repeated idempotency key answers the order it made.
  const earlier = prepared<OrderRow>(
    'order-earlier',
    `select * from "shop_order" where "uid" = $1 and "idempotency_key" = $2`,
  );
  const linesOf = prepared<OrderJson['lines'][number]>(
    'order-lines',
    `select "itemid", "name", "price_cents" as "priceCents", "size" from "order_line" where "order_number" = $1 order by "position"`,
  );
  const historyOf = prepared<{ status: string; at: number; by: string; note: string | null }>(
    'order-history',
    `select "status", "at", "by_role" as "by", "note" from "order_event" where "order_number" = $1 order by "seq"`,
  );

  async function earlierOrder(on: On, uid: string, key: string): Promise<OrderJson | undefined> {
    const [row] = await earlier(on, uid, key);
    if (!row) return undefined;
    return orderOfRows(row, await linesOf(on, row.number), await historyOf(on, row.number));
  }

  const place = ({ uid, email }: Rider, input: PlaceOrder, site: string) =>
    transaction(pool, async (client): Promise<Placed> => {
      await lockRider(client, uid);
      const now = Date.now();
      const again = async () => {
        const order = await earlierOrder(client, uid, input.idempotencyKey);
        return order && ({ ok: true, created: false, order, taken: [] } as const);
      };
      const [recently = { count: 0, oldest: now }] = await recent(client, uid, now - hourMs);
      if (recently.count >= limits.ordersPerHour) return (await again()) ?? tooMany(recently.oldest, now);
      const items = await cartOf(client, uid);
      const refused = refusalOf(items, input);
      if (refused) return (await again()) ?? refused;
      const taken: Taken[] = [];
      const keys = new Map<string, string>();
      for (const unit of unitsOf(items)) {
        const [left] = await take(client, unit.count, unit.itemid, unit.size);
        if (left === undefined) throw new SoldOut();
        taken.push({ itemid: unit.itemid, size: unit.size, stock: left.stock });
        keys.set(sizeOf(unit), left.key);
      }
      const [counter] = await bump(client);
      if (!counter) throw new Error('the shop has no order_number counter');
      const number = counter.value;
      const order = placedOrder(number, email, input, items, now);
      // A repeated key fails here on the unique (uid, idempotency_key): the route answers the earlier order.
      await insertOrder(client, ...orderRowValues(number, uid, input, order, now));
      for (const [index, { itemid, name, priceCents, size }] of items.entries()) {
        const sizeKey = keys.get(sizeOf({ itemid, size }));
        await insertLine(client, number, index + 1, itemid, name, priceCents, size, sizeKey);
      }
      await insertEvent(client, number, now, uid, email);
      await emptyCart(client, uid);
      const mail = confirmation(order, site);
      await insertMail(client, randomUUID(), email, mail.subject, mail.text, mail.html, now);
      return { ok: true, created: true, order, taken };
    });

  return placeOrderRoute(place, (uid, key) => earlierOrder(pool, uid, key), postgresCodes);
}

const pool = openFloorPool(process.argv[3]);
serveFloor({
  'POST /api/auth/signup': postgresSignUpRoute(pool),
  'POST /api/cart': await postgresCartAddRoute(pool),
  'POST /api/orders': postgresPlaceOrderRoute(pool),
});
