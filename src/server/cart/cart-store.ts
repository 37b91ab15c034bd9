import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { CartItem } from '../../shared/api';
import { topic } from '../db/change-feed';
import type { Db, UnitOfWork } from '../db/database';
import { isConstraintViolation } from '../db/errors';
import type { CartItemTable } from '../db/schema';

/**
 * Whose cart: a rider's (their user id), or a visitor's (the id of their cart, docs/product.md §23). Every query names
 * one column of `cart_item`, and no route takes either from the browser.
 */
export type CartOwner = { uid: string } | { visitor: string };

/** The column that names the owner in `cart_item`, and its value. */
function ownerKey(owner: CartOwner): ['uid' | 'visitor_cart_id', string] {
  return 'uid' in owner ? ['uid', owner.uid] : ['visitor_cart_id', owner.visitor];
}

/** The key the cart's adds and removes are serialised under, on every server. */
const lockKey = (owner: CartOwner) => ('uid' in owner ? owner.uid : `visitor:${owner.visitor}`);

/**
 * A change to one cart, for its open cart pages; `changed`: the owner changed a product of some of its rows (a price,
 * a size's name, hidden), so the pages read the cart again.
 */
export type CartChange =
  | { type: 'added'; item: CartItem }
  | { type: 'removed'; id: string }
  | { type: 'emptied' }
  | { type: 'changed' };

export const cartTopic = (owner: CartOwner) => topic<CartChange>(`cart:${lockKey(owner)}`);

export type AddResult = { ok: true; item: CartItem } | { ok: false; reason: 'full' | 'no-user' | 'unavailable' };

function toCartItem(row: CartItemTable, available: boolean): CartItem {
  return {
    id: row.id,
    uid: row.uid,
    itemid: row.itemid,
    name: row.name,
    priceCents: Number(row.price_cents),
    details: row.details,
    size: row.size,
    available,
  };
}

export type CartStore = ReturnType<typeof createCartStore>;

/** A visitor's cart was changed now: the sweep counts its 30 days from here. */
async function touchVisitorCart(uow: UnitOfWork, id: string): Promise<void> {
  await uow.trx.updateTable('visitor_cart').set({ changed_at: Date.now() }).where('id', '=', id).execute();
}

/** The `cart_item` table: each rider's and each visitor's rows, and the changes to them on the feed. */
export function createCartStore(db: Db) {
  // The queries of the hot requests (the cart list, the add), compiled once for each owner's column
  // (src/server/db/precompiled.ts). A row can be ordered while its product is shown and its size is still one of the
  // product's (a row from before sizes has none, and checkout asks for one).
  const rowsBy = (column: 'uid' | 'visitor_cart_id') =>
    db.precompile(1, (key: string) =>
      db.kysely
        .selectFrom('cart_item')
        .leftJoin('product', 'product.itemid', 'cart_item.itemid')
        .leftJoin('product_size', (join) =>
          join.onRef('product_size.itemid', '=', 'cart_item.itemid').onRef('product_size.size', '=', 'cart_item.size'),
        )
        .selectAll('cart_item')
        // Each row's weight as shipped, as the product has it now (a product removed weighs nothing).
        .select(sql<number | string>`coalesce(product.weight_grams, 0)`.as('weight_grams'))
        .select(
          sql<number>`case when product.shown = 1 and (cart_item.size is null or product_size.size is not null) then 1 else 0 end`.as(
            'available',
          ),
        )
        .where(`cart_item.${column}`, '=', key)
        .orderBy('cart_item.created_at')
        .orderBy('cart_item.id'),
    );
  const countBy = (column: 'uid' | 'visitor_cart_id') =>
    db.precompile(1, (key: string) =>
      db.kysely
        .selectFrom('cart_item')
        .select((eb) => [eb.fn.countAll<number | string>().as('count'), eb.fn.max('created_at').as('latest')])
        .where(column, '=', key),
    );
  const emptyBy = (column: 'uid' | 'visitor_cart_id') =>
    db.precompile(1, (key: string) => db.kysely.deleteFrom('cart_item').where(column, '=', key));
  const queries = {
    uid: { rows: rowsBy('uid'), count: countBy('uid'), empty: emptyBy('uid') },
    visitor_cart_id: {
      rows: rowsBy('visitor_cart_id'),
      count: countBy('visitor_cart_id'),
      empty: emptyBy('visitor_cart_id'),
    },
  };
  const insert = db.precompileInsert('cart_item', {
    id: true,
    uid: true,
    visitor_cart_id: true,
    itemid: true,
    name: true,
    price_cents: true,
    details: true,
    size: true,
    created_at: true,
  });
  // The product as the add copies it, read in the add's transaction. On PostgreSQL the row is held (FOR SHARE) until
  // the add commits, so an owner's change of its price waits for the add and then reprices the new row with the
  // others, or the add waits for the change and copies the new price: never a row at a price the product no longer
  // has. (On SQLite the add's transaction runs alone.)
  const productOf = db.precompile(1, (itemid: string) => {
    const query = db.kysely
      .selectFrom('product')
      .select(['name', 'details', 'price_cents', 'shown'])
      .where('itemid', '=', itemid);
    return db.dialect === 'postgres' ? query.forShare() : query;
  });

  /** The cart's rows, oldest first, and what they weigh together in grams (shipping by weight is priced on it). */
  async function weighed(owner: CartOwner, uow?: UnitOfWork): Promise<{ items: CartItem[]; weightGrams: number }> {
    const [column, key] = ownerKey(owner);
    const rows = await queries[column].rows(uow?.trx, key);
    return {
      items: rows.map(({ available, weight_grams: _, ...row }) => toCartItem(row, Number(available) === 1)),
      weightGrams: rows.reduce((grams, row) => grams + Number(row.weight_grams), 0),
    };
  }

  return {
    /** The cart's rows, oldest first; read inside `uow` when given. */
    async list(owner: CartOwner, uow?: UnitOfWork): Promise<CartItem[]> {
      return (await weighed(owner, uow)).items;
    },

    weighed,

    /**
     * Adds one row copied from the product as it is now, in `size`, unless the cart already holds `maxRows` or the
     * owner has hidden the product.
     */
    async add(owner: CartOwner, itemid: string, size: string, maxRows: number): Promise<AddResult> {
      const [column, key] = ownerKey(owner);
      try {
        return await db.run(async (uow) => {
          // Adds to one cart run one after the other, on every server, so the limit holds.
          await uow.lock('cart', lockKey(owner));
          const [counted] = await queries[column].count(uow.trx, key);
          if (Number(counted?.count) >= maxRows) return { ok: false, reason: 'full' } as const;
          const [product] = await productOf(uow.trx, itemid);
          if (!product || Number(product.shown) !== 1) return { ok: false, reason: 'unavailable' } as const;
          const row: CartItemTable = {
            id: randomUUID(),
            uid: null,
            visitor_cart_id: null,
            [column]: key,
            itemid,
            name: product.name,
            price_cents: Number(product.price_cents),
            details: product.details,
            size,
            // After every row already there, even one added in the same millisecond: the cart (and so the order's
            // lines) lists rows in the order they were added, never by their random ids.
            created_at: Math.max(Date.now(), Number(counted?.latest ?? 0) + 1),
          };
          await insert(uow.trx, row);
          if (column === 'visitor_cart_id') await touchVisitorCart(uow, key);
          const item = toCartItem(row, true);
          uow.publish(cartTopic(owner), { type: 'added', item });
          return { ok: true, item } as const;
        });
      } catch (error) {
        // The user was deleted while the request was under way (or the visitor's cart swept).
        if (isConstraintViolation(error, 'foreignKey')) return { ok: false, reason: 'no-user' };
        throw error;
      }
    },

    /** Removes the row only if it is the cart's; false when there is no such row. */
    remove(owner: CartOwner, id: string): Promise<boolean> {
      const [column, key] = ownerKey(owner);
      return db.run(async (uow) => {
        // After a checkout under way, which must not order a row the rider was told is gone (and before the next).
        await uow.lock('cart', lockKey(owner));
        const result = await uow.trx
          .deleteFrom('cart_item')
          .where('id', '=', id)
          .where(column, '=', key)
          .executeTakeFirst();
        if (Number(result.numDeletedRows) === 0) return false;
        if (column === 'visitor_cart_id') await touchVisitorCart(uow, key);
        uow.publish(cartTopic(owner), { type: 'removed', id });
        return true;
      });
    },

    /** Removes every row of the cart, as part of `uow`. */
    async empty(uow: UnitOfWork, owner: CartOwner): Promise<void> {
      const [column, key] = ownerKey(owner);
      await queries[column].empty(uow.trx, key);
      uow.publish(cartTopic(owner), { type: 'emptied' });
    },

    /**
     * Moves every row of the visitor's cart to the rider's, after the rider's own rows, and forgets the visitor's cart,
     * as one unit under both carts' locks (docs/decisions/0055-open-to-visitors.md): two log-ins at once with the same
     * cookie move the rows once, the second finding none. Rows beyond `maxRows` in all stay out (the oldest first
     * join). Returns how many rows moved.
     */
    join(visitor: string, uid: string, maxRows: number): Promise<number> {
      const from: CartOwner = { visitor };
      const to: CartOwner = { uid };
      return db.run(async (uow) => {
        await uow.lock('cart', lockKey(from));
        await uow.lock('cart', lockKey(to));
        const rows = await uow.trx
          .selectFrom('cart_item')
          .selectAll()
          .where('visitor_cart_id', '=', visitor)
          .orderBy('created_at')
          .orderBy('id')
          .execute();
        const [counted] = await queries.uid.count(uow.trx, uid);
        const room = Math.max(0, maxRows - Number(counted?.count ?? 0));
        let at = Number(counted?.latest ?? 0);
        const moving = rows.slice(0, room);
        for (const row of moving) {
          at = Math.max(at + 1, Number(row.created_at));
          await uow.trx
            .updateTable('cart_item')
            .set({ uid, visitor_cart_id: null, created_at: at })
            .where('id', '=', row.id)
            .execute();
        }
        // The rows left over go with the visitor's cart (the foreign key cascades).
        await uow.trx.deleteFrom('visitor_cart').where('id', '=', visitor).execute();
        if (rows.length === 0) return 0;
        // The visitor's cart is gone: its pages read an empty cart; the rider's read theirs again.
        uow.publish(cartTopic(from), { type: 'emptied' });
        if (moving.length > 0) uow.publish(cartTopic(to), { type: 'changed' });
        return moving.length;
      });
    },
  };
}
