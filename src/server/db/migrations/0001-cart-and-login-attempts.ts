import type { Migration } from 'kysely';

export const migration: Migration = {
  async up(db) {
    await db.schema
      .createTable('cart_item')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('uid', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
      .addColumn('itemid', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('price_cents', 'integer', (c) => c.notNull())
      .addColumn('details', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('cart_item_uid_created_at').on('cart_item').columns(['uid', 'created_at']).execute();
    await db.schema
      .createTable('login_attempt')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('failures', 'integer', (c) => c.notNull())
      .addColumn('window_started_at', 'bigint', (c) => c.notNull())
      .execute();
  },
};
