import type { Stock } from '../../shared/api';
import { catalogueTopic } from '../catalogue/changes';
import type { Db, UnitOfWork } from '../db/database';

/** A size of a product and how many of it are on the shelf. */
export interface SizeStock {
  size: string;
  stock: number;
}

/** A size asked for `count` times (an order's rows of that size, or the lines of a cancelled order). */
export interface Units {
  itemid: string;
  size: string;
  count: number;
}

/** The sizes of `rows`, each with the number of rows that have it, in one fixed order (item, then size). */
export function unitsOf(rows: readonly { itemid: string; size: string }[]): Units[] {
  const counts = new Map<string, Units>();
  for (const { itemid, size } of rows) {
    const key = JSON.stringify([itemid, size]);
    const units = counts.get(key);
    if (units) units.count++;
    else counts.set(key, { itemid, size, count: 1 });
  }
  // Every transaction takes its sizes' rows in the order of their keys, so two orders on PostgreSQL never wait for
  // each other in a circle (a deadlock): the one that comes second waits for the first, then sees what it left.
  return [...counts].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, units]) => units);
}

export type StockStore = ReturnType<typeof createStockStore>;

/**
 * The `product_size` table: the sizes each product comes in and their stock (docs/product.md §12). Stock is taken
 * by a conditional update in the order's own transaction and can never go below zero: the update takes only what is
 * there, and a CHECK constraint refuses anything else (docs/decisions/0022-stock.md).
 */
export function createStockStore(db: Db) {
  const everySize = db.precompile(0, () =>
    db.kysely.selectFrom('product_size').select(['itemid', 'size', 'stock']).orderBy('itemid').orderBy('position'),
  );
  const sizesOfItem = db.precompile(1, (itemid: string) =>
    db.kysely.selectFrom('product_size').select(['size', 'stock']).where('itemid', '=', itemid).orderBy('position'),
  );
  // Takes `count` only if at least `count` are there: no row back means not enough.
  const takeUnits = db.precompile(3, (itemid: string, size: string, count: number) =>
    db.kysely
      .updateTable('product_size')
      .set((eb) => ({ stock: eb('stock', '-', count) }))
      .where('itemid', '=', itemid)
      .where('size', '=', size)
      .where('stock', '>=', count)
      .returning('stock'),
  );
  const returnUnits = db.precompile(3, (itemid: string, size: string, count: number) =>
    db.kysely
      .updateTable('product_size')
      .set((eb) => ({ stock: eb('stock', '+', count) }))
      .where('itemid', '=', itemid)
      .where('size', '=', size)
      .returning('stock'),
  );

  return {
    /** Every size of every product, by item and in each product's order, with its stock. */
    async all(): Promise<Stock[]> {
      return (await everySize(undefined)).map((row) => ({ ...row, stock: Number(row.stock) }));
    },

    /** The sizes of one product, in order; none for an item that is not sold. Read inside `uow` when given. */
    async sizesOf(itemid: string, uow?: UnitOfWork): Promise<SizeStock[]> {
      return (await sizesOfItem(uow?.trx, itemid)).map((row) => ({ size: row.size, stock: Number(row.stock) }));
    },

    /**
     * Takes the units, as part of `uow`; the sizes that have fewer left than asked for (or no longer exist) are
     * given back, and nothing is taken from them. The caller rolls `uow` back when any is, so that an order takes
     * all of its units or none.
     */
    async take(uow: UnitOfWork, units: readonly Units[]): Promise<Units[]> {
      const short: Units[] = [];
      for (const wanted of units) {
        const [left] = await takeUnits(uow.trx, wanted.itemid, wanted.size, wanted.count);
        if (left)
          uow.publish(catalogueTopic, {
            type: 'stock',
            itemid: wanted.itemid,
            size: wanted.size,
            stock: Number(left.stock),
          });
        else short.push(wanted);
      }
      return short;
    },

    /** Puts the units back on the shelf, as part of `uow`; a size that no longer exists takes nothing back. */
    async giveBack(uow: UnitOfWork, units: readonly Units[]): Promise<void> {
      for (const { itemid, size, count } of units) {
        const [now] = await returnUnits(uow.trx, itemid, size, count);
        if (now) uow.publish(catalogueTopic, { type: 'stock', itemid, size, stock: Number(now.stock) });
      }
    },

    /**
     * Sets the stock of one size, of every size of a product (no `size`), or of every size of every product (neither):
     * the owner's command line. The number of sizes set; 0 when there is no such product or size.
     */
    set(stock: number, { itemid, size }: { itemid?: string; size?: string } = {}): Promise<number> {
      return db.run(async (uow) => {
        let update = uow.trx.updateTable('product_size').set({ stock });
        if (itemid !== undefined) update = update.where('itemid', '=', itemid);
        if (size !== undefined) update = update.where('size', '=', size);
        const rows = await update.returning(['itemid', 'size']).execute();
        for (const row of rows) uow.publish(catalogueTopic, { type: 'stock', ...row, stock });
        return rows.length;
      });
    },
  };
}
