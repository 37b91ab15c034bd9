import type { Migration } from 'kysely';

export const migration: Migration = {
  async up(db) {
    // A rider's wait for a size out of stock (docs/decisions/0058-back-in-stock.md): one per rider and size, known by the
    // size's key (it stays when the size is renamed). It goes with the rider's account and with the size: a removed
    // size's waits end without an e-mail. The wait that ends with an e-mail is deleted in the unit that raises the stock.
    await db.schema
      .createTable('stock_wait')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('uid', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
      .addColumn('itemid', 'text', (c) => c.notNull())
      .addColumn('size_key', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addForeignKeyConstraint('stock_wait_size', ['itemid', 'size_key'], 'product_size', ['itemid', 'key'], (fk) =>
        fk.onDelete('cascade'),
      )
      .addUniqueConstraint('stock_wait_one_per_rider', ['uid', 'itemid', 'size_key'])
      .execute();
    await db.schema
      .createIndex('stock_wait_size_created_at')
      .on('stock_wait')
      .columns(['itemid', 'size_key', 'created_at'])
      .execute();
  },
};
