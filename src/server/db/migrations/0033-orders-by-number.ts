import type { Migration } from 'kysely';
import type { Dialect } from './dialect';

export const migration = (dialect: Dialect): Migration => ({
  async up(db) {
    // The back office's order list finds a page's numbers from an index alone (docs/decisions/0042-the-shop-at-size.md):
    // SQLite's table is ordered by number but holds whole rows, so a page deep in 200,000 orders stepped over
    // 100,000 of them (46 ms); this index holds the numbers alone (8 ms). PostgreSQL's primary key is such an index.
    if (dialect === 'postgres') return;
    await db.schema.createIndex('shop_order_number').on('shop_order').column('number').execute();
  },
});
