import type { Migration } from 'kysely';

export const migration: Migration = {
  async up(db) {
    // Invoices and credit notes (docs/decisions/0038-invoices.md): numbered from counter rows made by each year's
    // first document; at most one of each kind for an order, whatever delivers the event that issues it twice.
    await db.schema
      .createTable('invoice')
      .addColumn('number', 'text', (c) => c.primaryKey())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('order_number', 'integer', (c) => c.notNull().references('shop_order.number'))
      .addColumn('issued_at', 'bigint', (c) => c.notNull())
      .addColumn('month', 'text', (c) => c.notNull())
      .addColumn('record', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('invoice_order_kind')
      .on('invoice')
      .columns(['order_number', 'kind'])
      .unique()
      .execute();
    await db.schema.createIndex('invoice_month').on('invoice').columns(['month', 'issued_at']).execute();
  },
};
