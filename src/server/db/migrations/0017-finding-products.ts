import { type Migration, sql } from 'kysely';
import type { Dialect } from './dialect';

/** A size guide as this migration wrote it (its shape then, frozen with it): a table of text. */
interface SizeGuide {
  columns: string[];
  rows: string[][];
}

/**
 * The five categories of docs/product.md §22 and their size guides, as this migration seeded them, with the first
 * products in each. Part of this migration: never edit it (the owner changes categories in the back office).
 */
export interface FirstCategory {
  slug: string;
  name: string;
  itemids: readonly string[];
  sizeGuide: SizeGuide;
}

export const firstCategories: readonly FirstCategory[] = [
  {
    slug: 'bridles',
    name: 'Bridles',
    itemids: ['1', '8'],
    sizeGuide: {
      columns: ['Size', 'Browband', 'Noseband'],
      rows: [
        ['Pony', '38 cm', '56 cm'],
        ['Cob', '40 cm', '60 cm'],
        ['Full', '42 cm', '64 cm'],
        ['Warmblood', '44 cm', '68 cm'],
      ],
    },
  },
  {
    slug: 'saddles',
    name: 'Saddles',
    itemids: ['2'],
    sizeGuide: {
      columns: ['Seat', "Rider's thigh (hip to knee)"],
      rows: [
        ['16.5"', 'up to 16"'],
        ['17"', '16" to 18"'],
        ['17.5"', '18" to 20"'],
        ['18"', 'over 20"'],
      ],
    },
  },
  {
    slug: 'boots',
    name: 'Boots',
    itemids: ['3', '5'],
    sizeGuide: {
      columns: ["Size (US women's)", 'Height', 'Calf'],
      rows: [
        ['6', '40 cm', '33 cm'],
        ['7', '41 cm', '34 cm'],
        ['8', '42 cm', '35 cm'],
        ['9', '43 cm', '36 cm'],
        ['10', '44 cm', '37 cm'],
        ['11', '45 cm', '38 cm'],
      ],
    },
  },
  {
    slug: 'jackets',
    name: 'Jackets',
    itemids: ['4', '7'],
    sizeGuide: {
      columns: ['Size', 'Chest'],
      rows: [
        ['XS', '81 to 86 cm'],
        ['S', '86 to 91 cm'],
        ['M', '91 to 97 cm'],
        ['L', '97 to 102 cm'],
        ['XL', '102 to 107 cm'],
      ],
    },
  },
  {
    slug: 'saddle-pads',
    name: 'Saddle pads',
    itemids: ['6'],
    sizeGuide: {
      columns: ['Size', 'Length along the spine'],
      rows: [
        ['Pony', '50 cm'],
        ['Cob', '54 cm'],
        ['Full', '58 cm'],
      ],
    },
  },
];

// What this migration needs of the code of its day, copied as it was (docs/decisions/0057-boundaries-that-hold.md):
// the slugs of src/server/catalogue/slugs.ts and the search index of src/server/catalogue/search-index.ts, which the
// catalogue keeps for itself and may change; this copy never does.

/** The Kysely a migration is given: it knows no tables. */
type Db = Parameters<Migration['up']>[0];

/** The longest slug made from a name (a suffix such as `-2` may follow). */
const slugMax = 60;

/**
 * The slug a name makes (docs/decisions/0036-finding-products.md): its letters and digits without their accents, in
 * lower case, the runs between them one `-`; 'product' for a name that has none.
 */
function slugOf(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .slice(0, slugMax)
    .replace(/^-+|-+$/g, '');
  return slug || 'product';
}

/** `base`, or the first of `base-2`, `base-3`... that `taken` says is free. */
async function freeSlug(base: string, taken: (slug: string) => boolean | Promise<boolean>): Promise<string> {
  for (let n = 1; ; n += 1) {
    const slug = n === 1 ? base : `${base}-${n}`;
    if (!(await taken(slug))) return slug;
  }
}

/** The fewest letters a searched word needs for one wrong letter in it to be forgiven. */
const typoMinLength = 5;
/** The words of a text as search sees them: runs of letters and digits, without their accents, in lower case. */
function searchWords(text: string): string[] {
  return (
    text
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/** `word` with each of its letters left out in turn. */
function deletions(word: string): string[] {
  const letters = [...word];
  return letters.map((_, i) => [...letters.slice(0, i), ...letters.slice(i + 1)].join(''));
}

/**
 * The schema of PostgreSQL's `unaccent` and `pg_trgm`: made once per database, where every shop of it (every test
 * run, each in a schema of its own) finds them. An extension belongs to the database, not to one schema, and one made
 * in a shop's schema would go with it when that schema is dropped.
 */
const extensions = sql.id('public');

/**
 * Makes the index's tables. On PostgreSQL the extensions come first, in `extensions`; shops migrating at once make
 * them one after another, and a database that has them elsewhere is told so.
 */
async function createSearchTables(db: Db, dialect: Dialect): Promise<void> {
  if (dialect === 'sqlite') {
    await sql`create virtual table product_search using fts5(body, tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3')`.execute(
      db,
    );
    await db.schema
      .createTable('search_word')
      .addColumn('word', 'text', (c) => c.primaryKey())
      .execute();
    await db.schema
      .createTable('search_variant')
      .addColumn('variant', 'text', (c) => c.notNull())
      .addColumn('word', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('search_variant_pk', ['variant', 'word'])
      .execute();
    return;
  }
  await sql`select pg_advisory_xact_lock(hashtext('piaffe_extensions'))`.execute(db);
  await sql`create extension if not exists unaccent schema public`.execute(db);
  await sql`create extension if not exists pg_trgm schema public`.execute(db);
  const { rows } = await sql<{ name: string; schema: string }>`select e.extname as name, n.nspname as schema
    from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname in ('unaccent', 'pg_trgm')`.execute(
    db,
  );
  const elsewhere = rows.find((row) => row.schema !== 'public');
  if (elsewhere)
    throw new Error(`Piaffe needs the extension ${elsewhere.name} in schema public, not ${elsewhere.schema}.`);
  await db.schema
    .createTable('product_search')
    .addColumn('itemid', 'text', (c) => c.primaryKey().references('product.itemid'))
    .addColumn('body', sql`tsvector`, (c) => c.notNull())
    .execute();
  await sql`create index product_search_body on product_search using gin (body)`.execute(db);
  await db.schema
    .createTable('search_word')
    .addColumn('word', 'text', (c) => c.primaryKey())
    .execute();
  await sql`create index search_word_trigrams on search_word using gin (word ${extensions}.gin_trgm_ops)`.execute(db);
}

/** Indexes the product as `db` (a unit of work's transaction) has it now: its name, details and categories' names. */
async function indexProduct(db: Db, dialect: Dialect, itemid: string): Promise<void> {
  const rows: { name: string; details: string; category: string | null }[] = await db
    .selectFrom('product as p')
    .leftJoin('product_category as pc', 'pc.itemid', 'p.itemid')
    .leftJoin('category as c', 'c.slug', 'pc.category')
    .select(['p.name', 'p.details', 'c.name as category'])
    .where('p.itemid', '=', itemid)
    .orderBy('c.position')
    .execute();
  const first = rows[0];
  if (!first) return;
  const text = [first.name, first.details, ...rows.flatMap((r) => (r.category ? [r.category] : []))].join(' ');
  const words = searchWords(text);
  const body = words.join(' ');
  if (dialect === 'sqlite') {
    // The item number, a whole number, is the product's row of the index.
    const row = Number(itemid);
    await sql`delete from product_search where rowid = ${row}`.execute(db);
    await sql`insert into product_search (rowid, body) values (${row}, ${body})`.execute(db);
  } else {
    await sql`insert into product_search (itemid, body) values (${itemid}, to_tsvector('simple', ${extensions}.unaccent(${body})))
      on conflict (itemid) do update set body = excluded.body`.execute(db);
  }
  await addToVocabulary(db, dialect, words);
}

/**
 * Adds the words that a wrong letter can lead to (those one letter shorter than `typoMinLength` and longer) to the
 * vocabulary. A word no product has any longer stays: searching for it finds nothing, as a word never indexed does.
 */
async function addToVocabulary(db: Db, dialect: Dialect, words: readonly string[]): Promise<void> {
  const candidates = [...new Set(words.filter((w) => [...w].length >= typoMinLength - 1))];
  if (candidates.length === 0) return;
  const added: { word: string }[] = await db
    .insertInto('search_word')
    .values(candidates.map((word) => ({ word })))
    .onConflict((oc) => oc.column('word').doNothing())
    .returning('word')
    .execute();
  if (dialect !== 'sqlite' || added.length === 0) return;
  const variants = added.flatMap(({ word }) => [word, ...deletions(word)].map((variant) => ({ variant, word })));
  await db
    .insertInto('search_variant')
    .values(variants)
    .onConflict((oc) => oc.columns(['variant', 'word']).doNothing())
    .execute();
}

export const migration = (dialect: Dialect): Migration => ({
  async up(db) {
    // Categories, slugs, pictures, size guides and the search index (docs/decisions/0036-finding-products.md).
    await db.schema
      .createTable('category')
      .addColumn('slug', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('size_guide', 'text')
      .execute();
    await db.schema
      .createTable('product_category')
      .addColumn('category', 'text', (c) => c.notNull().references('category.slug').onDelete('cascade'))
      .addColumn('itemid', 'text', (c) => c.notNull().references('product.itemid'))
      .addPrimaryKeyConstraint('product_category_pk', ['category', 'itemid'])
      .execute();
    await db.schema.createIndex('product_category_itemid').on('product_category').column('itemid').execute();
    // A product's slug is its address; every slug it ever had stays its own, so that old links lead to it.
    await db.schema.alterTable('product').addColumn('slug', 'text').execute();
    await db.schema.alterTable('product').addColumn('size_guide', 'text').execute();
    await db.schema
      .createTable('product_slug')
      .addColumn('slug', 'text', (c) => c.primaryKey())
      .addColumn('itemid', 'text', (c) => c.notNull().references('product.itemid'))
      .execute();
    await db.schema.createIndex('product_shown_position').on('product').columns(['shown', 'position']).execute();
    await db.schema.createIndex('product_size_size').on('product_size').columns(['size', 'itemid']).execute();
    // A product's pictures in the owner's order: the first is the card's (product.pic and largepic, kept in step).
    await db.schema
      .createTable('product_picture')
      .addColumn('itemid', 'text', (c) => c.notNull().references('product.itemid'))
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('pic', 'text', (c) => c.notNull())
      .addColumn('largepic', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('product_picture_pk', ['itemid', 'position'])
      .execute();
    await sql`insert into product_picture (itemid, position, pic, largepic) select itemid, 1, pic, largepic from product`.execute(
      db,
    );
    const products = await db.selectFrom('product').select(['itemid', 'name']).execute();
    const taken = new Set<string>();
    for (const { itemid, name } of products) {
      const slug = await freeSlug(slugOf(name), (s) => taken.has(s));
      taken.add(slug);
      await db.updateTable('product').set({ slug }).where('itemid', '=', itemid).execute();
      await db.insertInto('product_slug').values({ slug, itemid }).execute();
    }
    await db.schema.createIndex('product_slug_unique').on('product').column('slug').unique().execute();
    await db
      .insertInto('category')
      .values(
        firstCategories.map((category, index) => ({
          slug: category.slug,
          name: category.name,
          position: index + 1,
          size_guide: JSON.stringify(category.sizeGuide),
        })),
      )
      .execute();
    const itemids = new Set(products.map((p) => p.itemid));
    const placed = firstCategories.flatMap((category) =>
      category.itemids.filter((itemid) => itemids.has(itemid)).map((itemid) => ({ category: category.slug, itemid })),
    );
    if (placed.length > 0) await db.insertInto('product_category').values(placed).execute();
    await createSearchTables(db, dialect);
    const rows = await db.selectFrom('product').select('itemid').execute();
    for (const { itemid } of rows) await indexProduct(db, dialect, itemid);
  },
});
