import { sizesOfProducts } from '../catalogue/finding';
import type { Db } from '../db/database';

/** A shown product as the sitemap and the feed list it, with its sizes in order and their stock. */
export interface ListedProduct {
  itemid: string;
  slug: string;
  name: string;
  details: string;
  priceCents: number;
  largepic: string;
  /** Milliseconds since the epoch: the last change of the product's own row (a save, a picture, a move). */
  updatedAt: number;
  sizes: { size: string; stock: number }[];
}

/** How many products one read takes: a few hundred kilobytes at most in memory at once, whatever the catalogue. */
export const listingPageSize = 500;

/**
 * Every shown product, a page at a time by item number (keyset paging: each read starts after the last item number
 * of the one before, so it costs the same at 10,000 products as at 10, and a product saved meanwhile is neither
 * skipped nor listed twice). Hidden products are never read. Each page is read when the one before has been used,
 * so a slow reader holds no more than one page.
 */
export async function* shownProducts(db: Db, pageSize = listingPageSize): AsyncGenerator<ListedProduct[]> {
  let after: string | undefined;
  for (;;) {
    const rows = await db.kysely
      .selectFrom('product')
      .select(['itemid', 'slug', 'name', 'details', 'price_cents', 'largepic', 'updated_at'])
      .where('shown', '=', 1)
      .$if(after !== undefined, (qb) => qb.where('itemid', '>', after as string))
      .orderBy('itemid')
      .limit(pageSize)
      .execute();
    if (rows.length === 0) return;
    const sizes = await sizesOfProducts(
      db,
      rows.map((row) => row.itemid),
    );
    yield rows.map((row) => ({
      itemid: row.itemid,
      slug: row.slug,
      name: row.name,
      details: row.details,
      priceCents: Number(row.price_cents),
      largepic: row.largepic,
      updatedAt: Number(row.updated_at),
      sizes: sizes.get(row.itemid) ?? [],
    }));
    if (rows.length < pageSize) return;
    after = rows[rows.length - 1]?.itemid;
  }
}

/** The categories in the owner's order (at most 100, docs/product.md §22): what the sitemap lists after home. */
export async function categories(db: Db): Promise<{ slug: string; name: string }[]> {
  return db.kysely.selectFrom('category').select(['slug', 'name']).orderBy('position').execute();
}

/** The product's first category, in the owner's order of categories: its breadcrumb's middle step. */
export async function firstCategoryOf(db: Db, itemid: string): Promise<{ slug: string; name: string } | undefined> {
  return db.kysely
    .selectFrom('product_category as pc')
    .innerJoin('category as c', 'c.slug', 'pc.category')
    .select(['c.slug', 'c.name'])
    .where('pc.itemid', '=', itemid)
    .orderBy('c.position')
    .limit(1)
    .executeTakeFirst();
}
