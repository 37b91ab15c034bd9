import { type Migration, sql } from 'kysely';
import type { Dialect } from './dialect';

/** The order numbers' sequence and counter row, as 0003 named them. */
const orderNumber = 'order_number';

export const migration = (dialect: Dialect): Migration => ({
  async up(db) {
    // PostgreSQL's sequence skips the numbers of rolled-back transactions; a counter row, as SQLite has had since
    // 0003, gives them back. It starts where the sequence is (the last number given, or one before the first).
    if (dialect !== 'postgres') return;
    await db.schema
      .createTable('counter')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('value', 'integer', (c) => c.notNull())
      .execute();
    const name = sql.lit(orderNumber);
    await sql`insert into counter (name, value) select ${name}, case when is_called then last_value else last_value - 1 end from ${sql.id(orderNumber)}`.execute(
      db,
    );
    await sql`drop sequence ${sql.id(orderNumber)}`.execute(db);
  },
});
