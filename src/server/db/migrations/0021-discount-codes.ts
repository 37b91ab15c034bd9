import { type Migration, sql } from 'kysely';

export const migration: Migration = {
  async up(db) {
    // Discount codes (docs/decisions/0039-discount-codes.md). The database holds the count: `uses` goes up by a
    // conditional update in the order's own transaction, never past `max_uses`, and a CHECK holds it there whatever
    // the code does. `code_key` is the code without case, unique.
    await db.schema
      .createTable('discount_code')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('code', 'text', (c) => c.notNull())
      .addColumn('code_key', 'text', (c) => c.notNull().unique())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('value', 'integer', (c) => c.notNull())
      .addColumn('min_subtotal_cents', 'integer')
      .addColumn('first_day', 'text')
      .addColumn('last_day', 'text')
      .addColumn('max_uses', 'integer')
      .addColumn('once_per_rider', 'integer', (c) => c.notNull())
      .addColumn('enabled', 'integer', (c) => c.notNull())
      .addColumn('uses', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('created_by', 'text', (c) => c.notNull())
      .addCheckConstraint('discount_code_uses', sql`uses >= 0 and (max_uses is null or uses <= max_uses)`)
      .execute();
    // Each order that used a code, kept when the order is cancelled (`given_back_at` then says when its use came
    // back). A code that is 'Once per rider' has one use not given back per e-mail address at most, whatever the
    // account: the partial unique index holds it.
    await db.schema
      .createTable('discount_use')
      .addColumn('order_number', 'integer', (c) => c.primaryKey().references('shop_order.number'))
      .addColumn('discount_id', 'text', (c) => c.notNull().references('discount_code.id'))
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('once_per_rider', 'integer', (c) => c.notNull())
      .addColumn('given_back_at', 'bigint')
      .execute();
    await db.schema
      .createIndex('discount_use_once_per_rider')
      .on('discount_use')
      .columns(['discount_id', 'email'])
      .unique()
      .where(sql.ref('once_per_rider'), '=', 1)
      .where(sql.ref('given_back_at'), 'is', null)
      .execute();
  },
};
