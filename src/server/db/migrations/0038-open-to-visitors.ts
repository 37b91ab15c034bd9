import { type Migration, sql } from 'kysely';
import type { Dialect } from './dialect';

/**
 * Who can see a shop, as this migration adds it to the stored document for a new shop and an upgraded one alike
 * (docs/decisions/0055-open-to-visitors.md): its members only, as every shop was until then. Part of this migration:
 * never edit it.
 */
export const firstAccess: { openTo: 'members' | 'everyone' } = { openTo: 'members' };

export const migration = (dialect: Dialect): Migration => ({
  async up(db) {
    // Open to visitors if the owner wants (docs/decisions/0055-open-to-visitors.md). The settings gain 'Who can see
    // the shop', 'Members only' as every shop was; a visitor's cart is a row of its own (its id the SHA-256 of its
    // cookie), and a cart's row belongs to a rider or to a visitor's cart: never both, never neither.
    const row = await db.selectFrom('shop_settings').select('document').where('id', '=', 1).executeTakeFirst();
    if (row) {
      const document = { ...JSON.parse(row.document), access: firstAccess };
      await db
        .updateTable('shop_settings')
        .set({ document: JSON.stringify(document) })
        .where('id', '=', 1)
        .execute();
    }
    await db.schema
      .createTable('visitor_cart')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('address', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('changed_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('visitor_cart_address').on('visitor_cart').columns(['address', 'created_at']).execute();
    await db.schema.createIndex('visitor_cart_changed_at').on('visitor_cart').column('changed_at').execute();
    if (dialect === 'postgres') {
      await db.schema
        .alterTable('cart_item')
        .alterColumn('uid', (c) => c.dropNotNull())
        .execute();
      await db.schema
        .alterTable('cart_item')
        .addColumn('visitor_cart_id', 'text', (c) => c.references('visitor_cart.id').onDelete('cascade'))
        .execute();
      await sql`alter table cart_item add constraint cart_item_one_owner check ((uid is null) <> (visitor_cart_id is null))`.execute(
        db,
      );
    } else {
      // SQLite changes a column's constraints by making the table anew.
      await sql`create table cart_item_new (
        id text primary key,
        uid text references user(id) on delete cascade,
        visitor_cart_id text references visitor_cart(id) on delete cascade,
        itemid text not null,
        name text not null,
        price_cents integer not null,
        details text not null,
        created_at bigint not null,
        size text,
        check ((uid is null) <> (visitor_cart_id is null))
      )`.execute(db);
      await sql`insert into cart_item_new (id, uid, itemid, name, price_cents, details, created_at, size)
        select id, uid, itemid, name, price_cents, details, created_at, size from cart_item`.execute(db);
      await sql`drop table cart_item`.execute(db);
      await sql`alter table cart_item_new rename to cart_item`.execute(db);
      await db.schema.createIndex('cart_item_uid_created_at').on('cart_item').columns(['uid', 'created_at']).execute();
    }
    await db.schema
      .createIndex('cart_item_visitor_cart_created_at')
      .on('cart_item')
      .columns(['visitor_cart_id', 'created_at'])
      .execute();
  },
});
