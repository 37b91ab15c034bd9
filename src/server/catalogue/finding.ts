import { type Expression, expressionBuilder, type SqlBool, sql } from 'kysely';
import type { CatalogueProduct } from '../../shared/api';
import type { Category, ProductDetails, ProductPage, ProductQuery, SizeGuide } from '../../shared/finding';
import { findingLimits } from '../../shared/limits';
import type { Db } from '../db/database';
import type { Tables } from '../db/schema';
import { catalogueTopic } from '../stock/catalogue-changes';
import type { Product } from './product';
import { searchMatches } from './search-index';

export type Finding = ReturnType<typeof createFinding>;

/** The sizes of each of `itemids`, in the owner's order, with their stock: one read for a whole page of products. */
export async function sizesOfProducts(db: Db, itemids: string[]): Promise<Map<string, CatalogueProduct['sizes']>> {
  const sizes = new Map<string, CatalogueProduct['sizes']>(itemids.map((itemid) => [itemid, []]));
  if (itemids.length === 0) return sizes;
  const rows = await db.kysely
    .selectFrom('product_size')
    .select(['itemid', 'size', 'stock'])
    .where('itemid', 'in', itemids)
    .orderBy('itemid')
    .orderBy('position')
    .execute();
  for (const row of rows) sizes.get(row.itemid)?.push({ size: row.size, stock: Number(row.stock) });
  return sizes;
}

/** Product pages each server keeps in memory, the most recently asked (docs/decisions/0063). */
const productPagesKept = 2_000;

/** What a product's card shows, as the list and a product's page read it. */
const cardColumns = [
  'product.itemid',
  'product.slug',
  'product.name',
  'product.price_cents',
  'product.details',
  'product.pic',
  'product.largepic',
] as const;

/** The choices the filters offer, kept by each server until the catalogue changes (on any server). */
interface Choices {
  categories: Category[];
  sizes: string[];
}

/** A page of the list before its sizes are read, and how many products the list has in all. */
interface Found {
  total: number;
  rows: Pick<Product, 'itemid' | 'slug' | 'name' | 'priceCents' | 'details' | 'pic' | 'largepic'>[];
}

/** The shown products in the list's order, and where each is in it (by item number). */
interface ShownOrder {
  products: Product[];
  at: Map<string, number>;
}

/**
 * The key of a list's count that no change of stock can change (no search, no size, not in stock only): the count of a
 * category, or of every shown product. Other counts are read with their page.
 */
function keptCountKey(query: ProductQuery): string | undefined {
  return query.q === undefined && query.size === undefined && !query.instock ? (query.category ?? '') : undefined;
}

/**
 * The list of shown products (docs/product.md §22): searched by the database's index, filtered by category, size and
 * stock, in the owner's order, a page at a time. Only the page's products are read, with their sizes.
 */
export function createFinding(db: Db, products: () => Promise<Product[]>) {
  // By the products' list they were made from: a new list (after a change of the catalogue) makes a new order.
  const orders = new WeakMap<Product[], ShownOrder>();
  let choices: Promise<Choices> | undefined;
  // The counts of the lists without a search or a stock filter, by keptCountKey: one per category at most, and one of
  // every shown product. Kept until the catalogue changes (on any server), as the choices are.
  let counts = new Map<string, Promise<number>>();
  // Shown products' pages by slug, kept until the catalogue changes or one of the product's sizes changes stock (on
  // any server): a product page's data is then read from memory (docs/decisions/0063). An entry knows the catalogue's
  // generation and its product's count of stock changes; a read that any change overtook is not kept.
  let generation = 0;
  let stockEvents = 0;
  const stockChanges = new Map<string, number>();
  const pages = new Map<string, { generation: number; stock: number; details: ProductDetails }>();
  db.feed.subscribe(catalogueTopic, (change) => {
    if (change.type === 'stock') {
      stockEvents += 1;
      stockChanges.set(change.itemid, (stockChanges.get(change.itemid) ?? 0) + 1);
      return;
    }
    generation += 1;
    stockChanges.clear();
    pages.clear();
    choices = undefined;
    counts = new Map();
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

  /** `count()`, or the count kept for `key` (read once with `count()` and kept until the catalogue changes). */
  function keptCount(key: string | undefined, count: () => Promise<number>): Promise<number> {
    if (key === undefined) return count();
    const kept = counts.get(key);
    if (kept) return kept;
    const loading = count();
    const into = counts;
    into.set(key, loading);
    loading.catch(() => {
      if (into.get(key) === loading) into.delete(key);
    });
    return loading;
  }

  /**
   * The filters other than the search (category, size, in stock only) on the product whose `itemid` is `itemid`: each
   * an `exists` on the product's own rows, so that the database reads the products in the owner's order and stops at
   * the page's end rather than reading a whole category to sort it.
   */
  function filters(query: ProductQuery, itemid: 'product.itemid' | 'm.itemid'): Expression<SqlBool> {
    const eb = expressionBuilder<Tables, never>();
    return eb.and([
      ...(query.category === undefined
        ? []
        : [
            eb.exists(
              eb
                .selectFrom('product_category as pc')
                .select('pc.itemid')
                .where('pc.itemid', '=', sql.ref<string>(itemid))
                .where('pc.category', '=', query.category),
            ),
          ]),
      ...(query.size === undefined && !query.instock
        ? []
        : [
            eb.exists(
              eb
                .selectFrom('product_size as s')
                .select('s.itemid')
                .where('s.itemid', '=', sql.ref<string>(itemid))
                .$if(query.size !== undefined, (sq) => sq.where('s.size', '=', query.size as string))
                .$if(query.instock, (sq) => sq.where('s.stock', '>', 0)),
            ),
          ]),
    ]);
  }

  const pageStart = (query: ProductQuery) => (query.page - 1) * findingLimits.pageSize;

  /** A page of the list without a search: read in the owner's order, its count kept where no stock can change it. */
  async function listed(query: ProductQuery): Promise<Found> {
    const filtered = db.kysely
      .selectFrom('product')
      .where('product.shown', '=', 1)
      .where(filters(query, 'product.itemid'));
    const [total, rows] = await Promise.all([
      keptCount(keptCountKey(query), async () =>
        Number((await filtered.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow()).total),
      ),
      filtered
        .select(cardColumns)
        .orderBy('product.position')
        .orderBy('product.itemid')
        .limit(findingLimits.pageSize)
        .offset(pageStart(query))
        .execute(),
    ]);
    return { total, rows: rows.map((r) => ({ ...r, priceCents: Number(r.price_cents) })) };
  }

  /**
   * A page of a search: the products it matches, with the other filters, read from the index once (never the whole
   * product table, which a count and a page would each read again); which of them are shown, their order and their
   * fields from the products each server keeps in memory (ADR 0045).
   */
  async function searched(query: ProductQuery, q: string): Promise<Found> {
    const matches = await searchMatches(db.kysely, db.dialect, q);
    const [found, order] = await Promise.all([
      db.kysely
        .selectFrom(sql<{ itemid: string }>`(${matches})`.as('m'))
        .select('m.itemid')
        .where(filters(query, 'm.itemid'))
        .execute(),
      shownOrder(),
    ]);
    const shown = found.flatMap(({ itemid }) => {
      const at = order.at.get(itemid);
      return at === undefined ? [] : [at];
    });
    shown.sort((a, b) => a - b);
    const start = pageStart(query);
    const rows = shown.slice(start, start + findingLimits.pageSize).map((at) => order.products[at] as Product);
    return { total: shown.length, rows };
  }

  /** The shown products in the list's order (the owner's, then the item number), and where each is in it. */
  async function shownOrder(): Promise<ShownOrder> {
    const all = await products();
    let order = orders.get(all);
    if (!order) {
      const list = all.filter((p) => p.shown);
      order = { products: list, at: new Map(list.map((p, at) => [p.itemid, at])) };
      orders.set(all, order);
    }
    return order;
  }

  /** A shown product's page by any slug it has had, read from the database; undefined for a hidden or unknown one. */
  async function readDetails(slug: string): Promise<ProductDetails | undefined> {
    const row = await db.kysely
      .selectFrom('product_slug as ps')
      .innerJoin('product', 'product.itemid', 'ps.itemid')
      .select([...cardColumns, 'product.shown', 'product.size_guide'])
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
  }

  return {
    /** Whether the product is shown, as this server knows the products now (hidden, or no such product: false). */
    async isShown(itemid: string): Promise<boolean> {
      return (await shownOrder()).at.has(itemid);
    },

    /**
     * A shown product's page by any slug it has had; undefined for a hidden product or an unknown slug. Kept by slug
     * (the last `productPagesKept` asked), while nothing it shows has changed; a slug that names no shown
     * product is not kept.
     */
    async details(slug: string): Promise<ProductDetails | undefined> {
      const kept = pages.get(slug);
      if (kept && kept.generation === generation && kept.stock === (stockChanges.get(kept.details.itemid) ?? 0)) {
        // The most recently asked last: the first in the map is the one to drop.
        pages.delete(slug);
        pages.set(slug, kept);
        return kept.details;
      }
      const began = { generation, stockEvents };
      const details = await readDetails(slug);
      if (details && began.generation === generation && began.stockEvents === stockEvents) {
        pages.delete(slug);
        pages.set(slug, { generation, stock: stockChanges.get(details.itemid) ?? 0, details });
        if (pages.size > productPagesKept) pages.delete(pages.keys().next().value as string);
      }
      return details;
    },

    async list(query: ProductQuery): Promise<ProductPage> {
      const [found, offered] = await Promise.all([
        query.q === undefined ? listed(query) : searched(query, query.q),
        currentChoices(),
      ]);
      const { total, rows } = found;
      const sizes = await sizesOfProducts(
        db,
        rows.map((r) => r.itemid),
      );
      return {
        products: rows.map((r) => ({
          itemid: r.itemid,
          slug: r.slug,
          name: r.name,
          priceCents: r.priceCents,
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
