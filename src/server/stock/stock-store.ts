import { sql } from 'kysely';
import type { Stock } from '../../shared/api';
import type { Db, UnitOfWork } from '../db/database';
import type { Outbox } from '../mail/outbox';
import { catalogueTopic } from './catalogue-changes';
import { endWaits, type RisenSize } from './stock-waits';

/** A size of a product and how many of it are on the shelf. */
export interface SizeStock {
  size: string;
  stock: number;
}

/** A size asked for `count` times (an order's rows of that size). */
export interface Units {
  itemid: string;
  size: string;
  count: number;
}

/** Units given back by a cancelled order's lines: to the size of `key` (its name may have changed), else by name. */
export interface Returned extends Units {
  key: string | null;
}

/** How `take` names a size in the keys it answers. */
export const sizeKey = ({ itemid, size }: { itemid: string; size: string }) => JSON.stringify([itemid, size]);

/**
 * Rows counted by `keyOf`, each group once with its count, in the order of their keys: every transaction takes its
 * sizes' rows in that order, so two orders (or cancels) on PostgreSQL never wait for each other in a circle (a
 * deadlock): the one that comes second waits for the first, then sees what it left.
 */
function counted<Row, Unit extends { count: number }>(
  rows: readonly Row[],
  keyOf: (row: Row) => string,
  unitOf: (row: Row) => Unit,
): Unit[] {
  const counts = new Map<string, Unit>();
  for (const row of rows) {
    const key = keyOf(row);
    const units = counts.get(key);
    if (units) units.count++;
    else counts.set(key, unitOf(row));
  }
  return [...counts]
    .map(([key, units]) => ({ order: JSON.parse(key) as string[], units }))
    .sort((a, b) => inSizeOrder(a.order, b.order))
    .map(({ units }) => units);
}

/**
 * The order every unit takes sizes' rows in: by item, then size, each compared as plain text (the code units, as
 * PostgreSQL's `collate "C"` compares them), so that `lockSizes` and the orders' takes agree.
 */
function inSizeOrder(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i] ?? '';
    const y = b[i] ?? '';
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/** The sizes of `rows`, each with the number of rows that have it, in one fixed order (item, then size). */
export function unitsOf(rows: readonly { itemid: string; size: string }[]): Units[] {
  return counted(rows, sizeKey, ({ itemid, size }) => ({ itemid, size, count: 1 }));
}

/** A cancelled order's lines as the units to give back, by the key of the size each took its stock from. */
export function returnedOf(lines: readonly { itemid: string; size: string; key: string | null }[]): Returned[] {
  return counted(
    lines,
    ({ itemid, size, key }) => JSON.stringify([itemid, key ?? size, key === null]),
    ({ itemid, size, key }) => ({ itemid, size, key, count: 1 }),
  );
}

export type StockStore = ReturnType<typeof createStockStore>;

/**
 * The `product_size` table: the sizes each product comes in and their stock (docs/product.md §12). Stock is taken
 * by a conditional update in the order's own transaction and can never go below zero: the update takes only what is
 * there, and a CHECK constraint refuses anything else (docs/decisions/0022-stock.md). Every change that may raise a
 * size's stock passes the sizes it changed to `rose`, in its own unit of work (docs/decisions/0058-back-in-stock.md).
 */
export function createStockStore(db: Db, outbox: Outbox) {
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
      .returning(['stock', 'key']),
  );
  const returnUnits = db.precompile(3, (itemid: string, key: string, count: number) =>
    db.kysely
      .updateTable('product_size')
      .set((eb) => ({ stock: eb('stock', '+', count) }))
      .where('itemid', '=', itemid)
      .where('key', '=', key)
      .returning(['stock', 'size', 'key']),
  );
  const returnUnitsByName = db.precompile(3, (itemid: string, size: string, count: number) =>
    db.kysely
      .updateTable('product_size')
      .set((eb) => ({ stock: eb('stock', '+', count) }))
      .where('itemid', '=', itemid)
      .where('size', '=', size)
      .returning(['stock', 'size', 'key']),
  );

  /**
   * The sizes a unit has set or raised, after its update of their rows and in the same unit: the waits for those now
   * above zero end, each with its e-mail (stock-waits.ts's `endWaits`, the one place that does it).
   */
  const rose = (uow: UnitOfWork, sizes: readonly RisenSize[]) => endWaits(uow, outbox, sizes);

  /**
   * Locks the rows of every size of `itemids` (of every product without them) until `uow` ends, in the order orders
   * take sizes (`inSizeOrder`), before a unit that changes several sizes at once: two such units, or one and an order,
   * then never wait for each other in a circle on PostgreSQL (a deadlock: the owner's form, the command line's `set`
   * and a cancel's give-back were seen in one). SQLite runs one writer at a time and locks no row.
   */
  async function lockSizes(uow: UnitOfWork, itemids?: readonly string[]): Promise<void> {
    if (db.dialect !== 'postgres' || itemids?.length === 0) return;
    let rows = uow.trx
      .selectFrom('product_size')
      .select('key')
      .orderBy(sql`itemid collate "C"`)
      .orderBy(sql`size collate "C"`)
      .forUpdate();
    if (itemids) rows = rows.where('itemid', 'in', itemids);
    await rows.execute();
  }

  return {
    rose,
    lockSizes,

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
    async take(uow: UnitOfWork, units: readonly Units[]): Promise<{ short: Units[]; keys: Map<string, string> }> {
      const short: Units[] = [];
      const keys = new Map<string, string>();
      for (const wanted of units) {
        const [left] = await takeUnits(uow.trx, wanted.itemid, wanted.size, wanted.count);
        if (!left) {
          short.push(wanted);
          continue;
        }
        keys.set(sizeKey(wanted), left.key);
        const { itemid, size } = wanted;
        uow.publish(catalogueTopic, { type: 'stock', itemid, size, stock: Number(left.stock) });
      }
      return { short, keys };
    },

    /**
     * Puts the units back on the shelf, as part of `uow`: to the size they were taken from, by its key, whatever it is
     * called now (by name for lines from before keys); a size that no longer exists takes nothing back.
     */
    async giveBack(uow: UnitOfWork, units: readonly Returned[]): Promise<void> {
      await lockSizes(uow, [...new Set(units.map((unit) => unit.itemid))]);
      const risen: RisenSize[] = [];
      for (const { itemid, size, key, count } of units) {
        const [now] =
          key === null
            ? await returnUnitsByName(uow.trx, itemid, size, count)
            : await returnUnits(uow.trx, itemid, key, count);
        if (!now) continue;
        uow.publish(catalogueTopic, { type: 'stock', itemid, size: now.size, stock: Number(now.stock) });
        risen.push({ itemid, key: now.key, stock: Number(now.stock) });
      }
      await rose(uow, risen);
    },

    /**
     * Sets the stock of one size, of every size of a product (no `size`), or of every size of every product (neither):
     * the owner's command line. The number of sizes set; 0 when there is no such product or size.
     */
    set(stock: number, { itemid, size }: { itemid?: string; size?: string } = {}): Promise<number> {
      return db.run(async (uow) => {
        if (size === undefined) await lockSizes(uow, itemid === undefined ? undefined : [itemid]);
        let update = uow.trx.updateTable('product_size').set({ stock });
        if (itemid !== undefined) update = update.where('itemid', '=', itemid);
        if (size !== undefined) update = update.where('size', '=', size);
        const rows = await update.returning(['itemid', 'size', 'key']).execute();
        for (const { itemid, size } of rows) uow.publish(catalogueTopic, { type: 'stock', itemid, size, stock });
        await rose(
          uow,
          rows.map(({ itemid, key }) => ({ itemid, key, stock })),
        );
        return rows.length;
      });
    },
  };
}
