import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { CartItem } from '../../shared/api';
import { topic } from '../db/change-feed';
import type { Db, UnitOfWork } from '../db/database';
import { isConstraintViolation } from '../db/errors';
import type { CartItemTable } from '../db/schema';

/**
 * A change to one rider's cart, for that rider's open cart pages; `changed`: the owner changed a product of some of
 * its rows (a price, a size's name, hidden), so the pages read the cart again.
 */
export type CartChange =
  | { type: 'added'; item: CartItem }
  | { type: 'removed'; id: string }
  | { type: 'emptied' }
  | { type: 'changed' };

export const cartTopic = (uid: string) => topic<CartChange>(`cart:${uid}`);

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

/** The `cart_item` table: each rider's rows, and the changes to them on the feed. */
export function createCartStore(db: Db) {
  // The queries of the hot requests (the cart list, the add), compiled once (src/server/db/precompiled.ts).
  // A row can be ordered while its product is shown and its size is still one of the product's (a row from before
  // sizes has none, and checkout asks for one).
  const rowsOf = db.precompile(1, (uid: string) =>
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
      .where('cart_item.uid', '=', uid)
      .orderBy('cart_item.created_at')
      .orderBy('cart_item.id'),
  );
  const countOf = db.precompile(1, (uid: string) =>
    db.kysely
      .selectFrom('cart_item')
      .select((eb) => [eb.fn.countAll<number | string>().as('count'), eb.fn.max('created_at').as('latest')])
      .where('uid', '=', uid),
  );
  const insert = db.precompileInsert('cart_item', {
    id: true,
    uid: true,
    itemid: true,
    name: true,
    price_cents: true,
    details: true,
    size: true,
    created_at: true,
  });
  const emptyOf = db.precompile(1, (uid: string) => db.kysely.deleteFrom('cart_item').where('uid', '=', uid));
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

  /** The rider's rows, oldest first, and what they weigh together in grams (shipping by weight is priced on it). */
  async function weighed(uid: string, uow?: UnitOfWork): Promise<{ items: CartItem[]; weightGrams: number }> {
    const rows = await rowsOf(uow?.trx, uid);
    return {
      items: rows.map(({ available, weight_grams: _, ...row }) => toCartItem(row, Number(available) === 1)),
      weightGrams: rows.reduce((grams, row) => grams + Number(row.weight_grams), 0),
    };
  }

  return {
    /** The rider's rows, oldest first; read inside `uow` when given. */
    async list(uid: string, uow?: UnitOfWork): Promise<CartItem[]> {
      return (await weighed(uid, uow)).items;
    },

    weighed,

    /**
     * Adds one row copied from the product as it is now, in `size`, unless the cart already holds `maxRows` or the
     * owner has hidden the product.
     */
    async add(uid: string, itemid: string, size: string, maxRows: number): Promise<AddResult> {
      try {
        return await db.run(async (uow) => {
          // Adds to one cart run one after the other, on every server, so the limit holds.
          await uow.lock('cart', uid);
          const [counted] = await countOf(uow.trx, uid);
          if (Number(counted?.count) >= maxRows) return { ok: false, reason: 'full' } as const;
          const [product] = await productOf(uow.trx, itemid);
          if (!product || Number(product.shown) !== 1) return { ok: false, reason: 'unavailable' } as const;
          const row: CartItemTable = {
            id: randomUUID(),
            uid,
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
          const item = toCartItem(row, true);
          uow.publish(cartTopic(uid), { type: 'added', item });
          return { ok: true, item } as const;
        });
      } catch (error) {
        // The user was deleted while the request was under way.
        if (isConstraintViolation(error, 'foreignKey')) return { ok: false, reason: 'no-user' };
        throw error;
      }
    },

    /** Removes the row only if it is the rider's; false when there is no such row. */
    remove(uid: string, id: string): Promise<boolean> {
      return db.run(async (uow) => {
        // After a checkout under way, which must not order a row the rider was told is gone (and before the next).
        await uow.lock('cart', uid);
        const result = await uow.trx
          .deleteFrom('cart_item')
          .where('id', '=', id)
          .where('uid', '=', uid)
          .executeTakeFirst();
        if (Number(result.numDeletedRows) === 0) return false;
        uow.publish(cartTopic(uid), { type: 'removed', id });
        return true;
      });
    },

    /** Removes every row of the rider's cart, as part of `uow`. */
    async empty(uow: UnitOfWork, uid: string): Promise<void> {
      await emptyOf(uow.trx, uid);
      uow.publish(cartTopic(uid), { type: 'emptied' });
    },
  };
}
