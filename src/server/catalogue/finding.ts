import type { CatalogueProduct } from '../../shared/api';
import type { Category, ProductDetails, ProductPage, ProductQuery, SizeGuide } from '../../shared/finding';
import { findingLimits } from '../../shared/limits';
import type { Db } from '../db/database';
import { catalogueTopic } from './changes';
import { searchCondition } from './search-index';

export type Finding = ReturnType<typeof createFinding>;

/** The choices the filters offer, kept by each server until the catalogue changes (on any server). */
interface Choices {
  categories: Category[];
  sizes: string[];
}

/**
 * The list of shown products (docs/product.md §22): searched by the database's index, filtered by category, size and
 * stock, in the owner's order, a page at a time. Only the page's products are read, with their sizes.
 */
export function createFinding(db: Db) {
  let choices: Promise<Choices> | undefined;
  db.feed.subscribe(catalogueTopic, (change) => {
    if (change.type !== 'stock') choices = undefined;
  });

  async function readChoices(): Promise<Choices> {
    const categories = await db.kysely
      .selectFrom('category')
      .select(['slug', 'name'])
      .orderBy('position')
      .orderBy('slug')
      .execute();
    // The sizes of the shown products, in the order the first product to have each lists it.
    const sizes = await db.kysely
      .selectFrom('product_size as s')
      .innerJoin('product as p', 'p.itemid', 's.itemid')
      .select('s.size')
      .where('p.shown', '=', 1)
      .groupBy('s.size')
      .orderBy((eb) => eb.fn.min('p.position'))
      .orderBy((eb) => eb.fn.min('s.position'))
      .orderBy('s.size')
      .execute();
    return { categories, sizes: sizes.map((s) => s.size) };
  }

  function currentChoices(): Promise<Choices> {
    if (!choices) {
      const loading = readChoices();
      choices = loading;
      loading.catch(() => {
        if (choices === loading) choices = undefined;
      });
    }
    return choices;
  }

  return {
    /** A shown product's page by any slug it has had; undefined for a hidden product or an unknown slug. */
    async details(slug: string): Promise<ProductDetails | undefined> {
      const row = await db.kysely
        .selectFrom('product_slug as ps')
        .innerJoin('product', 'product.itemid', 'ps.itemid')
        .select([
          'product.itemid',
          'product.slug',
          'product.name',
          'product.price_cents',
          'product.details',
          'product.pic',
          'product.largepic',
          'product.shown',
          'product.size_guide',
        ])
        .where('ps.slug', '=', slug)
        .executeTakeFirst();
      if (!row || Number(row.shown) !== 1) return undefined;
      const [pictures, sizes, category] = await Promise.all([
        db.kysely
          .selectFrom('product_picture')
          .select(['pic', 'largepic'])
          .where('itemid', '=', row.itemid)
          .orderBy('position')
          .execute(),
        db.kysely
          .selectFrom('product_size')
          .select(['size', 'stock'])
          .where('itemid', '=', row.itemid)
          .orderBy('position')
          .execute(),
        db.kysely
          .selectFrom('product_category as pc')
          .innerJoin('category as c', 'c.slug', 'pc.category')
          .select('c.size_guide')
          .where('pc.itemid', '=', row.itemid)
          .where('c.size_guide', 'is not', null)
          .orderBy('c.position')
          .limit(1)
          .executeTakeFirst(),
      ]);
      const guide = row.size_guide ?? category?.size_guide ?? null;
      return {
        itemid: row.itemid,
        slug: row.slug,
        name: row.name,
        priceCents: Number(row.price_cents),
        details: row.details,
        pic: row.pic,
        largepic: row.largepic,
        sizes: sizes.map((s) => ({ size: s.size, stock: Number(s.stock) })),
        pictures,
        sizeGuide: guide === null ? null : (JSON.parse(guide) as SizeGuide),
      };
    },

    async list(query: ProductQuery): Promise<ProductPage> {
      const search = query.q === undefined ? undefined : await searchCondition(db.kysely, db.dialect, query.q);
      const filtered = db.kysely
        .selectFrom('product')
        .where('product.shown', '=', 1)
        .$if(query.category !== undefined, (qb) =>
          qb.where('product.itemid', 'in', (eb) =>
            eb
              .selectFrom('product_category')
              .select('product_category.itemid')
              .where('product_category.category', '=', query.category as string),
          ),
        )
        .$if(query.size !== undefined || query.instock, (qb) =>
          qb.where((eb) =>
            eb.exists(
              eb
                .selectFrom('product_size as s')
                .select('s.itemid')
                .whereRef('s.itemid', '=', 'product.itemid')
                .$if(query.size !== undefined, (sq) => sq.where('s.size', '=', query.size as string))
                .$if(query.instock, (sq) => sq.where('s.stock', '>', 0)),
            ),
          ),
        )
        .$if(search !== undefined, (qb) => qb.where(search as NonNullable<typeof search>));
      const [counted, rows, offered] = await Promise.all([
        filtered.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
        filtered
          .select([
            'product.itemid',
            'product.slug',
            'product.name',
            'product.price_cents',
            'product.details',
            'product.pic',
            'product.largepic',
          ])
          .orderBy('product.position')
          .orderBy('product.itemid')
          .limit(findingLimits.pageSize)
          .offset((query.page - 1) * findingLimits.pageSize)
          .execute(),
        currentChoices(),
      ]);
      const sizes = new Map<string, CatalogueProduct['sizes']>(rows.map((r) => [r.itemid, []]));
      if (rows.length > 0) {
        const sizeRows = await db.kysely
          .selectFrom('product_size')
          .select(['itemid', 'size', 'stock'])
          .where(
            'itemid',
            'in',
            rows.map((r) => r.itemid),
          )
          .orderBy('itemid')
          .orderBy('position')
          .execute();
        for (const row of sizeRows) sizes.get(row.itemid)?.push({ size: row.size, stock: Number(row.stock) });
      }
      const total = Number(counted.total);
      return {
        products: rows.map((r) => ({
          itemid: r.itemid,
          slug: r.slug,
          name: r.name,
          priceCents: Number(r.price_cents),
          details: r.details,
          pic: r.pic,
          largepic: r.largepic,
          sizes: sizes.get(r.itemid) ?? [],
        })),
        page: query.page,
        pages: Math.max(1, Math.ceil(total / findingLimits.pageSize)),
        total,
        ...offered,
      };
    },
  };
}
