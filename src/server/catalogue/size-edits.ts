import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { SizeEdit } from '../../shared/products';
import type { UnitOfWork } from '../db/database';
import { catalogueTopic } from '../stock/catalogue-changes';
import type { SizeStock } from '../stock/stock-store';
import type { RisenSize } from '../stock/stock-waits';

// The owner's edit of a product's sizes: which entry edits which size, what stock to set, and the edit made.

/** An entry of the owner's sizes, with the size of the product it edits (none: a new size). */
export interface SizePair {
  edit: SizeEdit;
  old: SizeStock | undefined;
}

/**
 * Pairs each entry of the form with the size it edits: the one its `was` names, or else the one of its own name,
 * unless another entry renames that one away (then this entry is a new size of the freed name).
 */
export function pairSizes(before: readonly SizeStock[], edit: readonly SizeEdit[]): SizePair[] {
  const renamedAway = new Set(edit.flatMap((s) => (s.was !== undefined && s.was !== s.size ? [s.was] : [])));
  return edit.map((size) => {
    const from = size.was ?? (renamedAway.has(size.size) ? undefined : size.size);
    return { edit: size, old: from === undefined ? undefined : before.find((s) => s.size === from) };
  });
}

/**
 * The stock to set for a size the product already had: the owner's number when the owner changed it (it differs from
 * what the form showed), otherwise none, so that what orders took meanwhile stays taken.
 */
export function stockToSet(size: SizeEdit, old: SizeStock): number | undefined {
  return size.stock !== (size.stockShown ?? old.stock) ? size.stock : undefined;
}

/** The name a renamed size passes through: a control character no owner can type (PostgreSQL's text takes no NUL). */
const passing = (index: number) => `\u0001${index}`;

/**
 * Makes the product's sizes those of the edit: renamed and kept ones updated where they are (an order taking one of
 * them meanwhile waits for the edit, then takes from what it left), new ones added, the rest removed. Renames pass
 * through names no owner can type, so that two sizes can swap names. The sizes whose stock the owner set go to `rose`
 * (`StockStore.rose`: their waits end if they are now in stock, docs/decisions/0058-back-in-stock.md).
 */
export async function applySizes(
  uow: UnitOfWork,
  itemid: string,
  before: readonly SizeStock[],
  pairs: SizePair[],
  rose: (uow: UnitOfWork, sizes: readonly RisenSize[]) => Promise<void>,
) {
  const risen: RisenSize[] = [];
  const kept = new Set(pairs.flatMap(({ old }) => (old ? [old.size] : [])));
  const removed = before.filter((s) => !kept.has(s.size)).map((s) => s.size);
  if (removed.length > 0) {
    await uow.trx.deleteFrom('product_size').where('itemid', '=', itemid).where('size', 'in', removed).execute();
  }
  const renames = pairs.flatMap(({ edit: size, old }, index) =>
    old && old.size !== size.size ? [{ from: old.size, to: size.size, index }] : [],
  );
  for (const { from, index } of renames) {
    await uow.trx
      .updateTable('product_size')
      .set({ size: passing(index) })
      .where('itemid', '=', itemid)
      .where('size', '=', from)
      .execute();
  }
  for (const [index, { edit: size, old }] of pairs.entries()) {
    if (!old) {
      // A new size: a key of its own, which no earlier order line carries.
      await uow.trx
        .insertInto('product_size')
        .values({ itemid, size: size.size, key: randomUUID(), position: index + 1, stock: size.stock })
        .execute();
      uow.publish(catalogueTopic, { type: 'stock', itemid, size: size.size, stock: size.stock });
      continue;
    }
    const current = old.size === size.size ? old.size : passing(index);
    const stockNow = stockToSet(size, old);
    const [row] = await uow.trx
      .updateTable('product_size')
      .set({ size: size.size, position: index + 1, ...(stockNow === undefined ? {} : { stock: stockNow }) })
      .where('itemid', '=', itemid)
      .where('size', '=', current)
      .returning(['stock', 'key'])
      .execute();
    if (!row) continue;
    uow.publish(catalogueTopic, { type: 'stock', itemid, size: size.size, stock: Number(row.stock) });
    if (stockNow !== undefined) risen.push({ itemid, key: row.key, stock: Number(row.stock) });
  }
  await rose(uow, risen);
  // The rows in carts follow a renamed size, in one statement, so that two sizes can swap names there too.
  if (renames.length > 0) {
    const cases = sql.join(
      renames.map(({ from, to }) => sql`when ${from} then ${to}`),
      sql` `,
    );
    await uow.trx
      .updateTable('cart_item')
      .set({ size: sql<string>`case size ${cases} end` })
      .where('itemid', '=', itemid)
      .where(
        'size',
        'in',
        renames.map((r) => r.from),
      )
      .execute();
  }
}

/** A `was` that is not one of the product's sizes, or that two entries name: refused. */
export function unknownSize(before: readonly SizeStock[], edit: readonly SizeEdit[]): string | undefined {
  const was = edit.flatMap((s) => (s.was === undefined ? [] : [s.was]));
  const twice = was.find((name, index) => was.indexOf(name) !== index);
  if (twice !== undefined) return twice;
  return was.find((name) => !before.some((s) => s.size === name));
}
