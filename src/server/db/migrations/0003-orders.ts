import { type Migration, sql } from 'kysely';
import type { Dialect } from './dialect';

/**
 * The first order number: part of this migration, never the live settings (a shop that changes its settings later
 * must not change what an old migration did).
 */
export const firstOrderNumber = 10001;

/** The order numbers' sequence (PostgreSQL) or counter row (SQLite), as `sequences.orderNumber` named it then. */
const orderNumber = 'order_number';

export const migration = (dialect: Dialect): Migration => ({
  async up(db) {
    // Order numbers: a sequence on PostgreSQL; on SQLite, whose one writer runs one transaction at a time, a
    // counter row bumped in the placing transaction. `UnitOfWork.next` reads either.
    if (dialect === 'postgres') {
      await sql`create sequence ${sql.id(orderNumber)} start with ${sql.lit(firstOrderNumber)}`.execute(db);
    } else {
      await db.schema
        .createTable('counter')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', 'integer', (c) => c.notNull())
        .execute();
      await db
        .insertInto('counter')
        .values({ name: orderNumber, value: firstOrderNumber - 1 })
        .execute();
    }
    await db.schema
      .createTable('shop_order')
      .addColumn('number', 'integer', (c) => c.primaryKey())
      // Set to null when the account is deleted: the order stays, for the shop's books.
      .addColumn('uid', 'text', (c) => c.references('user.id').onDelete('set null'))
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('idempotency_key', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('payment_method', 'text', (c) => c.notNull())
      .addColumn('full_name', 'text', (c) => c.notNull())
      .addColumn('line1', 'text', (c) => c.notNull())
      .addColumn('line2', 'text', (c) => c.notNull())
      .addColumn('city', 'text', (c) => c.notNull())
      .addColumn('region', 'text', (c) => c.notNull())
      .addColumn('postal_code', 'text', (c) => c.notNull())
      .addColumn('country', 'text', (c) => c.notNull())
      .addColumn('phone', 'text', (c) => c.notNull())
      .addColumn('subtotal_cents', 'integer', (c) => c.notNull())
      .addColumn('shipping_cents', 'integer', (c) => c.notNull())
      .addColumn('total_cents', 'integer', (c) => c.notNull())
      .addColumn('item_count', 'integer', (c) => c.notNull())
      .addColumn('placed_at', 'bigint', (c) => c.notNull())
      .addUniqueConstraint('shop_order_uid_idempotency_key', ['uid', 'idempotency_key'])
      .execute();
    await db.schema.createIndex('shop_order_uid_number').on('shop_order').columns(['uid', 'number']).execute();
    await db.schema.createIndex('shop_order_status_number').on('shop_order').columns(['status', 'number']).execute();
    await db.schema.createIndex('shop_order_email').on('shop_order').column('email').execute();
    await db.schema.createIndex('shop_order_placed_at').on('shop_order').column('placed_at').execute();
    await db.schema
      .createTable('order_line')
      .addColumn('order_number', 'integer', (c) => c.notNull().references('shop_order.number'))
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('itemid', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('price_cents', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('order_line_pk', ['order_number', 'position'])
      .execute();
    await db.schema
      .createTable('order_event')
      .addColumn('order_number', 'integer', (c) => c.notNull().references('shop_order.number'))
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('at', 'bigint', (c) => c.notNull())
      .addColumn('by_role', 'text', (c) => c.notNull())
      .addColumn('by_uid', 'text', (c) => c.references('user.id').onDelete('set null'))
      .addColumn('by_email', 'text', (c) => c.notNull())
      .addColumn('note', 'text')
      .addPrimaryKeyConstraint('order_event_pk', ['order_number', 'seq'])
      .execute();
  },
});
