import { type Migration, sql } from 'kysely';
import type { Dialect } from './dialect';

export const migration = (dialect: Dialect): Migration => ({
  async up(db) {
    // Amounts of money in 64-bit integers on PostgreSQL (docs/decisions/0053-an-orders-money-as-one-value.md), as
    // SQLite's integers already are: a total in cents of a currency with many units to the dollar passes 2^31.
    if (dialect !== 'postgres') return;
    const columns: [string, string][] = [
      ['product', 'price_cents'],
      ['cart_item', 'price_cents'],
      ['shop_order', 'total_cents'],
      ['order_line', 'price_cents'],
      ['discount_code', 'value'],
      ['discount_code', 'min_subtotal_cents'],
    ];
    for (const [table, column] of columns) {
      await sql`alter table ${sql.table(table)} alter column ${sql.ref(column)} type bigint`.execute(db);
    }
  },
});
