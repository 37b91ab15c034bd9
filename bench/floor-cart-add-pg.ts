// Piaffe's cart add (POST /api/cart) by hand on PostgreSQL, as floor-cart-add.ts does it on SQLite: what fills the
// carts of the PostgreSQL floors of the cart list and the order. There is no cart-add workload on PostgreSQL (issue
// 39 §2 asks for those two), so no remove and no server of its own (bench/README.md).
import type pg from 'pg';
import { limits } from '../src/shared/limits';
import { type CartRow, cartAddRoute, cartRowOf, type Product } from './floor-cart-add';
import type { Handler } from './support/floor-kit';
import { lockRider, postgresCodes, prepared, transaction } from './support/floor-kit-pg';

/** The add of floor-cart-add.ts, its statements on PostgreSQL, the rider's key held through its transaction. */
export async function postgresCartAddRoute(pool: pg.Pool): Promise<Handler> {
  const products = await pool.query<{ itemid: string; shown: number }>(`select "itemid", "shown" from "product"`);
  const count = prepared<{ count: number }>(
    'cart-count',
    `select count(*) as "count" from "cart_item" where "uid" = $1`,
  );
  const productOf = prepared<Product>(
    'cart-product',
    `select "itemid", "name", "price_cents" as "priceCents", "details", "shown" from "product" where "itemid" = $1`,
  );
  const insert = prepared(
    'cart-insert',
    `insert into "cart_item" ("id", "uid", "itemid", "name", "price_cents", "details", "size", "created_at") values ($1, $2, $3, $4, $5, $6, $7, $8)`,
  );
  const stockOf = prepared<{ stock: number }>(
    'size-stock',
    `select "stock" from "product_size" where "itemid" = $1 and "size" = $2`,
  );
  return cartAddRoute({
    shown: new Map(products.rows.map((p) => [p.itemid, p.shown === 1])),
    stockOf: async (itemid, size) => (await stockOf(pool, itemid, size))[0]?.stock,
    add: (uid, itemid, size) =>
      transaction(pool, async (client): Promise<CartRow | 'full' | 'unavailable'> => {
        await lockRider(client, uid);
        const [counted] = await count(client, uid);
        if ((counted?.count ?? 0) >= limits.cartMaxRows) return 'full';
        const [product] = await productOf(client, itemid);
        if (product?.shown !== 1) return 'unavailable';
        const item = cartRowOf(uid, product, size);
        await insert(client, item.id, uid, item.itemid, item.name, item.priceCents, item.details, size, Date.now());
        return item;
      }),
    codes: postgresCodes,
  });
}
