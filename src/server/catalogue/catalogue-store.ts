import { sql } from 'kysely';
import type { CatalogueProduct } from '../../shared/api';
import type { MoneyFormat } from '../../shared/money';
import type { AdminProduct, NewProduct, ProductChange, ProductEdit } from '../../shared/products';
import type { Owner } from '../auth/owner';
import type { Db, UnitOfWork } from '../db/database';
import { versionOf } from '../live/live-streams';
import { catalogueTopic } from '../stock/catalogue-changes';
import type { SizeStock, StockStore } from '../stock/stock-store';
import { endWaitsOfHidden, waitingBySize } from '../stock/stock-waits';
import { createFinding } from './finding';
import { type ChangeResult, extrasOf, type Product, readProduct, toAdmin, toProduct } from './product';
import { categoriesFor, placeIn } from './product-categories';
import { describeEdit, guideText, historyShown, recordChange } from './product-history';
import { createProductPictures, noPicture } from './product-pictures';
import { indexProduct } from './search-index';
import { applySizes, pairSizes, unknownSize } from './size-edits';
import { keepSlug, nameSlug } from './slugs';

export type OrderResult = { ok: true } | { ok: false; reason: 'not-every-product' };

export type CatalogueStore = ReturnType<typeof createCatalogueStore>;

/** How the shop writes its amounts, as its settings say (src/server/settings/settings-store.ts). */
export interface PriceFormats {
  current(uow?: UnitOfWork): Promise<{ format: MoneyFormat }>;
}

/**
 * Told, in the change's unit of work, that a product changed as those holding it see it (a new price, a size renamed,
 * hidden): the riders' carts (`nudgeCarts`, src/server/cart/cart-nudge.ts). Given, not imported: the cart reads the
 * catalogue, and the catalogue knows no cart (docs/decisions/0057-boundaries-that-hold.md).
 */
export type ProductChanged = (uow: UnitOfWork, itemid: string) => Promise<void>;

/**
 * The `product` table (docs/product.md §13, docs/decisions/0024-owners-catalogue.md), with its history
 * (product-history.ts), sizes (size-edits.ts), categories (product-categories.ts), slugs (slugs.ts) and pictures
 * (product-pictures.ts).
 * Every server keeps the products in memory and drops them when the catalogue topic says they changed, on any server.
 * Each change of the owner's is one unit of work with the rows in carts it reprices, its history and its events.
 */
export function createCatalogueStore(
  db: Db,
  stock: StockStore,
  settings: PriceFormats,
  productChanged: ProductChanged,
) {
  let generation = 0;
  let cached: { generation: number; products: Promise<Product[]> } | undefined;
  /** Changes of stock heard of, on any server: what `shownVersion` was made at. */
  let stockChanges = 0;
  db.feed.subscribe(catalogueTopic, (change) => {
    if (change.type === 'stock') {
      stockChanges += 1;
      return;
    }
    generation += 1;
    cached = undefined;
  });
  let version: { at: string; version: Promise<string> } | undefined;

  const everyProduct = db.precompile(0, () =>
    db.kysely.selectFrom('product').selectAll().orderBy('position').orderBy('itemid'),
  );

  /** Every product, shown or not, in the home page's order: from memory when nothing has changed since. */
  function products(): Promise<Product[]> {
    if (cached?.generation === generation) return cached.products;
    const loading = everyProduct(undefined).then((rows) => rows.map(toProduct));
    const entry = { generation, products: loading };
    cached = entry;
    // A failed read is not kept: the next caller reads again.
    loading.catch(() => {
      if (cached === entry) cached = undefined;
    });
    return loading;
  }

  async function withSizes(list: readonly Product[]): Promise<Map<string, SizeStock[]>> {
    const sizes = new Map<string, SizeStock[]>(list.map((p) => [p.itemid, []]));
    for (const { itemid, size, stock: left } of await stock.all()) sizes.get(itemid)?.push({ size, stock: left });
    return sizes;
  }

  /** What the home page shows: the shown products in the owner's order, with their sizes and stock. */
  async function shown(): Promise<CatalogueProduct[]> {
    const list = (await products()).filter((p) => p.shown);
    const sizes = await withSizes(list);
    return list.map(({ itemid, slug, name, priceCents, details, pic, largepic }) => ({
      itemid,
      slug,
      name,
      priceCents,
      details,
      pic,
      largepic,
      sizes: sizes.get(itemid) ?? [],
    }));
  }

  /** The product as `uow` has just left it, with its sizes: what every change answers. */
  async function productNow(uow: UnitOfWork, itemid: string): Promise<AdminProduct> {
    const [sizes, extras] = await Promise.all([stock.sizesOf(itemid, uow), extrasOf(uow.trx, itemid)]);
    return toAdmin((await readProduct(uow, itemid)) as Product, sizes, extras.get(itemid));
  }

  const finding = createFinding(db, products);
  const pictures = createProductPictures(db, productNow);

  return {
    products,

    /** A page of the shown products, searched and filtered (docs/product.md §22). */
    list: finding.list,

    /** A shown product's page by any slug it has had (docs/product.md §22). */
    details: finding.details,

    /** One product, shown or not. */
    async find(itemid: string): Promise<Product | undefined> {
      return (await products()).find((p) => p.itemid === itemid);
    },

    /** What the home page shows: the shown products in the owner's order, with their sizes and stock. */
    shown,

    /**
     * Whether the product is on the home page now: from the products in memory, which a change of the owner's drops
     * before any stream hears of it (the feed tells its listeners in turn, this store first).
     */
    isShown: finding.isShown,

    /**
     * The version of `shown()` (a hash of it, the same on every server), made once for each change of the products or
     * of a size's stock: every rider's home and product page and each catalogue stream asks it, and making it reads
     * and hashes every shown product with its sizes (some 270 ms for 10,000 products, 50,000 sizes).
     */
    shownVersion(): Promise<string> {
      const at = `${generation}:${stockChanges}`;
      if (version?.at === at) return version.version;
      const made = { at, version: shown().then(versionOf) };
      version = made;
      // A failed read is not kept: the next caller reads again.
      made.version.catch(() => {
        if (version === made) version = undefined;
      });
      return made.version;
    },

    /** The back office's list: every product, shown or hidden, with its sizes and stock. */
    async all(): Promise<AdminProduct[]> {
      const list = await products();
      const [sizes, extras] = await Promise.all([withSizes(list), extrasOf(db.kysely)]);
      return list.map((product) => toAdmin(product, sizes.get(product.itemid) ?? [], extras.get(product.itemid)));
    },

    /** One product for the owner's page, with its history, newest first. */
    async withHistory(
      itemid: string,
    ): Promise<{ product: AdminProduct; history: ProductChange[]; waiting: Record<string, number> } | undefined> {
      const row = await db.kysely.selectFrom('product').selectAll().where('itemid', '=', itemid).executeTakeFirst();
      if (!row) return undefined;
      const changes = await db.kysely
        .selectFrom('product_change')
        .select(['at', 'by_email', 'what'])
        .where('itemid', '=', itemid)
        .orderBy('seq', 'desc')
        .limit(historyShown)
        .execute();
      return {
        product: toAdmin(toProduct(row), await stock.sizesOf(itemid), (await extrasOf(db.kysely, itemid)).get(itemid)),
        history: changes.map((c) => ({ at: new Date(Number(c.at)).toISOString(), by: c.by_email, what: c.what })),
        waiting: await waitingBySize(db.kysely, itemid),
      };
    },

    /**
     * Saves the owner's form, unless the product changed since it was filled (`version`). A new price, name or
     * details reach the product's rows in carts in the same unit of work; placed orders keep theirs (their lines
     * are copies). Its categories and size guide, when the form sends them, are saved with it.
     */
    update(owner: Owner, itemid: string, edit: ProductEdit): Promise<ChangeResult> {
      return db.run(async (uow) => {
        // The categories' lock comes first, as their own changes take it (category-store.ts).
        if (edit.categories !== undefined) await uow.lock('category', 'all');
        await uow.lock('product', itemid);
        const before = await readProduct(uow, itemid);
        if (!before) return { ok: false, reason: 'not-found' } as const;
        if (before.version !== edit.version) return { ok: false, reason: 'changed' } as const;
        // Every size of the product locked first, as orders take them: the form then changes them in its own order.
        await stock.lockSizes(uow, [itemid]);
        const sizes = await stock.sizesOf(itemid, uow);
        const unknown = unknownSize(sizes, edit.sizes);
        if (unknown !== undefined) return { ok: false, reason: 'unknown-size', size: unknown } as const;
        const placing = edit.categories === undefined ? undefined : await categoriesFor(uow, itemid, edit.categories);
        if (placing && !placing.ok) return placing;
        const pairs = pairSizes(sizes, edit.sizes);
        const what = describeEdit(before, sizes, edit, pairs, (await settings.current(uow)).format);
        if (placing?.what) what.push(placing.what);
        if (what.length === 0) {
          return { ok: true, product: toAdmin(before, sizes, (await extrasOf(uow.trx, itemid)).get(itemid)) } as const;
        }

        await uow.trx
          .updateTable('product')
          .set({
            name: edit.name,
            ...(edit.name === before.name ? {} : { slug: await nameSlug(uow, itemid, edit.name) }),
            details: edit.details,
            price_cents: edit.priceCents,
            weight_grams: edit.weightGrams ?? before.weightGrams,
            shown: edit.shown ? 1 : 0,
            ...(edit.sizeGuide === undefined ? {} : { size_guide: guideText(edit.sizeGuide) }),
            version: before.version + 1,
            updated_at: Date.now(),
          })
          .where('itemid', '=', itemid)
          .execute();
        await applySizes(uow, itemid, sizes, pairs, stock.rose);
        if (!edit.shown) await endWaitsOfHidden(uow, itemid);
        if (placing?.what) await placeIn(uow, itemid, placing.slugs);
        if (edit.name !== before.name) await keepSlug(uow, itemid);
        if (edit.name !== before.name || edit.details !== before.details || placing?.what) {
          await indexProduct(uow.trx, db.dialect, itemid);
        }
        if (edit.name !== before.name || edit.details !== before.details || edit.priceCents !== before.priceCents) {
          await uow.trx
            .updateTable('cart_item')
            .set({ name: edit.name, details: edit.details, price_cents: edit.priceCents })
            .where('itemid', '=', itemid)
            .execute();
        }
        await productChanged(uow, itemid);
        await recordChange(uow, owner, itemid, what);
        uow.publish(catalogueTopic, { type: 'products' });
        return { ok: true, product: await productNow(uow, itemid) } as const;
      });
    },

    /** Adds a product at the end of the home page, with the next item number; its picture comes next. */
    create(owner: Owner, input: NewProduct): Promise<ChangeResult> {
      return db.run(async (uow) => {
        if (input.categories?.length) await uow.lock('category', 'all');
        // Two owners adding at once take different item numbers.
        await uow.lock('product', 'new');
        const last = await uow.trx
          .selectFrom('product')
          .select([
            sql<number | null>`max(cast(itemid as integer))`.as('itemid'),
            (eb) => eb.fn.max('position').as('position'),
          ])
          .executeTakeFirst();
        const itemid = String(Number(last?.itemid ?? 0) + 1);
        const placing = await categoriesFor(uow, itemid, input.categories ?? []);
        if (!placing.ok) return placing;
        await uow.trx
          .insertInto('product')
          .values({
            itemid,
            position: Number(last?.position ?? 0) + 1,
            name: input.name,
            slug: await nameSlug(uow, itemid, input.name),
            details: input.details,
            price_cents: input.priceCents,
            weight_grams: input.weightGrams ?? 0,
            ...noPicture,
            shown: input.shown ? 1 : 0,
            size_guide: guideText(input.sizeGuide ?? null),
            version: 1,
            updated_at: Date.now(),
          })
          .execute();
        await applySizes(uow, itemid, [], pairSizes([], input.sizes), stock.rose);
        await keepSlug(uow, itemid);
        await uow.trx
          .insertInto('product_picture')
          .values({ itemid, position: 1, ...noPicture })
          .execute();
        await placeIn(uow, itemid, placing.slugs);
        await indexProduct(uow.trx, db.dialect, itemid);
        await recordChange(uow, owner, itemid, ['Added']);
        uow.publish(catalogueTopic, { type: 'products' });
        return { ok: true, product: await productNow(uow, itemid) } as const;
      });
    },

    /** Puts the products in the owner's order: every product's item number, each once. */
    reorder(owner: Owner, itemids: readonly string[]): Promise<OrderResult> {
      return db.run(async (uow) => {
        await uow.lock('product', 'new');
        const rows = await uow.trx.selectFrom('product').select(['itemid', 'position', 'version']).execute();
        const every = new Set(rows.map((r) => r.itemid));
        if (new Set(itemids).size !== itemids.length || itemids.length !== every.size) {
          return { ok: false, reason: 'not-every-product' } as const;
        }
        if (itemids.some((id) => !every.has(id))) return { ok: false, reason: 'not-every-product' } as const;
        for (const [index, itemid] of itemids.entries()) {
          const row = rows.find((r) => r.itemid === itemid);
          if (!row || Number(row.position) === index + 1) continue;
          await uow.trx
            .updateTable('product')
            .set({ position: index + 1, updated_at: Date.now() })
            .where('itemid', '=', itemid)
            .execute();
          await recordChange(uow, owner, itemid, [`Moved from place ${row.position} to ${index + 1} on the home page`]);
        }
        uow.publish(catalogueTopic, { type: 'products' });
        return { ok: true } as const;
      });
    },

    ...pictures,
  };
}
