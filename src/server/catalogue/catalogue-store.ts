import { createHash, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { CatalogueProduct } from '../../shared/api';
import { brand } from '../../shared/brand';
import { formatCents } from '../../shared/money';
import type { AdminProduct, NewProduct, ProductChange, ProductEdit, SizeEdit } from '../../shared/products';
import { cartTopic } from '../cart/cart-store';
import type { Db, UnitOfWork } from '../db/database';
import type { ProductTable } from '../db/schema';
import type { SizeStock, StockStore } from '../stock/stock-store';
import { catalogueTopic } from './changes';
import { createFinding } from './finding';
import type { PictureFile } from './pictures';
import { indexProduct } from './search-index';
import { freeSlug, slugOf } from './slugs';

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
}

/** The owner making a change, as the product's history keeps them; `uid` null for the shop's own command line. */
export interface Owner {
  uid: string | null;
  email: string;
}

export type ChangeResult =
  | { ok: true; product: AdminProduct }
  /** `changed`: the product is no longer the version the owner's form was filled from. */
  | { ok: false; reason: 'not-found' | 'changed' }
  /** A size's `was` that is not one of the product's sizes (another product's, say). */
  | { ok: false; reason: 'unknown-size'; size: string };

export type OrderResult = { ok: true } | { ok: false; reason: 'not-every-product' };

export type CategoriesResult = ChangeResult | { ok: false; reason: 'unknown-category'; category: string };

/** What a new product shows until its picture is uploaded. */
export const noPicture = { pic: '/pictures/no-picture-thumb.svg', largepic: '/pictures/no-picture.svg' } as const;

/** Where an uploaded picture is served: its URL changes with its content (src/server/catalogue/routes.ts). */
export const pictureUrl = (id: string) => `/media/${id}.webp`;

/** The history keeps at most this many changes of a product for the owner's page (the newest). */
const historyShown = 200;

function toProduct(row: ProductTable): Product {
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
  };
}

const quoted = (text: string) => `“${text}”`;

/** An entry of the owner's sizes, with the size of the product it edits (none: a new size). */
interface SizePair {
  edit: SizeEdit;
  old: SizeStock | undefined;
}

/**
 * Pairs each entry of the form with the size it edits: the one its `was` names, or else the one of its own name,
 * unless another entry renames that one away (then this entry is a new size of the freed name).
 */
function pairSizes(before: readonly SizeStock[], edit: readonly SizeEdit[]): SizePair[] {
  const renamedAway = new Set(edit.flatMap((s) => (s.was !== undefined && s.was !== s.size ? [s.was] : [])));
  return edit.map((size) => {
    const from = size.was ?? (renamedAway.has(size.size) ? undefined : size.size);
    return { edit: size, old: from === undefined ? undefined : before.find((s) => s.size === from) };
  });
}

/** The history's sentences for an edit: one for each thing it changes; none when it changes nothing. */
function describeEdit(before: Product, sizes: readonly SizeStock[], edit: NewProduct, pairs: SizePair[]): string[] {
  const what: string[] = [];
  if (edit.name !== before.name) what.push(`Name ${quoted(before.name)} → ${quoted(edit.name)}`);
  if (edit.details !== before.details) what.push('Details changed');
  if (edit.priceCents !== before.priceCents) {
    what.push(`Price ${formatCents(before.priceCents, brand)} → ${formatCents(edit.priceCents, brand)}`);
  }
  if (edit.weightGrams !== undefined && edit.weightGrams !== before.weightGrams) {
    what.push(`Weight ${before.weightGrams} g → ${edit.weightGrams} g`);
  }
  if (edit.shown !== before.shown) what.push(edit.shown ? 'Shown on the home page' : 'Hidden from the home page');
  for (const { edit: size, old } of pairs) {
    if (!old) {
      what.push(`Size ${quoted(size.size)} added, ${size.stock} in stock`);
      continue;
    }
    if (old.size !== size.size) what.push(`Size ${quoted(old.size)} renamed ${quoted(size.size)}`);
    if (stockToSet(size, old) !== undefined) what.push(`Stock of ${quoted(size.size)} ${old.stock} → ${size.stock}`);
  }
  const kept = pairs.flatMap(({ old }) => (old ? [old.size] : []));
  for (const old of sizes) if (!kept.includes(old.size)) what.push(`Size ${quoted(old.size)} removed`);
  const keptBefore = sizes.map((s) => s.size).filter((name) => kept.includes(name));
  if (keptBefore.join('\u0001') !== kept.join('\u0001')) what.push('Sizes reordered');
  return what;
}

/**
 * The stock to set for a size the product already had: the owner's number when the owner changed it (it differs from
 * what the form showed), otherwise none, so that what orders took meanwhile stays taken.
 */
function stockToSet(size: SizeEdit, old: SizeStock): number | undefined {
  return size.stock !== (size.stockShown ?? old.stock) ? size.stock : undefined;
}

/** The name a renamed size passes through: a control character no owner can type (PostgreSQL's text takes no NUL). */
const passing = (index: number) => `\u0001${index}`;

export type CatalogueStore = ReturnType<typeof createCatalogueStore>;

/**
 * The `product` table and its history and pictures (docs/product.md §13, docs/decisions/0024-owners-catalogue.md).
 * Every server keeps the products in memory and drops them when the catalogue topic says they changed, on any server.
 * Each change of the owner's is one unit of work with the rows in carts it reprices, its history and its events.
 */
export function createCatalogueStore(db: Db, stock: StockStore) {
  let generation = 0;
  let cached: { generation: number; products: Promise<Product[]> } | undefined;
  db.feed.subscribe(catalogueTopic, (change) => {
    if (change.type === 'stock') return;
    generation += 1;
    cached = undefined;
  });

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

  function toAdmin(product: Product, sizes: readonly SizeStock[]): AdminProduct {
    return { ...product, sizes: [...sizes] };
  }

  async function readProduct(uow: UnitOfWork, itemid: string): Promise<Product | undefined> {
    const row = await uow.trx.selectFrom('product').selectAll().where('itemid', '=', itemid).executeTakeFirst();
    return row && toProduct(row);
  }

  /** The product as `uow` has just left it, with its sizes: what every change answers. */
  async function productNow(uow: UnitOfWork, itemid: string): Promise<AdminProduct> {
    return toAdmin((await readProduct(uow, itemid)) as Product, await stock.sizesOf(itemid, uow));
  }

  async function record(uow: UnitOfWork, owner: Owner, itemid: string, what: readonly string[]): Promise<void> {
    const last = await uow.trx
      .selectFrom('product_change')
      .select((eb) => eb.fn.max('seq').as('seq'))
      .where('itemid', '=', itemid)
      .executeTakeFirst();
    await uow.trx
      .insertInto('product_change')
      .values({
        itemid,
        seq: Number(last?.seq ?? 0) + 1,
        at: Date.now(),
        by_uid: owner.uid,
        by_email: owner.email,
        what: what.join('; '),
      })
      .execute();
  }

  /**
   * The slug the product's name makes: the first free one (a slug it had before is its own). `keepSlug` keeps it among
   * its slugs once the product has it, so that every address it ever had leads to it.
   */
  async function nameSlug(uow: UnitOfWork, itemid: string, name: string): Promise<string> {
    const base = slugOf(name);
    // Two products named alike at once take different slugs.
    await uow.lock('product-slug', base);
    return freeSlug(base, async (candidate) => {
      const row = await uow.trx
        .selectFrom('product_slug')
        .select('itemid')
        .where('slug', '=', candidate)
        .executeTakeFirst();
      return row !== undefined && row.itemid !== itemid;
    });
  }

  async function keepSlug(uow: UnitOfWork, itemid: string): Promise<void> {
    await uow.trx
      .insertInto('product_slug')
      .columns(['slug', 'itemid'])
      .expression((eb) => eb.selectFrom('product').select(['slug', 'itemid']).where('itemid', '=', itemid))
      .onConflict((oc) => oc.column('slug').doNothing())
      .execute();
  }

  /** Tells every open cart holding the product to read itself again (a new price, a size renamed, hidden). */
  async function nudgeCarts(uow: UnitOfWork, itemid: string): Promise<void> {
    const riders = await uow.trx
      .selectFrom('cart_item')
      .select('uid')
      .distinct()
      .where('itemid', '=', itemid)
      .execute();
    for (const { uid } of riders) uow.publish(cartTopic(uid), { type: 'changed' });
  }

  /**
   * Makes the product's sizes those of the edit: renamed and kept ones updated where they are (an order taking one of
   * them meanwhile waits for the edit, then takes from what it left), new ones added, the rest removed. Renames pass
   * through names no owner can type, so that two sizes can swap names.
   */
  async function applySizes(uow: UnitOfWork, itemid: string, before: readonly SizeStock[], pairs: SizePair[]) {
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
        .returning('stock')
        .execute();
      if (row) uow.publish(catalogueTopic, { type: 'stock', itemid, size: size.size, stock: Number(row.stock) });
    }
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
  function unknownSize(before: readonly SizeStock[], edit: readonly SizeEdit[]): string | undefined {
    const was = edit.flatMap((s) => (s.was === undefined ? [] : [s.was]));
    const twice = was.find((name, index) => was.indexOf(name) !== index);
    if (twice !== undefined) return twice;
    return was.find((name) => !before.some((s) => s.size === name));
  }

  const finding = createFinding(db, products);

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
    async shown(): Promise<CatalogueProduct[]> {
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
    },

    /** The back office's list: every product, shown or hidden, with its sizes and stock. */
    async all(): Promise<AdminProduct[]> {
      const list = await products();
      const sizes = await withSizes(list);
      return list.map((product) => toAdmin(product, sizes.get(product.itemid) ?? []));
    },

    /** One product for the owner's page, with its history, newest first. */
    async withHistory(itemid: string): Promise<{ product: AdminProduct; history: ProductChange[] } | undefined> {
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
        product: toAdmin(toProduct(row), await stock.sizesOf(itemid)),
        history: changes.map((c) => ({ at: new Date(Number(c.at)).toISOString(), by: c.by_email, what: c.what })),
      };
    },

    /**
     * Saves the owner's form, unless the product changed since it was filled (`version`). A new price, name or
     * details reach the product's rows in carts in the same unit of work; placed orders keep theirs (their lines
     * are copies).
     */
    update(owner: Owner, itemid: string, edit: ProductEdit): Promise<ChangeResult> {
      return db.run(async (uow) => {
        await uow.lock('product', itemid);
        const before = await readProduct(uow, itemid);
        if (!before) return { ok: false, reason: 'not-found' } as const;
        if (before.version !== edit.version) return { ok: false, reason: 'changed' } as const;
        const sizes = await stock.sizesOf(itemid, uow);
        const unknown = unknownSize(sizes, edit.sizes);
        if (unknown !== undefined) return { ok: false, reason: 'unknown-size', size: unknown } as const;
        const pairs = pairSizes(sizes, edit.sizes);
        const what = describeEdit(before, sizes, edit, pairs);
        if (what.length === 0) return { ok: true, product: toAdmin(before, sizes) } as const;

        await uow.trx
          .updateTable('product')
          .set({
            name: edit.name,
            ...(edit.name === before.name ? {} : { slug: await nameSlug(uow, itemid, edit.name) }),
            details: edit.details,
            price_cents: edit.priceCents,
            weight_grams: edit.weightGrams ?? before.weightGrams,
            shown: edit.shown ? 1 : 0,
            version: before.version + 1,
            updated_at: Date.now(),
          })
          .where('itemid', '=', itemid)
          .execute();
        await applySizes(uow, itemid, sizes, pairs);
        if (edit.name !== before.name) await keepSlug(uow, itemid);
        if (edit.name !== before.name || edit.details !== before.details) {
          await indexProduct(uow.trx, db.dialect, itemid);
        }
        if (edit.name !== before.name || edit.details !== before.details || edit.priceCents !== before.priceCents) {
          await uow.trx
            .updateTable('cart_item')
            .set({ name: edit.name, details: edit.details, price_cents: edit.priceCents })
            .where('itemid', '=', itemid)
            .execute();
        }
        await nudgeCarts(uow, itemid);
        await record(uow, owner, itemid, what);
        uow.publish(catalogueTopic, { type: 'products' });
        return { ok: true, product: await productNow(uow, itemid) } as const;
      });
    },

    /** Adds a product at the end of the home page, with the next item number; its picture comes next. */
    create(owner: Owner, input: NewProduct): Promise<AdminProduct> {
      return db.run(async (uow) => {
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
            version: 1,
            updated_at: Date.now(),
          })
          .execute();
        await applySizes(uow, itemid, [], pairSizes([], input.sizes));
        await keepSlug(uow, itemid);
        await uow.trx
          .insertInto('product_picture')
          .values({ itemid, position: 1, ...noPicture })
          .execute();
        await indexProduct(uow.trx, db.dialect, itemid);
        await record(uow, owner, itemid, ['Added']);
        uow.publish(catalogueTopic, { type: 'products' });
        return productNow(uow, itemid);
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
          await record(uow, owner, itemid, [`Moved from place ${row.position} to ${index + 1} on the home page`]);
        }
        uow.publish(catalogueTopic, { type: 'products' });
        return { ok: true } as const;
      });
    },

    /**
     * Puts the product in the categories (their slugs, in any order): its search index follows in the same unit of
     * work, its history says which it is in now.
     */
    setCategories(owner: Owner, itemid: string, slugs: readonly string[]): Promise<CategoriesResult> {
      return db.run(async (uow) => {
        await uow.lock('product', itemid);
        const before = await readProduct(uow, itemid);
        if (!before) return { ok: false, reason: 'not-found' } as const;
        const wanted = [...new Set(slugs)];
        const known =
          wanted.length === 0
            ? []
            : await uow.trx
                .selectFrom('category')
                .select(['slug', 'name'])
                .where('slug', 'in', wanted)
                .orderBy('position')
                .execute();
        const unknown = wanted.find((slug) => !known.some((c) => c.slug === slug));
        if (unknown !== undefined) return { ok: false, reason: 'unknown-category', category: unknown } as const;
        const current = await uow.trx
          .selectFrom('product_category')
          .select('category')
          .where('itemid', '=', itemid)
          .execute();
        const same = current.length === known.length && current.every((c) => wanted.includes(c.category));
        if (same) return { ok: true, product: await productNow(uow, itemid) } as const;
        await uow.trx.deleteFrom('product_category').where('itemid', '=', itemid).execute();
        if (known.length > 0) {
          await uow.trx
            .insertInto('product_category')
            .values(known.map((c) => ({ category: c.slug, itemid })))
            .execute();
        }
        await uow.trx
          .updateTable('product')
          .set({ version: before.version + 1, updated_at: Date.now() })
          .where('itemid', '=', itemid)
          .execute();
        await indexProduct(uow.trx, db.dialect, itemid);
        const names = known.map((c) => quoted(c.name)).join(', ');
        await record(uow, owner, itemid, [known.length > 0 ? `Categories: ${names}` : 'In no category']);
        uow.publish(catalogueTopic, { type: 'products' });
        return { ok: true, product: await productNow(uow, itemid) } as const;
      });
    },

    /** Gives the product the new picture: both files kept by their hash, the product's URLs changed with them. */
    setPicture(owner: Owner, itemid: string, thumb: PictureFile, large: PictureFile): Promise<ChangeResult> {
      return db.run(async (uow) => {
        await uow.lock('product', itemid);
        const before = await readProduct(uow, itemid);
        if (!before) return { ok: false, reason: 'not-found' } as const;
        const urls: string[] = [];
        for (const file of [thumb, large]) {
          const id = createHash('sha256').update(file.bytes).digest('hex');
          // The same bytes uploaded again are new again: the cleaning of unused pictures, on any server, waits for
          // this row and then leaves it (src/server/catalogue/unused-pictures.ts).
          await uow.trx
            .insertInto('picture')
            .values({ id, content_type: file.contentType, bytes: file.bytes, created_at: Date.now() })
            .onConflict((oc) => oc.column('id').doUpdateSet((eb) => ({ created_at: eb.ref('excluded.created_at') })))
            .execute();
          urls.push(pictureUrl(id));
        }
        await uow.trx
          .updateTable('product')
          .set({
            pic: urls[0] as string,
            largepic: urls[1] as string,
            version: before.version + 1,
            updated_at: Date.now(),
          })
          .where('itemid', '=', itemid)
          .execute();
        // The first of its pictures, on its page as on its card.
        await uow.trx
          .updateTable('product_picture')
          .set({ pic: urls[0] as string, largepic: urls[1] as string })
          .where('itemid', '=', itemid)
          .where('position', '=', 1)
          .execute();
        await record(uow, owner, itemid, ['New picture']);
        uow.publish(catalogueTopic, { type: 'products' });
        return { ok: true, product: await productNow(uow, itemid) } as const;
      });
    },

    /** An uploaded picture's bytes and type, by its id. */
    async picture(id: string): Promise<{ contentType: string; bytes: Buffer } | undefined> {
      const row = await db.kysely
        .selectFrom('picture')
        .select(['content_type', 'bytes'])
        .where('id', '=', id)
        .executeTakeFirst();
      return row && { contentType: row.content_type, bytes: Buffer.from(row.bytes) };
    },
  };
}
