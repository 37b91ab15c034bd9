import type { ProductPicture, SizeGuide } from '../../shared/finding';
import type { AdminProduct } from '../../shared/products';
import type { UnitOfWork } from '../db/database';
import type { ProductTable } from '../db/schema';
import type { SizeStock } from '../stock/stock-store';

// A product as the catalogue reads it: its row, its categories and pictures, and the owner's view of it with its
// sizes. The catalogue's store (catalogue-store.ts) and its parts read products with these.

/** A product as the shop sells it (its sizes and their stock are the stock store's). */
export interface Product {
  itemid: string;
  /** Its page's address: `/products/<slug>`. */
  slug: string;
  name: string;
  details: string;
  priceCents: number;
  weightGrams: number;
  pic: string;
  largepic: string;
  shown: boolean;
  position: number;
  version: number;
  /** Its own size guide; null: its first category's. */
  sizeGuide: SizeGuide | null;
}

export type ChangeResult =
  | { ok: true; product: AdminProduct }
  /** `changed`: the product is no longer the version the owner's form was filled from. */
  | { ok: false; reason: 'not-found' | 'changed' }
  /** A size's `was` that is not one of the product's sizes (another product's, say). */
  | { ok: false; reason: 'unknown-size'; size: string }
  /** A category's slug that no category has. */
  | { ok: false; reason: 'unknown-category'; category: string };

export function toProduct(row: ProductTable): Product {
  return {
    itemid: row.itemid,
    slug: row.slug,
    name: row.name,
    details: row.details,
    priceCents: Number(row.price_cents),
    weightGrams: Number(row.weight_grams),
    pic: row.pic,
    largepic: row.largepic,
    shown: Number(row.shown) === 1,
    position: Number(row.position),
    version: Number(row.version),
    sizeGuide: row.size_guide === null ? null : (JSON.parse(row.size_guide) as SizeGuide),
  };
}

/** A product's categories (their slugs, in the categories' order) and pictures (in the owner's order). */
export interface Extras {
  categories: string[];
  pictures: ProductPicture[];
}

type Executor = Pick<UnitOfWork['trx'], 'selectFrom'>;

/** The categories and pictures of one product, or of every product when `itemid` is undefined. */
export async function extrasOf(trx: Executor, itemid?: string): Promise<Map<string, Extras>> {
  const [categories, pictures] = await Promise.all([
    trx
      .selectFrom('product_category as pc')
      .innerJoin('category as c', 'c.slug', 'pc.category')
      .select(['pc.itemid', 'pc.category'])
      .$if(itemid !== undefined, (qb) => qb.where('pc.itemid', '=', itemid as string))
      .orderBy('c.position')
      .execute(),
    trx
      .selectFrom('product_picture')
      .select(['itemid', 'pic', 'largepic'])
      .$if(itemid !== undefined, (qb) => qb.where('itemid', '=', itemid as string))
      .orderBy('itemid')
      .orderBy('position')
      .execute(),
  ]);
  const extras = new Map<string, Extras>();
  const of = (id: string) => {
    let found = extras.get(id);
    if (!found) {
      found = { categories: [], pictures: [] };
      extras.set(id, found);
    }
    return found;
  };
  for (const row of categories) of(row.itemid).categories.push(row.category);
  for (const { itemid: id, pic, largepic } of pictures) of(id).pictures.push({ pic, largepic });
  return extras;
}

export function toAdmin(product: Product, sizes: readonly SizeStock[], extras: Extras | undefined): AdminProduct {
  return { ...product, sizes: [...sizes], categories: extras?.categories ?? [], pictures: extras?.pictures ?? [] };
}

export async function readProduct(uow: UnitOfWork, itemid: string): Promise<Product | undefined> {
  const row = await uow.trx.selectFrom('product').selectAll().where('itemid', '=', itemid).executeTakeFirst();
  return row && toProduct(row);
}
