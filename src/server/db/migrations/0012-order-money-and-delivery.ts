import { type Migration, sql } from 'kysely';

export const migration: Migration = {
  async up(db) {
    // An order's money becomes one value (docs/decisions/0032-an-orders-money.md): its parts as JSON beside the
    // total, with room for adjustments and tax lines; the two columns of parts go. Its delivery is its own, apart
    // from its payment: an order paid on collection was collected.
    await db.schema
      .alterTable('shop_order')
      .addColumn('delivery', 'text', (c) => c.notNull().defaultTo('shipping'))
      .execute();
    await db
      .updateTable('shop_order')
      .set({ delivery: 'collection' })
      .where('payment_method', '=', 'collection')
      .execute();
    await db.schema
      .alterTable('shop_order')
      .addColumn('money', 'text', (c) => c.notNull().defaultTo('{}'))
      .execute();
    await sql`update shop_order set money = '{"subtotalCents":' || subtotal_cents || ',"shippingCents":' || shipping_cents || '}'`.execute(
      db,
    );
    await db.schema.alterTable('shop_order').dropColumn('subtotal_cents').execute();
    await db.schema.alterTable('shop_order').dropColumn('shipping_cents').execute();
  },
};
