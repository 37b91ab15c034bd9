import { type Migration, sql } from 'kysely';
import type { Dialect } from './dialect';

/**
 * The eight products of docs/product.md §2, as this migration seeded them into the database, in the home page's
 * order. Part of this migration: never edit it (the owner changes the catalogue in the back office, not here).
 */
export interface FirstProduct {
  itemid: string;
  name: string;
  /** Price in integer cents of the shop's currency (a new shop's: USD). */
  priceCents: number;
  details: string;
  /** Thumbnail picture URL. */
  pic: string;
  /** Large picture URL, opened in a new window. */
  largepic: string;
}

function product(itemid: string, name: string, priceCents: number, slug: string, details: string): FirstProduct {
  return {
    itemid,
    name,
    priceCents,
    details,
    pic: `/pictures/${slug}-thumb.svg`,
    largepic: `/pictures/${slug}.svg`,
  };
}

export const firstCatalogue: readonly FirstProduct[] = [
  product(
    '1',
    'Anky Bridle',
    30299,
    'anky-bridle',
    'A black leather dressage bridle with a padded crown and a softly sparkling browband. Cut for a clean, elegant line in the arena.',
  ),
  product(
    '2',
    'Albion SLK Saddle',
    499000,
    'albion-slk-saddle',
    'A deep-seated dressage saddle with long, straight flaps and generous knee blocks. Made for a close contact and a long leg.',
  ),
  product(
    '3',
    'Ariat Westchester Boots',
    49999,
    'ariat-westchester-boots',
    'Tall field boots with laces at the ankle for a snug fit. Soft leather that breaks in quickly for schooling and shows.',
  ),
  product(
    '4',
    'Carlson Barn Jacket',
    37900,
    'carlson-barn-jacket',
    'A waxed-cotton barn jacket with a corduroy collar and deep pockets. Keeps out wind and rain on early mornings at the yard.',
  ),
  product(
    '5',
    'Carlson Tall Boots',
    39899,
    'carlson-tall-boots',
    'Black dressage boots with a stiff shaft and a full-length back zip. A classic silhouette for the competition ring.',
  ),
  product(
    '6',
    'Crochet Saddle Blanket',
    29900,
    'crochet-saddle-blanket',
    'A cream dressage saddle pad edged with crochet lace and a decorative cord. Quilted cotton that breathes under the saddle.',
  ),
  product(
    '7',
    'Dakota Barn Jacket',
    37900,
    'dakota-barn-jacket',
    'A quilted barn jacket in deep navy with a warm lining. Light enough to ride in, warm enough for winter chores.',
  ),
  product(
    '8',
    'Fellmore Bridle',
    34449,
    'fellmore-bridle',
    'A brown leather bridle with a flash noseband and rolled cheekpieces. Supple, hard-wearing leather for everyday training.',
  ),
];

export const migration = (dialect: Dialect): Migration => ({
  async up(db) {
    // The products, out of the code and into the owner's hands (docs/decisions/0024-owners-catalogue.md). `version`
    // goes up with every change: an owner's form that was filled from an older one is told the product changed.
    await db.schema
      .createTable('product')
      .addColumn('itemid', 'text', (c) => c.primaryKey())
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('details', 'text', (c) => c.notNull())
      .addColumn('price_cents', 'integer', (c) => c.notNull().check(sql`price_cents > 0`))
      .addColumn('pic', 'text', (c) => c.notNull())
      .addColumn('largepic', 'text', (c) => c.notNull())
      .addColumn('shown', 'integer', (c) => c.notNull())
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    const now = Date.now();
    await db
      .insertInto('product')
      .values(
        firstCatalogue.map((product, index) => ({
          itemid: product.itemid,
          position: index + 1,
          name: product.name,
          details: product.details,
          price_cents: product.priceCents,
          pic: product.pic,
          largepic: product.largepic,
          shown: 1,
          version: 1,
          updated_at: now,
        })),
      )
      .execute();
    // Each product's history: what changed, when, by whom.
    await db.schema
      .createTable('product_change')
      .addColumn('itemid', 'text', (c) => c.notNull().references('product.itemid'))
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('at', 'bigint', (c) => c.notNull())
      .addColumn('by_uid', 'text', (c) => c.references('user.id').onDelete('set null'))
      .addColumn('by_email', 'text', (c) => c.notNull())
      .addColumn('what', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('product_change_pk', ['itemid', 'seq'])
      .execute();
    // A size's key stays when the owner renames it; an order line keeps the key of the size it took stock from, so
    // that a cancel gives the stock back to that size whatever it is called by then. The first sizes' keys are
    // their first names; a new size gets a random one.
    await db.schema.alterTable('product_size').addColumn('key', 'text').execute();
    await db
      .updateTable('product_size')
      .set((eb) => ({ key: eb.ref('size') }))
      .execute();
    await db.schema.createIndex('product_size_key').on('product_size').columns(['itemid', 'key']).unique().execute();
    await db.schema.alterTable('order_line').addColumn('size_key', 'text').execute();
    // Uploaded pictures, by the hash of their bytes: every server has them, and one backup holds the whole shop.
    await db.schema
      .createTable('picture')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('content_type', 'text', (c) => c.notNull())
      .addColumn('bytes', dialect === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
  },
});
