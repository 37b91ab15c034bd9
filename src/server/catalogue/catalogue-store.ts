import { createHash, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { CatalogueProduct } from '../../shared/api';
import type { ProductPicture, SizeGuide } from '../../shared/finding';
import { findingLimits } from '../../shared/limits';
import { formatCents, type MoneyFormat } from '../../shared/money';
import type { AdminProduct, NewProduct, ProductChange, ProductEdit, SizeEdit } from '../../shared/products';
import type { Owner } from '../auth/owner';
import type { Db, UnitOfWork } from '../db/database';
import type { ProductTable } from '../db/schema';
import { versionOf } from '../live/live-streams';
import { catalogueTopic } from '../stock/catalogue-changes';
import type { SizeStock, StockStore } from '../stock/stock-store';
import { createFinding } from './finding';
import type { PictureFile } from './pictures';
import type { Product } from './product';
import { indexProduct } from './search-index';
import { freeSlug, slugOf } from './slugs';

export type ChangeResult =
  | { ok: true; product: AdminProduct }
  /** `changed`: the product is no longer the version the owner's form was filled from. */
  | { ok: false; reason: 'not-found' | 'changed' }
  /** A size's `was` that is not one of the product's sizes (another product's, say). */
  | { ok: false; reason: 'unknown-size'; size: string }
  /** A category's slug that no category has. */
  | { ok: false; reason: 'unknown-category'; category: string };

/** What arranging a product's pictures may answer besides: a place that is none of its pictures'. */
export type PicturesResult = ChangeResult | { ok: false; reason: 'unknown-picture' | 'too-many' };

export type OrderResult = { ok: true } | { ok: false; reason: 'not-every-product' };

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
    sizeGuide: row.size_guide === null ? null : (JSON.parse(row.size_guide) as SizeGuide),
  };
}

/** A size guide as the database keeps it: JSON, or null. */
export const guideText = (guide: SizeGuide | null) => (guide === null ? null : JSON.stringify(guide));

/** The history's sentence for a size guide set to `after` from `before`; none when it is the same. */
export function describeGuide(before: SizeGuide | null, after: SizeGuide | null): string | undefined {
  if (guideText(before) === guideText(after)) return undefined;
  if (after === null) return 'Size guide removed';
  return before === null ? 'Size guide written' : 'Size guide changed';
}

/** A product's categories (their slugs, in the categories' order) and pictures (in the owner's order). */
interface Extras {
  categories: string[];
  pictures: ProductPicture[];
}

type Executor = Pick<UnitOfWork['trx'], 'selectFrom'>;

/** The categories and pictures of one product, or of every product when `itemid` is undefined. */
async function extrasOf(trx: Executor, itemid?: string): Promise<Map<string, Extras>> {
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

/** One change to products, in each one's history (by the owner making it). */
export async function recordChange(uow: UnitOfWork, owner: Owner, itemid: string, what: readonly string[]) {
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
function describeEdit(
  before: Product,
  sizes: readonly SizeStock[],
  edit: NewProduct,
  pairs: SizePair[],
  format: MoneyFormat,
): string[] {
  const what: string[] = [];
  if (edit.name !== before.name) what.push(`Name ${quoted(before.name)} → ${quoted(edit.name)}`);
  if (edit.details !== before.details) what.push('Details changed');
  if (edit.priceCents !== before.priceCents) {
    what.push(`Price ${formatCents(before.priceCents, format)} → ${formatCents(edit.priceCents, format)}`);
  }
  if (edit.weightGrams !== undefined && edit.weightGrams !== before.weightGrams) {
    what.push(`Weight ${before.weightGrams} g → ${edit.weightGrams} g`);
  }
  if (edit.shown !== before.shown) what.push(edit.shown ? 'Shown on the home page' : 'Hidden from the home page');
  const guide = edit.sizeGuide === undefined ? undefined : describeGuide(before.sizeGuide, edit.sizeGuide);
  if (guide) what.push(guide);
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

  function toAdmin(product: Product, sizes: readonly SizeStock[], extras: Extras | undefined): AdminProduct {
    return { ...product, sizes: [...sizes], categories: extras?.categories ?? [], pictures: extras?.pictures ?? [] };
  }

  async function readProduct(uow: UnitOfWork, itemid: string): Promise<Product | undefined> {
    const row = await uow.trx.selectFrom('product').selectAll().where('itemid', '=', itemid).executeTakeFirst();
    return row && toProduct(row);
  }

  /** The product as `uow` has just left it, with its sizes: what every change answers. */
  async function productNow(uow: UnitOfWork, itemid: string): Promise<AdminProduct> {
    const [sizes, extras] = await Promise.all([stock.sizesOf(itemid, uow), extrasOf(uow.trx, itemid)]);
    return toAdmin((await readProduct(uow, itemid)) as Product, sizes, extras.get(itemid));
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

  /**
   * The categories of `slugs` (in the categories' order), and what the product's history says of putting it in them
   * (none when it is in them already); `unknown-category` for a slug no category has.
   */
  async function categoriesFor(
    uow: UnitOfWork,
    itemid: string,
    slugs: readonly string[],
  ): Promise<
    { ok: true; slugs: string[]; what?: string } | { ok: false; reason: 'unknown-category'; category: string }
  > {
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
    if (unknown !== undefined) return { ok: false, reason: 'unknown-category', category: unknown };
    const current = await uow.trx
      .selectFrom('product_category')
      .select('category')
      .where('itemid', '=', itemid)
      .execute();
    const chosen = known.map((c) => c.slug);
    if (current.length === chosen.length && current.every((c) => chosen.includes(c.category))) {
      return { ok: true, slugs: chosen };
    }
    const names = known.map((c) => quoted(c.name)).join(', ');
    return { ok: true, slugs: chosen, what: known.length > 0 ? `Categories: ${names}` : 'In no category' };
  }

  /** Puts the product in exactly the categories of `slugs` (known ones). */
  async function placeIn(uow: UnitOfWork, itemid: string, slugs: readonly string[]): Promise<void> {
    await uow.trx.deleteFrom('product_category').where('itemid', '=', itemid).execute();
    if (slugs.length > 0) {
      await uow.trx
        .insertInto('product_category')
        .values(slugs.map((category) => ({ category, itemid })))
        .execute();
    }
  }

  /** Keeps an uploaded picture's two files by their hash: the URLs of the thumbnail and the large picture. */
  async function storePicture(uow: UnitOfWork, thumb: PictureFile, large: PictureFile): Promise<ProductPicture> {
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
    return { pic: urls[0] as string, largepic: urls[1] as string };
  }

  /**
   * One change to a product's pictures, in a unit of work: `change` rearranges the list it is given (in order) and
   * says what the history says of it, or why it is refused. The first picture is the card's too.
   */
  function changePictures(
    owner: Owner,
    itemid: string,
    change: (
      uow: UnitOfWork,
      pictures: ProductPicture[],
      before: Product,
    ) => Promise<{ what: string[] } | { refuse: 'changed' | 'too-many' | 'unknown-picture' }>,
  ): Promise<PicturesResult> {
    return db.run(async (uow) => {
      await uow.lock('product', itemid);
      const before = await readProduct(uow, itemid);
      if (!before) return { ok: false, reason: 'not-found' } as const;
      const pictures = await uow.trx
        .selectFrom('product_picture')
        .select(['pic', 'largepic'])
        .where('itemid', '=', itemid)
        .orderBy('position')
        .execute();
      const outcome = await change(uow, pictures, before);
      if ('refuse' in outcome) return { ok: false, reason: outcome.refuse } as const;
      if (outcome.what.length === 0) return { ok: true, product: await productNow(uow, itemid) } as const;
      const first = pictures[0] ?? noPicture;
      await uow.trx.deleteFrom('product_picture').where('itemid', '=', itemid).execute();
      await uow.trx
        .insertInto('product_picture')
        .values(pictures.map((p, index) => ({ itemid, position: index + 1, pic: p.pic, largepic: p.largepic })))
        .execute();
      await uow.trx
        .updateTable('product')
        .set({ pic: first.pic, largepic: first.largepic, version: before.version + 1, updated_at: Date.now() })
        .where('itemid', '=', itemid)
        .execute();
      await recordChange(uow, owner, itemid, outcome.what);
      uow.publish(catalogueTopic, { type: 'products' });
      return { ok: true, product: await productNow(uow, itemid) } as const;
    });
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
        product: toAdmin(toProduct(row), await stock.sizesOf(itemid), (await extrasOf(db.kysely, itemid)).get(itemid)),
        history: changes.map((c) => ({ at: new Date(Number(c.at)).toISOString(), by: c.by_email, what: c.what })),
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
        await applySizes(uow, itemid, sizes, pairs);
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
        await applySizes(uow, itemid, [], pairSizes([], input.sizes));
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

    /**
     * Gives the product the new picture in place of its first (the card's): both files kept by their hash, the
     * product's URLs changed with them.
     */
    setPicture(owner: Owner, itemid: string, thumb: PictureFile, large: PictureFile): Promise<PicturesResult> {
      return changePictures(owner, itemid, async (uow, pictures) => {
        pictures[0] = await storePicture(uow, thumb, large);
        return { what: ['New picture'] };
      });
    },

    /**
     * Adds the picture after the product's others (in place of the stand-in of a product that has none); a product
     * with `findingLimits.picturesMax` already is `too-many`.
     */
    addPicture(owner: Owner, itemid: string, thumb: PictureFile, large: PictureFile): Promise<PicturesResult> {
      return changePictures(owner, itemid, async (uow, pictures) => {
        const own = pictures.filter((p) => p.pic !== noPicture.pic);
        if (own.length >= findingLimits.picturesMax) return { refuse: 'too-many' };
        pictures.splice(0, pictures.length, ...own, await storePicture(uow, thumb, large));
        return { what: [`Picture ${pictures.length} added`] };
      });
    },

    /**
     * Keeps the pictures at the places of `order` (from 1), in that order; the others are removed (a product left
     * with none shows the stand-in). Refused when the product is no longer the version the page showed.
     */
    orderPictures(owner: Owner, itemid: string, version: number, order: readonly number[]): Promise<PicturesResult> {
      return changePictures(owner, itemid, async (_, pictures, before) => {
        if (before.version !== version) return { refuse: 'changed' };
        if (order.some((place) => place > pictures.length)) return { refuse: 'unknown-picture' };
        const what = pictures.flatMap((_, index) =>
          order.includes(index + 1) ? [] : [`Picture ${index + 1} removed`],
        );
        const kept = order.map((place) => pictures[place - 1] as ProductPicture);
        if (order.some((place, index) => index > 0 && place < (order[index - 1] as number))) {
          what.push('Pictures reordered');
        }
        pictures.splice(0, pictures.length, ...(kept.length > 0 ? kept : [{ ...noPicture }]));
        return { what };
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
