import { type Migration, sql } from 'kysely';

/**
 * The eight products' weights as shipped, in grams, by item number, as this migration set them. Part of it: never
 * edit it (the owner sets weights in the back office).
 */
export const firstWeights: Readonly<Record<string, number>> = {
  '1': 900,
  '2': 7000,
  '3': 2300,
  '4': 1400,
  '5': 2100,
  '6': 700,
  '7': 1500,
  '8': 850,
};

export const migration: Migration = {
  async up(db) {
    // Each product's weight as shipped (docs/product.md §18: shipping by weight): the eight start with theirs, a product
    // added since with none until the owner gives it one.
    await db.schema
      .alterTable('product')
      .addColumn('weight_grams', 'integer', (c) => c.notNull().defaultTo(0).check(sql`weight_grams >= 0`))
      .execute();
    for (const [itemid, grams] of Object.entries(firstWeights)) {
      await db.updateTable('product').set({ weight_grams: grams }).where('itemid', '=', itemid).execute();
    }
  },
};
