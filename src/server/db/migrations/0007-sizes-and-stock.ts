import { type Migration, sql } from 'kysely';

/**
 * The sizes of docs/product.md §12 and their first stock, by item number, as this migration seeded them. Part of it:
 * never edit it (the owner changes sizes and stock in the shop, not here).
 */
export const firstSizes: Readonly<Record<string, { sizes: readonly string[]; stock: number }>> = {
  '1': { sizes: ['Pony', 'Cob', 'Full', 'Warmblood'], stock: 5 },
  '2': { sizes: ['16.5"', '17"', '17.5"', '18"'], stock: 2 },
  '3': { sizes: ['6', '7', '8', '9', '10', '11'], stock: 5 },
  '4': { sizes: ['XS', 'S', 'M', 'L', 'XL'], stock: 5 },
  '5': { sizes: ['6', '7', '8', '9', '10', '11'], stock: 5 },
  '6': { sizes: ['Pony', 'Cob', 'Full'], stock: 5 },
  '7': { sizes: ['XS', 'S', 'M', 'L', 'XL'], stock: 5 },
  '8': { sizes: ['Pony', 'Cob', 'Full', 'Warmblood'], stock: 5 },
};

export const migration: Migration = {
  async up(db) {
    await db.schema
      .createTable('product_size')
      .addColumn('itemid', 'text', (c) => c.notNull())
      .addColumn('size', 'text', (c) => c.notNull())
      .addColumn('position', 'integer', (c) => c.notNull())
      // The database, not the code, keeps stock from going below zero (docs/decisions/0022-stock.md).
      .addColumn('stock', 'integer', (c) => c.notNull().check(sql`stock >= 0`))
      .addPrimaryKeyConstraint('product_size_pk', ['itemid', 'size'])
      .execute();
    await db
      .insertInto('product_size')
      .values(
        Object.entries(firstSizes).flatMap(([itemid, { sizes, stock }]) =>
          sizes.map((size, index) => ({ itemid, size, position: index + 1, stock })),
        ),
      )
      .execute();
    // Rows and lines from before sizes keep a null size: they stay readable, and checkout asks for a size.
    await db.schema.alterTable('cart_item').addColumn('size', 'text').execute();
    await db.schema.alterTable('order_line').addColumn('size', 'text').execute();
  },
};
