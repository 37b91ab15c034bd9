import { type Migration, sql } from 'kysely';
import type { Dialect } from './dialect';

/**
 * What the owner's reports read, kept where an index can reach it (docs/decisions/0066-reports-at-size.md): facts that
 * never change once written, copied beside the rows they belong to, so that a year's report reads indexes alone and
 * parses no JSON. Part of this migration: never edit it.
 */
export const migration = (dialect: Dialect): Migration => ({
  async up(db) {
    const money = dialect === 'postgres' ? 'bigint' : 'integer';

    // An order's shipping, as its money says it (the money never changes once the order is placed).
    await db.schema
      .alterTable('shop_order')
      .addColumn('shipping_cents', money, (c) => c.notNull().defaultTo(0))
      .execute();
    const shipping =
      dialect === 'postgres'
        ? sql`coalesce((money::json ->> 'shippingCents')::bigint, 0)`
        : sql`coalesce(json_extract(money, '$.shippingCents'), 0)`;
    await sql`update shop_order set shipping_cents = ${shipping}`.execute(db);
    // The days' orders and shipping, read from the index alone.
    await db.schema
      .createIndex('shop_order_sales')
      .on('shop_order')
      .columns(['placed_at', 'status', 'shipping_cents', 'number'])
      .execute();

    // A line's order's instant, so that the lines of a period are one range of one index.
    await db.schema
      .alterTable('order_line')
      .addColumn('placed_at', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
    await sql`update order_line set placed_at = (select o.placed_at from shop_order o
      where o.number = order_line.order_number)`.execute(db);
    await db.schema
      .createIndex('order_line_sales')
      .on('order_line')
      .columns(['placed_at', 'itemid', 'size_key', 'size', 'price_cents', 'discount_cents'])
      .execute();

    // Each tax line of each document (an invoice's, or a credit note's, negative), with the order's place: what the
    // tax report sums, written with the document.
    await db.schema
      .createTable('document_tax')
      .addColumn('document', 'text', (c) => c.notNull().references('invoice.number'))
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('issued_at', 'bigint', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('country', 'text', (c) => c.notNull())
      .addColumn('region', 'text', (c) => c.notNull())
      .addColumn('amount_cents', money, (c) => c.notNull())
      .addPrimaryKeyConstraint('document_tax_pk', ['document', 'position'])
      .execute();
    await db.schema
      .createIndex('document_tax_issued')
      .on('document_tax')
      .columns(['issued_at', 'name', 'country', 'region', 'amount_cents'])
      .execute();
    await (dialect === 'postgres'
      ? sql`insert into document_tax (document, position, issued_at, name, country, region, amount_cents)
          select i.number, t.position, i.issued_at, t.line ->> 'name', o.country, o.region,
            (t.line ->> 'amountCents')::bigint
          from invoice i join shop_order o on o.number = i.order_number,
            json_array_elements(i.record::json -> 'money' -> 'taxLines') with ordinality as t(line, position)
          where i.record like '%"taxLines"%'`
      : sql`insert into document_tax (document, position, issued_at, name, country, region, amount_cents)
          select i.number, t.key + 1, i.issued_at, json_extract(t.value, '$.name'), o.country, o.region,
            json_extract(t.value, '$.amountCents')
          from invoice i join shop_order o on o.number = i.order_number,
            json_each(i.record, '$.money.taxLines') as t
          where i.record like '%"taxLines"%'`
    ).execute(db);

    // The sizes low in stock, found without reading every size.
    await db.schema.createIndex('product_size_stock').on('product_size').columns(['stock', 'itemid']).execute();
  },
});
