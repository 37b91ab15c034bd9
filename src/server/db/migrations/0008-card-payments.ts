import type { Migration } from 'kysely';

export const migration: Migration = {
  async up(db) {
    // A card order's payment at Stripe (docs/decisions/0023-card-payments.md): its id once paid, its refund's
    // once refunded (and when the refund was asked for), and the lease of the server now talking to Stripe about it.
    await db.schema.alterTable('shop_order').addColumn('payment_id', 'text').execute();
    await db.schema.alterTable('shop_order').addColumn('refund_id', 'text').execute();
    await db.schema.alterTable('shop_order').addColumn('refund_started_at', 'bigint').execute();
    await db.schema.alterTable('shop_order').addColumn('card_lease_until', 'bigint').execute();
    await db.schema
      .createTable('card_session')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('order_number', 'integer', (c) => c.notNull().references('shop_order.number'))
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('card_session_order').on('card_session').column('order_number').execute();
    // Every verified webhook event, by Stripe's id: one delivered twice, or to two servers, is acted on once.
    await db.schema
      .createTable('stripe_event')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('received_at', 'bigint', (c) => c.notNull())
      .addColumn('order_ref', 'text')
      .addColumn('amount_cents', 'bigint')
      .addColumn('currency', 'text')
      .addColumn('outcome', 'text', (c) => c.notNull())
      .addColumn('problem', 'text')
      .execute();
    await db.schema.createIndex('stripe_event_received').on('stripe_event').column('received_at').execute();
  },
};
